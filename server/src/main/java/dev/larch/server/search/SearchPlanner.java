package dev.larch.server.search;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import dev.larch.config.IndexKind;
import dev.larch.server.search.Plan.Step;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.IndexKeys;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;

import static dev.larch.server.store.IndexKeys.PRESENCE_KEY;

/**
 * Chooses candidate entry IDs for a filter from the attribute indexes, and says how.
 *
 * <p>Index answers are three-valued: a set of IDs (a superset of the matches), the empty set, or
 * none for "not indexed", meaning the caller must walk the search scope. AND intersects the
 * indexed terms, cheapest first, reads a {@code >=} and a {@code <=} of one attribute as one
 * bounded range, and stops early once the set is small; OR needs every term indexed. A key holding
 * more than the index entry limit counts as not indexed: reading it would cost more than it narrows.
 *
 * <p>Every index read first asks the search's {@link SearchBudget} (abandon, deadline, IDs read so
 * far) and then pays for what it read, so a filter of many terms stops at the first read past a bound
 * with the budget's result code, never after reading every term. An OR's terms are united once at
 * the end, not pairwise as they are read.
 *
 * <p>Thread-safe; works inside the caller's read transaction.
 */
public final class SearchPlanner {
    /** An AND stops intersecting once its candidate set is this small; the filter checks the rest. */
    private static final int SMALL_ENOUGH = 16;

    private final LmdbStore store;
    private final int indexEntryLimit;
    /** The index entry limit as the budget takes it: 0 when there is none. */
    private final int budgetedEntryLimit;

    /**
     * A planner over the same store that reads no key holding more than {@code maxIds} IDs (such a key
     * answers "not indexed"), for when a search with more candidates could not run anyway: its plan
     * costs at most a few reads of {@code maxIds} IDs instead of whole broad keys.
     */
    public SearchPlanner capped(int maxIds) {
        return new SearchPlanner(store, Math.min(indexEntryLimit, maxIds));
    }

    public SearchPlanner(LmdbStore store, int indexEntryLimit) {
        this.store = store;
        this.indexEntryLimit = indexEntryLimit <= 0 ? Integer.MAX_VALUE : indexEntryLimit;
        this.budgetedEntryLimit = Math.max(0, indexEntryLimit);
    }

    /** The candidates for {@code filter}, with no bound on the reading: for tools and tests. */
    public Plan plan(ReadTxn txn, Filter filter) {
        return plan(txn, filter, SearchBudget.unlimited());
    }

    /**
     * The candidates for {@code filter} and how they were found, paying every index read from
     * {@code budget}.
     *
     * @throws dev.larch.server.error.ResultCodeException adminLimitExceeded when the budget's share for
     *     index IDs is spent, timeLimitExceeded past its deadline, canceled once abandoned
     */
    public Plan plan(ReadTxn txn, Filter filter, SearchBudget budget) {
        return switch (filter) {
            case Filter.Undefined u -> Plan.empty(u.reason());
            case Filter.Equality eq ->
                read(
                        txn,
                        budget,
                        Step.EQUALITY,
                        eq.attribute(),
                        eq.oids(),
                        IndexRead.key(IndexKind.EQUALITY, eq.key()));
            case Filter.Presence p ->
                read(
                        txn,
                        budget,
                        Step.PRESENCE,
                        p.attribute(),
                        p.oids(),
                        IndexRead.key(IndexKind.PRESENCE, PRESENCE_KEY));
            case Filter.Substring s -> substring(txn, budget, s);
            case Filter.Ordering o ->
                read(
                        txn,
                        budget,
                        Step.ORDERING,
                        o.attribute(),
                        o.oids(),
                        o.greaterOrEqual()
                                ? IndexRead.range(IndexKind.ORDERING, o.key(), null)
                                : IndexRead.range(IndexKind.ORDERING, null, o.key()));
            case Filter.And and -> and(txn, budget, and);
            case Filter.Or or -> or(txn, budget, or);
            case Filter.Not n -> Plan.notIndexed();
            case Filter.Extensible e -> Plan.notIndexed();
            case Filter.InChain c -> Plan.empty("in-chain filter not read"); // Undefined for every entry
            case Filter.InSet in -> Plan.indexRead(Step.IN_CHAIN, in.description(), in.ids());
        };
    }

    /**
     * One index read for each OID the attribute stands for (itself and its subtypes), united. Not
     * indexed when any OID lacks the index; over the limit when any key or range holds too many IDs.
     */
    private Plan read(ReadTxn txn, SearchBudget budget, Step step, String attribute, String[] oids, IndexRead read) {
        if (!allIndexed(oids, read.kind())) {
            return Plan.notIndexed();
        }
        IdSet out = IdSet.EMPTY;
        for (String oid : oids) {
            budget.beforeIndexRead(budgetedEntryLimit);
            IdSet ids = read.ids(txn, oid, indexEntryLimit);
            // Over the limit, a key is only counted but a range has read up to the limit's IDs.
            budget.indexRead(ids != null ? ids.size() : read.key() != null ? 1 : indexEntryLimit, budgetedEntryLimit);
            if (ids == null) {
                return Plan.indexRead(step, attribute, null);
            }
            out = out.union(ids);
        }
        return Plan.indexRead(step, attribute, out);
    }

