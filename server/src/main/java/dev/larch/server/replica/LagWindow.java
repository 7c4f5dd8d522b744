package dev.larch.server.replica;

import java.util.Arrays;

/**
 * The replication lags of the last {@code capacity} changes of one replica, in microseconds, in a
 * ring: memory is fixed at construction, a record is O(1), a percentile copies and sorts the ring
 * (read by monitor searches only, never on the apply path).
 *
 * <p>Thread-safe: the writer's commit callbacks record, monitor searches read.
 */
final class LagWindow {
    private final long[] ring;
    private int next;
    private int size;

    LagWindow(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a lag window holds at least one lag, not " + capacity);
        }
        this.ring = new long[capacity];
    }

    synchronized void add(long lagMicros) {
        ring[next] = lagMicros;
        next = (next + 1) % ring.length;
        size = Math.min(size + 1, ring.length);
    }

    /**
     * The lag at quantile {@code q} (0–1, nearest rank) of the lags held, in microseconds; -1 when none
     * is held yet.
     */
    long quantile(double q) {
        long[] held;
        synchronized (this) {
            held = Arrays.copyOf(ring, size);
        }
        if (held.length == 0) {
            return -1;
        }
        Arrays.sort(held);
        int rank = (int) Math.ceil(q * held.length);
        return held[Math.max(0, Math.min(held.length - 1, rank - 1))];
    }
}
