package dev.larch.server.store;

import java.util.Arrays;

/**
 * An immutable, sorted set of entry IDs, as index lookups produce them.
 *
 * <p>IDs are kept in a plain {@code long[]} because LMDB's duplicate-sorted index values already
 * arrive in ascending order: intersection and union are then linear merges with no boxing.
 */
public final class IdSet {
    public static final IdSet EMPTY = new IdSet(new long[0], 0);

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
            if (!sorted) {
                Arrays.sort(ids, 0, size);
                int n = 1;
                for (int i = 1; i < size; i++) {
                    if (ids[i] != ids[n - 1]) {
                        ids[n++] = ids[i];
                    }
                }
                size = n;
            }
            return new IdSet(ids, size);
        }
    }
}