    private Plan substring(ReadTxn txn, SearchBudget budget, Filter.Substring s) {
        if (s.initial() != null
                && s.any().length == 0
                && s.last() == null
                && allIndexed(s.oids(), IndexKind.EQUALITY)) {
            // An initial-only substring is a key-prefix scan of the equality index: exact and ordered.
            return read(
                    txn,
                    budget,
                    Step.PREFIX,
                    s.attribute(),
                    s.oids(),
                    IndexRead.prefix(IndexKind.EQUALITY, s.initial()));
        }
        // Grams of several OIDs would need a union per gram; attributes with subtypes are walked.
        if (s.oids().length != 1 || !allIndexed(s.oids(), IndexKind.SUBSTRING)) {
            return Plan.notIndexed();
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
            budget.beforeIndexRead(budgetedEntryLimit);
            IdSet ids = txn.ids(s.oids()[0], IndexKind.SUBSTRING, gram, indexEntryLimit);
            budget.indexRead(ids == null ? 1 : ids.size(), budgetedEntryLimit);
            if (ids == null) {
                continue; // too common to narrow; the other grams and the filter decide
            }
            out = out == null ? ids : out.intersect(ids);
            if (out.size() <= SMALL_ENOUGH) {
                break;
            }
        }
        return Plan.indexRead(Step.SUBSTRING, s.attribute(), out);
    }

    private Plan and(ReadTxn txn, SearchBudget budget, Filter.And and) {
        List<Term> ordered = pairRanges(and.children());
        ordered.sort(Comparator.comparingInt(term -> costRank(term.filter())));
        List<Plan> read = new ArrayList<>(ordered.size());
        IdSet out = null;
        for (Term term : ordered) {
            if (out != null && !budget.hasRoomForIndexRead(budgetedEntryLimit)) {
                break; // the candidates so far are a superset already; the filter checks the rest
            }
            Plan plan = term.upperBound() == null ? plan(txn, term.filter(), budget) : range(txn, budget, term);
            read.add(plan);
            IdSet ids = plan.ids();
            if (ids == null) {
                continue;
            }
            out = out == null ? ids : out.intersect(ids);
            if (out.size() <= SMALL_ENOUGH) {
                break;
            }
        }
        return Plan.and(read, ordered.size() - read.size(), out);
    }

    private Plan or(ReadTxn txn, SearchBudget budget, Filter.Or or) {
        List<Plan> parts = new ArrayList<>(or.children().size());
        List<IdSet> sets = new ArrayList<>(or.children().size());
        for (Filter child : or.children()) {
            Plan plan = plan(txn, child, budget);
            parts.add(plan);
            if (plan.ids() == null) {
                return Plan.or(parts, null);
            }
            sets.add(plan.ids());
        }
        return Plan.or(parts, IdSet.unionAll(sets));
    }

    /**
     * The AND's terms as the planner reads them: each {@code (a>=x)} paired with a {@code (a<=y)} of
     * the same attribute becomes one term, so the ordering index is read once between the bounds
     * instead of twice to its ends. A new, modifiable list; the filter itself is unchanged and still
     * checks every item.
     */
    private static List<Term> pairRanges(List<Filter> children) {
        List<Term> out = new ArrayList<>(children.size());
        boolean[] paired = new boolean[children.size()];
        for (int i = 0; i < children.size(); i++) {
            if (paired[i]) {
                continue;
            }
            Term term = new Term(children.get(i), null);
            if (children.get(i) instanceof Filter.Ordering first) {
                for (int j = i + 1; j < children.size(); j++) {
                    if (!paired[j]
                            && children.get(j) instanceof Filter.Ordering second
                            && first.greaterOrEqual() != second.greaterOrEqual()
                            && Arrays.equals(first.oids(), second.oids())) {
                        paired[j] = true;
                        term = first.greaterOrEqual() ? new Term(first, second) : new Term(second, first);
                        break;
                    }
                }
            }
            out.add(term);
        }
        return out;
    }

    private Plan range(ReadTxn txn, SearchBudget budget, Term term) {
        Filter.Ordering low = (Filter.Ordering) term.filter();
        return read(
                txn,
                budget,
                Step.RANGE,
                low.attribute(),
                low.oids(),
                IndexRead.range(IndexKind.ORDERING, low.key(), term.upperBound().key()));
    }

    /**
     * One term of an AND as the planner reads it: a filter, or a {@code >=} (the filter) with the
     * {@code <=} of the same attribute that bounds it from above.
     */
    private record Term(Filter filter, Filter.Ordering upperBound) {}

    /** What to read from one index for one OID: a single key, or a range of keys. */
    private record IndexRead(IndexKind kind, byte[] key, byte[] from, byte[] to, boolean prefixOnly) {
        static IndexRead key(IndexKind kind, byte[] key) {
            return new IndexRead(kind, key, null, null, false);
        }

        /** Keys from {@code from} to {@code to}, both inclusive; a null bound is open. */
        static IndexRead range(IndexKind kind, byte[] from, byte[] to) {
            return new IndexRead(kind, null, from, to, false);
        }

        static IndexRead prefix(IndexKind kind, byte[] prefix) {
            return new IndexRead(kind, null, prefix, null, true);
        }

        /** The IDs under the key or range, or null when more than {@code limit}. */
        IdSet ids(ReadTxn txn, String oid, int limit) {
            return key != null
                    ? txn.ids(oid, kind, key, limit)
                    : txn.idsInRange(oid, kind, from, to, prefixOnly, limit);
        }
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
            if (!store.indexes().isIndexed(oid, kind)) {
                return false;
            }
        }
        return true;
    }
}
