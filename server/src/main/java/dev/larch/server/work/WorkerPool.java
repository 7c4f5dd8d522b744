package dev.larch.server.work;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fixed number of worker threads for CPU-heavy work that must stay off the event loops, taking at
 * most {@code threads + queue} tasks at a time (running plus waiting). A task offered beyond that is
 * refused at once ({@link #trySubmit} returns false), so a flood of requests is answered busy instead
 * of growing a queue without bound.
 *
 * <p>Thread-safe. Tasks must not block on one another. A task that throws is logged and does not
 * kill its worker.
 */
public final class WorkerPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerPool.class);

    private final int threads;
    private final int capacity;
    private final Semaphore admitted;
    private final ThreadPoolExecutor executor;

    /**
     * @param name prefix of the worker thread names, for example {@code larch-worker}
     * @param threads number of worker threads, at least 1
     * @param queue most tasks that may wait for a free worker, at least 0
     */
    public WorkerPool(String name, int threads, int queue) {
        if (threads < 1 || queue < 0) {
            throw new IllegalArgumentException("need threads >= 1 and queue >= 0, got " + threads + ", " + queue);
        }
        this.threads = threads;
        this.capacity = threads + queue;
        this.admitted = new Semaphore(capacity);
        AtomicInteger number = new AtomicInteger();
        // The executor's own queue is unbounded; the semaphore is what bounds it, exactly and without
        // depending on how fast a started thread picks up its first task.
        this.executor =
                new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, name + "-" + number.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Number of worker threads. */
    public int threads() {
        return threads;
    }

    /** Tasks admitted and waiting for a free worker right now (for monitoring; changes as it is read). */
    public int queued() {
        return executor.getQueue().size();
    }

    /** Most tasks admitted at once: threads plus queue. */
    public int capacity() {
        return capacity;
    }

    /**
     * Runs {@code task} on a worker if the pool has room.
     *
     * @return true when the task was admitted and will run; false when the pool is full or closed,
     *     and then the task never runs
     */
    public boolean trySubmit(Runnable task) {
        return trySubmitThen(() -> {
            task.run();
            return null;
        });
    }

    /**
     * Runs {@code work} on a worker if the pool has room, frees its place, and only then runs what
     * {@code work} returned (null: nothing), on the same thread. Work that answers a client returns the
     * answer instead of sending it: the answer then reaches the client after the place is free, so that
     * client's next request is not refused busy for a place its own finished request still held.
     *
     * @return as {@link #trySubmit}
     */
    public boolean trySubmitThen(Supplier<Runnable> work) {
        if (!admitted.tryAcquire()) {
            return false;
        }
        try {
            executor.execute(() -> run(work));
            return true;
        } catch (RejectedExecutionException e) {
            admitted.release();
            return false;
        }
    }

    private void run(Supplier<Runnable> work) {
        Runnable then = null;
        try {
            then = work.get();
        } catch (RuntimeException e) {
            LOG.error("worker task failed", e);
        } finally {
            admitted.release();
        }
        if (then == null) {
            return;
        }
        try {
            then.run();
        } catch (RuntimeException e) {
            LOG.error("worker task's answer failed", e);
        }
    }

    /** Refuses new tasks, lets admitted ones finish (up to ten seconds), then interrupts the rest. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
