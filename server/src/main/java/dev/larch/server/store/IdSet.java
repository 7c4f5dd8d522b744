package dev.larch.server.store;

import java.util.Arrays;
import java.util.List;

/**
 * An immutable, sorted set of entry IDs, as index lookups produce them.
 *
 * <p>IDs are kept in a plain {@code long[]} because LMDB's duplicate-sorted index values already
 * arrive in ascending order: intersection and union are then linear merges with no boxing.
 */
public final class IdSet {
    public static final IdSet EMPTY = new IdSet(new long[0], 0);
    /** The longest Java array the VM reliably allocates. */
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private final long[] ids;
    private final int size;

    IdSet(long[] ids, int size) {
        this.ids = ids;
        this.size = size;
    }

    /** Builds a set from IDs that are already strictly ascending. */
    public static IdSet ofSorted(long... ids) {
        return new IdSet(ids, ids.length);
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long get(int index) {
        return ids[index];
    }

    public boolean contains(long id) {
        return Arrays.binarySearch(ids, 0, size, id) >= 0;
    }

    public IdSet intersect(IdSet other) {
        long[] out = new long[Math.min(size, other.size)];
        int i = 0, j = 0, n = 0;
        while (i < size && j < other.size) {
            long a = ids[i], b = other.ids[j];
            if (a == b) {
                out[n++] = a;
                i++;
                j++;
            } else if (a < b) {
                i++;
            } else {
                j++;
            }
        }
        return n == 0 ? EMPTY : new IdSet(out, n);
    }

    public IdSet union(IdSet other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        long[] out = new long[size + other.size];
        int i = 0, j = 0, n = 0;
        while (i < size || j < other.size) {
            long next;
            if (j >= other.size || (i < size && ids[i] < other.ids[j])) {
                next = ids[i++];
            } else if (i >= size || other.ids[j] < ids[i]) {
                next = other.ids[j++];
            } else {
                next = ids[i++];
                j++;
            }
            out[n++] = next;
        }
        return new IdSet(out, n);
    }

    /**
     * The union of any number of sets in one pass over their IDs: copied together once, then sorted
     * and deduplicated, so uniting k sets of n IDs in all costs O(n log n), not the O(k·n) of
     * uniting them pairwise (each step copying everything united so far).
     */
    public static IdSet unionAll(List<IdSet> sets) {
        if (sets.size() <= 2) {
            return sets.isEmpty()
                    ? EMPTY
                    : sets.size() == 1 ? sets.get(0) : sets.get(0).union(sets.get(1));
        }
        long total = 0;
        for (IdSet set : sets) {
            total += set.size;
        }
        if (total > MAX_ARRAY) {
            throw new IllegalArgumentException("union of " + total + " IDs is larger than one array");
        }
        long[] all = new long[(int) total];
        int n = 0;
        for (IdSet set : sets) {
            System.arraycopy(set.ids, 0, all, n, set.size);
            n += set.size;
        }
        return sortedDistinct(all, n);
    }

    /** Sorts the first {@code size} IDs in place and drops repeats. */
    private static IdSet sortedDistinct(long[] ids, int size) {
        if (size == 0) {
            return EMPTY;
        }
        Arrays.sort(ids, 0, size);
        int n = 1;
        for (int i = 1; i < size; i++) {
            if (ids[i] != ids[n - 1]) {
                ids[n++] = ids[i];
            }
        }
        return new IdSet(ids, n);
    }

    /** Collects IDs in ascending order; {@link #add} ignores a repeat of the last ID. */
    public static final class Builder {
        private long[] ids = new long[16];
        private int size;
        private boolean sorted = true;

        public void add(long id) {
            if (size > 0) {
                long last = ids[size - 1];
                if (id == last) {
                    return;
                }
                if (id < last) {
                    sorted = false;
                }
            }
            if (size == ids.length) {
                ids = Arrays.copyOf(ids, size * 2);
            }
            ids[size++] = id;
        }

        public int size() {
            return size;
        }

        public IdSet build() {
            if (size == 0) {
                return EMPTY;
            }
            return sorted ? new IdSet(ids, size) : sortedDistinct(ids, size);
        }
    }
}
