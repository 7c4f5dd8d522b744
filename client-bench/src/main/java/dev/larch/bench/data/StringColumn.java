package dev.larch.bench.data;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An append-only column of strings kept as one UTF-8 byte array plus an end offset per cell, so a
 * million short values cost their bytes and four more each instead of a String object apiece.
 *
 * <p>An empty cell stands for "no value": the attributes kept here never have empty values. Not
 * thread-safe while appending; safe to read from many threads once filled and published.
 */
final class StringColumn {
    private byte[] bytes = new byte[1 << 12];
    private int[] ends = new int[1 << 8];
    private int size;
    private int used;

    /** Appends {@code value} ({@code null} for no value) and returns its index. */
    int add(String value) {
        byte[] b = value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
        if (used + b.length > bytes.length) {
            long grown = Math.max((long) bytes.length + (bytes.length >> 1), (long) used + b.length);
            if (grown > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("a data column passed 2 GB; the data file is too large to sample");
            }
            bytes = Arrays.copyOf(bytes, (int) grown);
        }
        System.arraycopy(b, 0, bytes, used, b.length);
        used += b.length;
        if (size == ends.length) {
            ends = Arrays.copyOf(ends, ends.length + (ends.length >> 1));
        }
        ends[size] = used;
        return size++;
    }

    int size() {
        return size;
    }

    /** The value at {@code index}; "" when that cell has no value. */
    String get(int index) {
        int start = index == 0 ? 0 : ends[index - 1];
        return new String(bytes, start, ends[index] - start, StandardCharsets.UTF_8);
    }

    boolean has(int index) {
        return ends[index] > (index == 0 ? 0 : ends[index - 1]);
    }

    /** Drops spare capacity once filling is done. */
    void trim() {
        bytes = Arrays.copyOf(bytes, used);
        ends = Arrays.copyOf(ends, size);
    }
}
