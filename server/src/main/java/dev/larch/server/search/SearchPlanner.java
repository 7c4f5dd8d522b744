package dev.larch.server.search;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.larch.config.IndexKind;
import dev.larch.server.index.IndexKeys;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;

/**
 * Chooses candidate entry IDs for a filter from the attribute indexes.
 *
 * <p>Index answers are three-valued: a set of IDs (a superset of the matches), the empty set, or
 * null for "not indexed", meaning the caller must walk the search scope. AND intersects the
 * indexed terms, cheapest first, and stops early once the set is small; OR needs every term
 * indexed. A key holding more than the index entry limit counts as not indexed: reading it would
 * cost more than it narrows.
 *
 * <p>Thread-safe; works inside the caller's read transaction.
 */
public final class SearchPlanner {
    /** An AND stops intersecting once its candidate set is this small; the filter checks the rest. */
    private static final int SMALL_ENOUGH = 16;

    private final LmdbStore store;
    private final int indexEntryLimit;

    public SearchPlanner(LmdbStore store, int indexEntryLimit) {
        this.store = store;
        this.indexEntryLimit = indexEntryLimit <= 0 ? Integer.MAX_VALUE : indexEntryLimit;
    }

    /** Candidate IDs for {@code filter}, or null when the scope must be walked. */
    public IdSet candidates(ReadTxn txn, Filter filter) {
        return switch (filter) {
            case Filter.Undefined u -> IdSet.EMPTY;
            case Filter.Equality eq -> equality(txn, eq);
            case Filter.Presence p -> presence(txn, p);
            case Filter.Substring s -> substring(txn, s);
            case Filter.Ordering o -> ordering(txn, o);
            case Filter.And and -> and(txn, and);
            case Filter.Or or -> or(txn, or);
            case Filter.Not n -> null;
            case Filter.Extensible e -> null;
        };
    }

    /** A human-readable account of how {@code filter} would be answered, for tests and logs. */
    public String explain(Filter filter) {
        return switch (filter) {
            case Filter.Undefined u -> "empty(" + u.reason() + ")";
            case Filter.Equality eq ->
                allIndexed(eq.oids(), IndexKind.EQUALITY) ? "eq(" + eq.attribute() + ")" : "scan";
            case Filter.Presence p -> allIndexed(p.oids(), IndexKind.PRESENCE) ? "pres(" + p.attribute() + ")" : "scan";
            case Filter.Substring s ->
                prefixScanPossible(s)
                        ? "eq-prefix(" + s.attribute() + ")"
                        : allIndexed(s.oids(), IndexKind.SUBSTRING) ? "sub(" + s.attribute() + ")" : "scan";
            case Filter.Ordering o -> allIndexed(o.oids(), IndexKind.ORDERING) ? "ord(" + o.attribute() + ")" : "scan";
            case Filter.And and ->
                "and" + and.children().stream().map(this::explain).toList();
            case Filter.Or or ->
                "or" + or.children().stream().map(this::explain).toList();
            case Filter.Not n -> "scan";
            case Filter.Extensible e -> "scan";
        };
    }

    private IdSet equality(ReadTxn txn, Filter.Equality eq) {
        if (!allIndexed(eq.oids(), IndexKind.EQUALITY)) {
            return null;
        }
        IdSet out = IdSet.EMPTY;
        for (String oid : eq.oids()) {
            IdSet ids = txn.ids(oid, IndexKind.EQUALITY, eq.value(), indexEntryLimit);
            if (ids == null) {
                return null;
            }
            out = out.union(ids);
        }
        return out;
    }

    private IdSet presence(ReadTxn txn, Filter.Presence p) {
        if (!allIndexed(p.oids(), IndexKind.PRESENCE)) {
            return null;
        }
        IdSet out = IdSet.EMPTY;
        for (String oid : p.oids()) {
            IdSet ids = txn.ids(oid, IndexKind.PRESENCE, IndexKeys.PRESENCE_KEY, indexEntryLimit);
            if (ids == null) {
                return null;
            }
            out = out.union(ids);
        }
        return out;
    }

