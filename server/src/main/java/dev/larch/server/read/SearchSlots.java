package dev.larch.server.read;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server-wide bound on how many searches may be in one costly state at once (waiting for their
 * clients, running long on the worker pool): each such search holds a read transaction, so one of
 * LMDB's reader slots ({@code storage.max-readers}), and these bounds keep the rest free for everyone
 * else. A search takes a slot once and gives it back when it ends.
 *
 * <p>Thread-safe: one atomic counter.
 */
public final class SearchSlots {
    private final int max;
    private final String key;
    private final AtomicInteger taken = new AtomicInteger();

    /**
     * @param max the most slots taken at once, at least 1
     * @param key the configuration key that sets {@code max}, for diagnostics
     */
    public SearchSlots(int max, String key) {
        if (max < 1) {
            throw new IllegalArgumentException(key + " must be at least 1, got " + max);
        }
        this.max = max;
        this.key = key;
    }

    /** Takes a slot; false when {@code max} are taken. */
    boolean tryTake() {
        while (true) {
            int now = taken.get();
            if (now >= max) {
                return false;
            }
            if (taken.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Whether a slot is free right now (it may be gone by the time it is taken). */
    boolean hasRoom() {
        return taken.get() < max;
    }

    /** Returns a slot taken with {@link #tryTake}. */
    void giveBack() {
        taken.decrementAndGet();
    }

    /** Slots taken right now. */
    public int taken() {
        return taken.get();
    }

    /** The bound and the key that sets it, as diagnostics quote them: {@code "key = max"}. */
    String limit() {
        return key + " = " + max;
    }
}
