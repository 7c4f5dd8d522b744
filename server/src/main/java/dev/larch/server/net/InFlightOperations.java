package dev.larch.server.net;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts operations handed to the request handler and not yet completed or abandoned, across all
 * connections of one listener, so that {@link LdapListener#stop} can wait for them. Once draining,
 * connections refuse new requests with unavailable. Thread-safe.
 */
final class InFlightOperations {

    private final AtomicInteger count = new AtomicInteger();
    private volatile boolean draining;

    void started() {
        count.incrementAndGet();
    }

    void ended() {
        count.decrementAndGet();
    }

    int count() {
        return count.get();
    }

    boolean isDraining() {
        return draining;
    }

    void startDraining() {
        draining = true;
    }

    /** Waits until no operation is in flight or the deadline ({@link System#nanoTime()}) passes. */
    boolean awaitIdle(long deadlineNanos) {
        while (count.get() > 0) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(5)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
