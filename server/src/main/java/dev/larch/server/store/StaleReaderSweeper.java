package dev.larch.server.store;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodically frees LMDB reader slots held by processes that died mid-read ({@link
 * LmdbStore#clearStaleReaders()}), so that a crashed tool reading the same data directory cannot
 * slowly fill the reader table. One daemon thread; {@link #close()} stops it.
 *
 * <p>Thread-safe.
 */
public final class StaleReaderSweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StaleReaderSweeper.class);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "larch-reader-check");
        t.setDaemon(true);
        return t;
    });

    /** Starts checking {@code store} every {@code period}, the first time one period from now. */
    public StaleReaderSweeper(LmdbStore store, Duration period) {
        this(store::clearStaleReaders, period);
    }

    /** Runs {@code check} (which clears stale slots and logs what it did) every {@code period}. */
    StaleReaderSweeper(Runnable check, Duration period) {
        long millis = period.toMillis();
        timer.scheduleWithFixedDelay(() -> sweep(check), millis, millis, TimeUnit.MILLISECONDS);
    }

    private static void sweep(Runnable check) {
        try {
            check.run();
        } catch (RuntimeException e) {
            // A failure must not cancel the schedule (an escaping exception would); one line is enough.
            LOG.warn("LMDB reader check failed: {}", e.toString());
        }
    }

    /** Whether the sweeper stopped (after {@link #close()}, once a running check has finished). */
    public boolean isStopped() {
        return timer.isTerminated();
    }

    /** Stops the checks, waiting briefly for one that is running. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
