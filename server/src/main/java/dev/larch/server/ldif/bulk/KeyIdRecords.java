package dev.larch.server.ldif.bulk;

import java.util.Arrays;

/**
 * The (key, ID) records of one index held in memory, in arrival order until {@link #sort()}.
 *
 * <p>Layout: every record in one byte arena as {@code keyLength:u16 key id:i64}, plus, per
 * record, its arena offset and a sort prefix (the key's first seven bytes and its length up to
 * seven, so that most comparisons are one unsigned {@code long} comparison). {@link #bytes()} is
 * what the arrays hold allocated, the figure a memory bound is checked against.
 *
 * <p>Not thread-safe.
 */
final class KeyIdRecords {
    /** The longest key a record holds: the length is stored in two bytes. */
    static final int MAX_KEY_BYTES = 0xFFFF;

    private static final int PREFIX_BYTES = 7;
    private static final int INSERTION_SORT_BELOW = 16;

    private byte[] arena = new byte[1 << 12];
    private int used;
    private long[] prefixes = new long[256];
    private int[] offsets = new int[256];
    private int count;

    /**
     * Adds a record; {@code key} is copied.
     *
     * @throws IllegalArgumentException when the key is longer than {@link #MAX_KEY_BYTES}
     */
    void add(byte[] key, long id) {
        if (key.length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("index key of " + key.length + " bytes");
        }
        int need = 2 + key.length + Long.BYTES;
        if (used + need > arena.length) {
            long grown = Math.max((long) used + need, 2L * arena.length);
            if (grown > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("index run over 2 GB: lower the import's sort memory");
            }
            arena = Arrays.copyOf(arena, (int) grown);
        }
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, 2 * count);
            prefixes = Arrays.copyOf(prefixes, 2 * count);
        }
        offsets[count] = used;
        prefixes[count] = prefix(key, 0, key.length);
        arena[used] = (byte) (key.length >>> 8);
        arena[used + 1] = (byte) key.length;
        System.arraycopy(key, 0, arena, used + 2, key.length);
        putLong(arena, used + 2 + key.length, id);
        used += need;
        count++;
    }

    int size() {
        return count;
    }

    /** The memory the buffers hold allocated, in bytes (arrays' payloads). */
    long bytes() {
        return arena.length + 8L * prefixes.length + 4L * offsets.length;
    }

    /** Forgets every record and gives back the memory beyond the initial buffers. */
    void clear() {
        arena = new byte[1 << 12];
        prefixes = new long[256];
        offsets = new int[256];
        used = 0;
        count = 0;
    }

    /** Sorts the records by key, then ID. */
    void sort() {
        quickSort(0, count - 1);
    }

    /** A cursor over the records in their current order (sorted once {@link #sort()} ran). */
    KeyIdCursor cursor() {
        return new KeyIdCursor() {
            private int i = -1;

            @Override
            public boolean next() {
                return ++i < count;
            }

            @Override
            public byte[] keyArray() {
                return arena;
            }

            @Override
            public int keyOffset() {
                return offsets[i] + 2;
            }

            @Override
            public int keyLength() {
                return lengthAt(offsets[i]);
            }

            @Override
            public long id() {
                int o = offsets[i];
                return getLong(arena, o + 2 + lengthAt(o));
            }

            @Override
            public void close() {}
        };
    }

    private int lengthAt(int offset) {
        return ((arena[offset] & 0xFF) << 8) | (arena[offset + 1] & 0xFF);
    }

    /**
     * The key's first seven bytes, big-endian, then its length capped at seven: the unsigned order
     * of prefixes is the key order, except that two keys of seven bytes or more with the same first
     * seven tie and need the full comparison.
     */
    static long prefix(byte[] key, int from, int length) {
        long p = 0;
        for (int i = 0; i < PREFIX_BYTES; i++) {
            p = (p << 8) | (i < length ? key[from + i] & 0xFF : 0);
        }
        return (p << 8) | Math.min(length, PREFIX_BYTES);
    }

    private int compare(int a, int b) {
        int c = Long.compareUnsigned(prefixes[a], prefixes[b]);
        if (c != 0) {
            return c;
        }
        int oa = offsets[a];
        int ob = offsets[b];
        int la = lengthAt(oa);
        int lb = lengthAt(ob);
        if (la >= PREFIX_BYTES && lb >= PREFIX_BYTES) {
            c = Arrays.compareUnsigned(arena, oa + 2, oa + 2 + la, arena, ob + 2, ob + 2 + lb);
            if (c != 0) {
                return c;
            }
        }
        return Long.compare(getLong(arena, oa + 2 + la), getLong(arena, ob + 2 + lb));
    }

    private void quickSort(int lo, int hi) {
        while (hi - lo >= INSERTION_SORT_BELOW) {
            int mid = (lo + hi) >>> 1;
            // Median of three to the middle, then Hoare partition around it.
            if (compare(mid, lo) < 0) {
                swap(mid, lo);
            }
            if (compare(hi, lo) < 0) {
                swap(hi, lo);
            }
            if (compare(hi, mid) < 0) {
                swap(hi, mid);
            }
            swap(mid, hi - 1);
            int pivot = hi - 1;
            int i = lo;
            int j = hi - 1;
            while (true) {
                while (compare(++i, pivot) < 0) {}
                while (j > lo && compare(--j, pivot) > 0) {}
                if (i >= j) {
                    break;
                }
                swap(i, j);
            }
            swap(i, hi - 1);
            // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
            if (i - lo < hi - i) {
                quickSort(lo, i - 1);
                lo = i + 1;
            } else {
                quickSort(i + 1, hi);
                hi = i - 1;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && compare(j, j - 1) < 0; j--) {
                swap(j, j - 1);
            }
        }
    }

    private void swap(int a, int b) {
        long p = prefixes[a];
        prefixes[a] = prefixes[b];
        prefixes[b] = p;
        int o = offsets[a];
        offsets[a] = offsets[b];
        offsets[b] = o;
    }

    static void putLong(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xFF);
        }
        return v;
    }
}
