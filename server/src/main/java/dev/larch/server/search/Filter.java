package dev.larch.server.search;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.IndexKeys;

/**
 * A search filter compiled against the schema: attribute descriptions resolved to OIDs (with
 * their subtypes) and assertion values normalized once per request rather than once per entry.
 *
 * <p>The filter is the final authority on what matches; indexes only narrow the candidates.
 * Implementations are immutable and thread-safe.
 */
public sealed interface Filter {

    Tri evaluate(StoredEntry entry);

    /** Whether the entry's values of any of {@code oids} satisfy {@code test}. */
    private static boolean anyValue(StoredEntry entry, String[] oids, Predicate<byte[]> test) {
        for (String oid : oids) {
            StoredAttribute a = entry.attribute(oid);
            if (a != null) {
                for (byte[] normalized : a.normalized()) {
                    if (test.test(normalized)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    record And(List<Filter> children) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            Tri result = Tri.TRUE;
            for (Filter f : children) {
                Tri r = f.evaluate(entry);
                if (r == Tri.FALSE) {
                    return Tri.FALSE;
                }
                if (r == Tri.UNDEFINED) {
                    result = Tri.UNDEFINED;
                }
            }
            return result;
        }
    }

    record Or(List<Filter> children) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            Tri result = Tri.FALSE;
            for (Filter f : children) {
                Tri r = f.evaluate(entry);
                if (r == Tri.TRUE) {
                    return Tri.TRUE;
                }
                if (r == Tri.UNDEFINED) {
                    result = Tri.UNDEFINED;
                }
            }
            return result;
        }
    }

    record Not(Filter child) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            return child.evaluate(entry).not();
        }
    }

    /** An item that can never be TRUE: unknown attribute, no suitable matching rule, bad value. */
    record Undefined(String reason) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            return Tri.UNDEFINED;
        }
    }

    /**
     * Equality (and approximate, which we match as equality, as RFC 4511 permits).
     *
     * @param oids the attribute type and its subtypes
     * @param value the normalized assertion value, compared with the entries' normalized values
     * @param key the equality index key of {@code value} ({@link IndexKeys#equalityKey}), read by the planner
     */
    record Equality(String attribute, String[] oids, byte[] value, byte[] key) implements Filter {
        /**
         * Whether the equality index answers this filter exactly: its key is the whole normalized
         * value unless that value is cut at LMDB's key size, so below it no candidate needs checking.
         */
        public boolean indexIsExact() {
            return value.length > 0 && value.length < IndexKeys.MAX_KEY_BYTES;
        }

        @Override
        public Tri evaluate(StoredEntry entry) {
            return Tri.of(anyValue(entry, oids, v -> Arrays.equals(v, value)));
        }
    }

    record Presence(String attribute, String[] oids) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            for (String oid : oids) {
                if (entry.attribute(oid) != null) {
                    return Tri.TRUE;
                }
            }
            return Tri.FALSE;
        }
    }

    /** Substrings with normalized pieces; {@code initial}/{@code last} may be null. */
    record Substring(String attribute, String[] oids, byte[] initial, byte[][] any, byte[] last) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            return Tri.of(anyValue(entry, oids, this::matches));
        }

        boolean matches(byte[] v) {
            int from = 0;
            int end = v.length;
            if (initial != null) {
                if (!regionEquals(v, 0, initial)) {
                    return false;
                }
                from = initial.length;
            }
            if (last != null) {
                end = v.length - last.length;
                if (end < from || !regionEquals(v, end, last)) {
                    return false;
                }
            }
            for (byte[] piece : any) {
                int at = indexOf(v, piece, from, end);
                if (at < 0) {
                    return false;
                }
                from = at + piece.length;
            }
            return true;
        }

        private static boolean regionEquals(byte[] v, int offset, byte[] piece) {
            return offset >= 0
                    && offset + piece.length <= v.length
                    && Arrays.equals(v, offset, offset + piece.length, piece, 0, piece.length);
        }

        private static int indexOf(byte[] v, byte[] piece, int from, int end) {
            for (int i = from; i + piece.length <= end; i++) {
                if (Arrays.equals(v, i, i + piece.length, piece, 0, piece.length)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /**
     * Greater-or-equal or less-or-equal, comparing order-preserving keys so the filter and the
     * ordering index agree exactly.
     */
    record Ordering(String attribute, String[] oids, byte[] key, boolean greaterOrEqual, String syntaxOid)
            implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            return Tri.of(anyValue(entry, oids, v -> {
                int c = Arrays.compareUnsigned(IndexKeys.orderingKey(v, syntaxOid), key);
                return greaterOrEqual ? c >= 0 : c <= 0;
            }));
        }
    }

    /** Extensible match: a value test with a named rule over one attribute or all it applies to. */
    record Extensible(String description, ExtensibleTest test) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            return test.evaluate(entry);
        }
    }

    /**
     * The groups holding an entry, directly or through groups in them, not yet read: {@code
     * (member:1.2.840.113556.1.4.1941:=X)}. It needs the store, so {@link GroupGraph#bind} turns it
     * into an {@link InSet} in the search's transaction; unbound it is Undefined. (The rule on
     * memberOf is plain equality on the stored values.)
     *
     * @param normalizedDn the assertion value, the DN of X as the schema normalizes it
     */
    record InChain(String description, String normalizedDn) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            return Tri.UNDEFINED;
        }
    }

    /** Membership in a set of entries read from the store for this search ({@link GroupGraph#bind}). */
    record InSet(String description, IdSet ids) implements Filter {
        @Override
        public Tri evaluate(StoredEntry entry) {
            return ids.contains(entry.id()) ? Tri.TRUE : Tri.FALSE;
        }
    }

    /** The evaluation behind an {@link Extensible} filter. */
    @FunctionalInterface
    interface ExtensibleTest {
        Tri evaluate(StoredEntry entry);
    }
}