    private IdSet ordering(ReadTxn txn, Filter.Ordering o) {
        if (!allIndexed(o.oids(), IndexKind.ORDERING)) {
            return null;
        }
        IdSet out = IdSet.EMPTY;
        for (String oid : o.oids()) {
            IdSet ids = o.greaterOrEqual()
                    ? txn.idsInRange(oid, IndexKind.ORDERING, o.key(), null, false, indexEntryLimit)
                    : txn.idsInRange(oid, IndexKind.ORDERING, null, o.key(), false, indexEntryLimit);
            if (ids == null) {
                return null;
            }
            out = out.union(ids);
        }
        return out;
    }

    /** An initial-only substring is a key-prefix scan of the equality index: exact and ordered. */
    private boolean prefixScanPossible(Filter.Substring s) {
        return s.initial() != null
                && s.any().length == 0
                && s.last() == null
                && allIndexed(s.oids(), IndexKind.EQUALITY);
    }

    private IdSet substring(ReadTxn txn, Filter.Substring s) {
        if (prefixScanPossible(s)) {
            IdSet out = IdSet.EMPTY;
            for (String oid : s.oids()) {
                IdSet ids = txn.idsInRange(oid, IndexKind.EQUALITY, s.initial(), null, true, indexEntryLimit);
                if (ids == null) {
                    return null;
                }
                out = out.union(ids);
            }
            return out;
        }
        if (!allIndexed(s.oids(), IndexKind.SUBSTRING) || s.oids().length != 1) {
            return null;
        }
        List<byte[]> grams = new ArrayList<>();
        if (s.initial() != null) {
            grams.addAll(IndexKeys.grams(s.initial(), true, false));
        }
        for (byte[] piece : s.any()) {
            grams.addAll(IndexKeys.grams(piece, false, false));
        }
        if (s.last() != null) {
            grams.addAll(IndexKeys.grams(s.last(), false, true));
        }
        IdSet out = null;
        for (byte[] gram : grams) {
            IdSet ids = txn.ids(s.oids()[0], IndexKind.SUBSTRING, gram, indexEntryLimit);
            if (ids == null) {
                continue; // too common to narrow; the other grams and the filter decide
            }
            out = out == null ? ids : out.intersect(ids);
            if (out.size() <= SMALL_ENOUGH) {
                break;
            }
        }
        return out;
    }

    private IdSet and(ReadTxn txn, Filter.And and) {
        List<Filter> ordered = new ArrayList<>(and.children());
        ordered.sort(Comparator.comparingInt(SearchPlanner::costRank));
        IdSet out = null;
        for (Filter child : ordered) {
            IdSet ids = candidates(txn, child);
            if (ids == null) {
                continue;
            }
            out = out == null ? ids : out.intersect(ids);
            if (out.size() <= SMALL_ENOUGH) {
                break;
            }
        }
        return out;
    }

    private IdSet or(ReadTxn txn, Filter.Or or) {
        IdSet out = IdSet.EMPTY;
        for (Filter child : or.children()) {
            IdSet ids = candidates(txn, child);
            if (ids == null) {
                return null;
            }
            out = out.union(ids);
        }
        return out;
    }

    /** Cheaper, more selective terms first: equality reads one key, ranges and grams read many. */
    private static int costRank(Filter f) {
        return switch (f) {
            case Filter.Undefined u -> 0;
            case Filter.Equality e -> 1;
            case Filter.Substring s -> 2;
            case Filter.Ordering o -> 3;
            case Filter.Presence p -> 4;
            default -> 5;
        };
    }

    private boolean allIndexed(String[] oids, IndexKind kind) {
        for (String oid : oids) {
            if (!store.isIndexed(oid, kind)) {
                return false;
            }
        }
        return true;
    }
}
