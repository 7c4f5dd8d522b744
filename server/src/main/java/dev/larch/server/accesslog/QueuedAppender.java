package dev.larch.server.accesslog;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the access log's output off the request path: the thread that logs a line only puts it
 * into a bounded queue; one writer thread formats the queued lines through {@code out}'s encoder
 * into its buffered stream and flushes that stream whenever the queue runs empty. After a flush the
 * writer lets lines gather for {@value #GATHER_MILLIS} ms before it looks again, and only a writer
 * that found nothing to write sleeps until a line wakes it: under steady traffic the writer wakes a
 * few hundred times a second and writes many lines per system call, instead of being woken, and
 * writing, once per line (which cost about as much CPU as the operations it logged). A line
 * reaches the file or standard output at most {@value #GATHER_MILLIS} ms after the writer caught up,
 * without waiting for more traffic; a line logged while the writer sleeps, at once.
 *
 * <p>The lines taken at once go to {@code out} as one {@link LineBatch}, so its encoder must know one
 * ({@link AccessLineEncoder} does).
 *
 * <p>Why not logback's {@code AsyncAppender}: its worker has no hook for "the queue is empty", so with
 * {@code immediateFlush=false} lines would sit in the buffer until it fills (with no upper bound on
 * the time when traffic stops), and with {@code immediateFlush=true} it writes one line per system call
 * again. It also discards INFO lines once its queue is 80% full unless told otherwise.
 *
 * <p><b>A full queue slows requests; it loses no line.</b> A thread that finds the queue full waits
 * for room (back-pressure: requests then go at the pace the output takes lines), and the first wait,
 * then at most one a minute, is reported at WARN in the server log with the number of waits so far
 * ({@link #waits()}). Lines keep the order in which their threads put them into the queue. A line is
 * dropped only when its thread waits for room while {@link #stop()} runs, or is interrupted while it
 * waits; each such line is counted ({@link #dropped()}) and written to the server log at WARN. A line
 * logged once {@link #stop()} has returned is not written (logback refuses it with a status message):
 * {@link AccessLogOutput#close()} first detaches this appender, so later lines go where the access
 * logger's parent sends them.
 *
 * <p>{@link #stop()} writes every line already queued, flushes, then stops {@code out}. {@code out} must
 * be started, and no one else may append to it or stop it: the writer thread is its only user.
 * Thread-safe.
 */
final class QueuedAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(QueuedAppender.class);
    /** How long a stop waits for the writer before it gives up on an output that does not take lines. */
    private static final long STOP_WAIT_MILLIS = 30_000;
    /** How often a thread waiting for room checks that the writer still takes lines. */
    private static final long ROOM_CHECK_MILLIS = 100;
    /** The longest gap between two warnings about a full queue. */
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** Lines the writer takes from the queue at once. */
    private static final int BATCH = 256;
    /** How long the writer lets lines gather after a flush. */
    static final long GATHER_MILLIS = 5;

    private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(GATHER_MILLIS);

    private final OutputStreamAppender<ILoggingEvent> out;
    private final BlockingQueue<ILoggingEvent> queue;
    private final Thread writer;
    private final AtomicLong waits = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile long lastWarnNanos;
    private volatile boolean stopping;
    /** The writer found the queue empty and sleeps until a logging thread wakes it. */
    private volatile boolean sleeping;

    /**
     * @param out the started appender the writer thread writes through, with an encoder that writes
     *     a {@link LineBatch}'s lines; its stream should buffer ({@code immediateFlush=false}): this
     *     class flushes it
     * @param capacity lines the queue holds at most; at least 1
     * @throws IllegalArgumentException when {@code out} is not started
     */
    QueuedAppender(OutputStreamAppender<ILoggingEvent> out, int capacity) {
        if (!out.isStarted()) {
            throw new IllegalArgumentException("the output must be started: " + out.getName());
        }
        this.out = out;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.writer = Thread.ofPlatform().name("larch-access-log").daemon(true).unstarted(this::writeUntilStopped);
    }

    @Override
    public void start() {
        if (isStarted()) {
            return;
        }
        writer.start();
        super.start();
    }

    @Override
    protected void append(ILoggingEvent event) {
        // The message's arguments and the thread name are read here, not on the writer thread.
        event.prepareForDeferredProcessing();
        if (!queue.offer(event)) {
            waitForRoom(event);
        }
        // Read after the line is queued, as the writer sets it before it looks at the queue a last
        // time: either the writer sees the line or this thread sees it asleep.
        if (sleeping) {
            LockSupport.unpark(writer);
        }
    }

    private void waitForRoom(ILoggingEvent event) {
        long n = waits.incrementAndGet();
        long now = System.nanoTime();
        if (n == 1 || now - lastWarnNanos >= WARN_EVERY_NANOS) {
            lastWarnNanos = now;
            LOG.warn(
                    "the access log's queue is full ({} lines, logging.access-log-queue-lines): requests wait"
                            + " for its output ({} waits so far)",
                    queue.size() + queue.remainingCapacity(),
                    n);
        }
        // The writer may be letting lines gather: the queue is full, so there is enough to write.
        LockSupport.unpark(writer);
        try {
            while (!queue.offer(event, ROOM_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
                if (stopping || !writer.isAlive()) {
                    drop(event, "the access log is stopping");
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drop(event, "a thread waiting for room in the access log's queue was interrupted");
        }
    }

    private void drop(ILoggingEvent event, String why) {
        LOG.warn(
                "{}: an access line was not written ({} so far): {}",
                why,
                dropped.incrementAndGet(),
                event.getFormattedMessage());
    }

    /**
     * The writer thread: takes what is queued and writes it; when nothing is left, flushes and lets
     * lines gather; when nothing came meanwhile, sleeps until a line comes.
     */
    private void writeUntilStopped() {
        List<ILoggingEvent> batch = new ArrayList<>(BATCH);
        // stop() interrupts the writer once no more lines may be queued: then it writes what is left.
        while (!Thread.interrupted()) {
            if (queue.drainTo(batch, BATCH) > 0) {
                write(batch);
                if (queue.isEmpty()) {
                    flush();
                    LockSupport.parkNanos(this, GATHER_NANOS);
                }
            } else {
                sleepUntilALineComes();
            }
        }
        writeRest(batch);
    }

    private void sleepUntilALineComes() {
        sleeping = true;
        if (queue.isEmpty()) {
            LockSupport.park(this);
        }
        sleeping = false;
    }

    private void writeRest(List<ILoggingEvent> batch) {
        batch.clear();
        while (queue.drainTo(batch, BATCH) > 0) {
            write(batch);
        }
        flush();
    }

    private void write(List<ILoggingEvent> batch) {
        out.doAppend(new LineBatch(batch));
        batch.clear();
    }

    private void flush() {
        OutputStream stream = out.getOutputStream();
        if (stream == null) {
            return;
        }
        try {
            stream.flush();
        } catch (IOException e) {
            // As logback does for a failed write: a status, and the next write tries again.
            addError("could not flush the access log", e);
        }
    }

    /** How many times a thread found the queue full and waited for room. */
    long waits() {
        return waits.get();
    }

    /** How many lines were not written: logged after the stop began, or by an interrupted thread. */
    long dropped() {
        return dropped.get();
    }

    /**
     * Writes every queued line, flushes and stops the output. A thread still waiting for room waits no
     * more: its line is dropped (counted, and named at WARN).
     */
    @Override
    public void stop() {
        if (!isStarted()) {
            return;
        }
        stopping = true;
        super.stop();
        writer.interrupt();
        try {
            writer.join(STOP_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer.isAlive()) {
            LOG.warn(
                    "the access log's output took no line for {} s; {} queued lines are not written",
                    STOP_WAIT_MILLIS / 1000,
                    queue.size());
            return;
        }
        // A thread that was already past the check when the stop began: its line is still in order.
        writeRest(new ArrayList<>(BATCH));
        out.stop();
    }
}
