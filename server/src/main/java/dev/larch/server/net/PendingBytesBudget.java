package dev.larch.server.net;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request bytes that all connections of a listener hold, read and not yet answered (held or
 * running), against one server-wide limit ({@code listen.max-pending-size-total}). A connection that
 * finds the budget spent stops reading and asks to be {@linkplain #whenAvailable woken} once some of it
 * is given back; nothing is ever refused.
 *
 * <p>Thread-safe: connections on every event loop take and give back. Taking and giving back do not
 * allocate; waking runs each waiting callback once, on the thread that gave back.
 */
final class PendingBytesBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();
    private final ConcurrentLinkedQueue<Runnable> waiting = new ConcurrentLinkedQueue<>();

    /** @param limit bytes all connections may hold together before they stop reading, at least 1 */
    PendingBytesBudget(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        }
        this.limit = limit;
    }

    /** A budget no listener shares (an embedded channel's): as large as can be. */
    static PendingBytesBudget unlimited() {
        return new PendingBytesBudget(Long.MAX_VALUE);
    }

    void take(long bytes) {
        used.addAndGet(bytes);
    }

    /** Gives {@code bytes} back, and wakes the waiting connections once the budget is no longer spent. */
    void giveBack(long bytes) {
        if (used.addAndGet(-bytes) < limit && !waiting.isEmpty()) {
            wakeAll();
        }
    }

    /** Whether the connections hold the limit or more. */
    boolean isSpent() {
        return used.get() >= limit;
    }

    /** Bytes held now, all connections together. */
    long used() {
        return used.get();
    }

    /**
     * Runs {@code wake} once, as soon as the budget is not spent (at once, on this thread, when it is
     * not spent now). Register at most once per stop: each registration runs once.
     */
    void whenAvailable(Runnable wake) {
        waiting.add(wake);
        if (!isSpent()) {
            wakeAll(); // given back between the caller's check and the registration
        }
    }

    private void wakeAll() {
        Runnable wake;
        while ((wake = waiting.poll()) != null) {
            wake.run();
        }
    }
}
