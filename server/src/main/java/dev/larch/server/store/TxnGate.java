package dev.larch.server.store;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the transactions open on an environment so that it is never closed under one: closing
 * the LMDB environment while a transaction still uses it crashes the JVM.
 *
 * <p>Thread-safe and lock-free on {@link #enter()}/{@link #leave()}: the sign bit of one integer
 * says "closed", the other bits count open transactions. Once {@link #close(Duration)} ran,
 * {@link #enter()} refuses and the count can only fall.
 */
final class TxnGate {
    private static final int CLOSED = Integer.MIN_VALUE;
    private static final int COUNT = Integer.MAX_VALUE;

    private final AtomicInteger state = new AtomicInteger();
    private final Object drained = new Object();

    /**
     * Admits one transaction; each successful call must be paired with one {@link #leave()}.
     *
     * @throws StoreClosedException when the gate is closed
     */
    void enter() {
        while (true) {
            int s = state.get();
            if (s < 0) {
                throw new StoreClosedException();
            }
            if (state.compareAndSet(s, s + 1)) {
                return;
            }
        }
    }

    /** Ends one admitted transaction. */
    void leave() {
        int s = state.decrementAndGet();
        if (s == CLOSED) {
            synchronized (drained) {
                drained.notifyAll();
            }
        }
    }

    /** Whether new transactions are still admitted. */
    boolean isOpen() {
        return (state.get() & CLOSED) == 0;
    }

    /** Transactions admitted and not yet left. */
    int open() {
        return state.get() & COUNT;
    }

    /**
     * Closes the gate to new transactions and waits up to {@code bound} for the open ones to end.
     *
     * @return true when none is open any more, so the environment may be closed
     */
    boolean close(Duration bound) {
        state.getAndUpdate(s -> s | CLOSED);
        long deadline = System.nanoTime() + bound.toNanos();
        synchronized (drained) {
            while (open() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    // Bounded slices: a leave() between the check and the wait is seen at the next one.
                    drained.wait(Math.max(1, Math.min(50, left / 1_000_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return open() == 0;
                }
            }
        }
        return true;
    }
}
