package dev.larch.server.maintenance;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The entryUUIDs of a store, to find those held by more than one entry. Each UUID is kept as two
 * {@code long}s in one growing array, 16 bytes an entry and no object per entry: a million entries
 * take 16 MB (up to 48 MB for a moment while the array doubles). The pairs are sorted in place,
 * then equal neighbours are duplicates.
 *
 * <p>Not thread-safe: filled by one thread (the tallies of several are then added into one), then asked once.
 */
final class UuidTally {
    /** Below this many pairs a range is sorted by insertion. */
    private static final int SMALL = 16;

    private long[] pairs = new long[2 * 1024];
    private int size; // in pairs

    /** Adds one entry's UUID ({@value dev.larch.server.sync.EntryUuids#BYTES} bytes). */
    void add(byte[] uuid) {
        if (2 * size == pairs.length) {
            pairs = Arrays.copyOf(pairs, pairs.length * 2);
        }
        ByteBuffer b = ByteBuffer.wrap(uuid);
        pairs[2 * size] = b.getLong();
        pairs[2 * size + 1] = b.getLong();
        size++;
    }

    /** Adds every UUID {@code other} holds (another thread's tally of other entries). */
    void addAll(UuidTally other) {
        if (2L * (size + other.size) > pairs.length) {
            pairs = Arrays.copyOf(pairs, Math.max(pairs.length * 2, 2 * (size + other.size)));
        }
        System.arraycopy(other.pairs, 0, pairs, 2 * size, 2 * other.size);
        size += other.size;
    }

    /**
     * The UUIDs added more than once, each once, in unsigned byte order; at most {@code limit} of
     * them (a broken store may share one between all its entries). Sorts what was added.
     */
    List<byte[]> duplicates(int limit) {
        sort(0, size - 1);
        List<byte[]> found = new ArrayList<>();
        for (int i = 1; i < size && found.size() < limit; i++) {
            if (compare(i - 1, i) == 0 && (i < 2 || compare(i - 2, i - 1) != 0)) {
                found.add(ByteBuffer.allocate(16)
                        .putLong(pairs[2 * i])
                        .putLong(pairs[2 * i + 1])
                        .array());
            }
        }
        return found;
    }

    /**
     * Quicksort of the pairs {@code lo..hi}: three-way, so that many equal UUIDs (a broken store may
     * give all its entries one) cost no more than distinct ones; recursing into the smaller part so
     * the stack stays shallow.
     */
    private void sort(int lo, int hi) {
        while (hi - lo >= SMALL) {
            medianToFront(lo, (lo + hi) >>> 1, hi);
            long pivotHi = pairs[2 * lo];
            long pivotLo = pairs[2 * lo + 1];
            int lt = lo;
            int gt = hi;
            int i = lo + 1;
            while (i <= gt) {
                int c = compareTo(i, pivotHi, pivotLo);
                if (c < 0) {
                    swap(lt++, i++);
                } else if (c > 0) {
                    swap(i, gt--);
                } else {
                    i++;
                }
            }
            // lo..lt-1 below the pivot, lt..gt equal to it, gt+1..hi above it.
            if (lt - lo < hi - gt) {
                sort(lo, lt - 1);
                lo = gt + 1;
            } else {
                sort(gt + 1, hi);
                hi = lt - 1;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && compare(j - 1, j) > 0; j--) {
                swap(j - 1, j);
            }
        }
    }

    /** Puts the median of the pairs at {@code a}, {@code b} and {@code c} at {@code a}. */
    private void medianToFront(int a, int b, int c) {
        if (compare(b, a) < 0) {
            swap(a, b);
        }
        if (compare(c, b) < 0) {
            swap(b, c);
            if (compare(b, a) < 0) {
                swap(a, b);
            }
        }
        swap(a, b); // a <= b <= c: b is the median
    }

    private int compareTo(int a, long hi, long lo) {
        int c = Long.compareUnsigned(pairs[2 * a], hi);
        return c != 0 ? c : Long.compareUnsigned(pairs[2 * a + 1], lo);
    }

    private int compare(int a, int b) {
        return compareTo(a, pairs[2 * b], pairs[2 * b + 1]);
    }

    private void swap(int a, int b) {
        long hi = pairs[2 * a];
        long lo = pairs[2 * a + 1];
        pairs[2 * a] = pairs[2 * b];
        pairs[2 * a + 1] = pairs[2 * b + 1];
        pairs[2 * b] = hi;
        pairs[2 * b + 1] = lo;
    }
}
