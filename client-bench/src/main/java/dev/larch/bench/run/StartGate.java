package dev.larch.bench.run;

import java.util.concurrent.CountDownLatch;

/**
 * The run's common start: senders wait at the gate, the clock thread opens it once with the start
 * instant, and every schedule counts from that instant. Thread-safe.
 */
final class StartGate {
    private final CountDownLatch latch = new CountDownLatch(1);
    private volatile long startNanos;

    /** Opens the gate; {@code nanos} is the start on the {@link System#nanoTime()} scale. */
    void open(long nanos) {
        startNanos = nanos;
        latch.countDown();
    }

    /** Waits for the gate and returns the start instant. */
    long await() throws InterruptedException {
        latch.await();
        return startNanos;
    }
}
