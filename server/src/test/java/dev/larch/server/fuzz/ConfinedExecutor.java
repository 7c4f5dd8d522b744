package dev.larch.server.fuzz;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;

/**
 * The event loop the fuzzed handlers see in place of the {@code EmbeddedChannel}'s: one owner thread
 * (the fuzzing thread), and a thread-safe mailbox for tasks other threads hand it.
 *
 * <p>Why: an {@code EmbeddedEventLoop} claims every thread is its own and keeps its tasks in a plain
 * queue, but the write queue and the worker pool complete operations from their own threads. Through
 * this executor those completions reach the channel on the fuzzing thread, as they reach a real
 * event loop, instead of racing with it. Nothing runs until the owner calls {@link #runReady} or
 * {@link #awaitTask}. Never shuts down.
 */
final class ConfinedExecutor extends AbstractScheduledEventExecutor {
    private final Thread owner;
    private final LinkedBlockingQueue<Runnable> mailbox = new LinkedBlockingQueue<>();

    ConfinedExecutor(Thread owner) {
        this.owner = owner;
    }

    @Override
    public boolean inEventLoop(Thread thread) {
        return thread == owner;
    }

    @Override
    public void execute(Runnable task) {
        mailbox.add(task);
    }

    /** Runs the tasks in the mailbox and the scheduled tasks that are due; returns how many ran. */
    int runReady() {
        int ran = 0;
        for (Runnable task = mailbox.poll(); task != null; task = mailbox.poll()) {
            task.run();
            ran++;
        }
        long now = ticker().nanoTime();
        for (Runnable task = pollScheduledTask(now); task != null; task = pollScheduledTask(now)) {
            task.run();
            ran++;
        }
        return ran;
    }

    /** Waits up to {@code millis} for a task from another thread and runs it; returns whether one ran. */
    boolean awaitTask(long millis) throws InterruptedException {
        Runnable task = mailbox.poll(millis, TimeUnit.MILLISECONDS);
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    boolean hasReadyTasks() {
        return !mailbox.isEmpty() || (hasScheduledTasks() && nextScheduledTaskDeadlineNanos() <= ticker().nanoTime());
    }

    /** Drops scheduled tasks left by a finished case (timers of operations that already ended). */
    void forgetScheduled() {
        cancelScheduledTasks();
    }

    @Override
    public boolean isShuttingDown() {
        return false;
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        return terminationFuture();
    }

    @Override
    public Future<?> terminationFuture() {
        return ImmediateEventExecutor.INSTANCE.newFailedFuture(new UnsupportedOperationException("never terminates"));
    }

    @Override
    @Deprecated
    public void shutdown() {
        throw new UnsupportedOperationException("never shuts down");
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }
}
