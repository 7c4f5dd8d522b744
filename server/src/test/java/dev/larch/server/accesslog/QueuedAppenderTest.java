package dev.larch.server.accesslog;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The hand-off to the writer thread: order, flushing when caught up, back-pressure, nothing lost. */
class QueuedAppenderTest {
    /** Not a timing: only how long a broken hand-off may hang the build before it fails. */
    private static final Duration BOUND = Duration.ofMinutes(2);

    private final LoggerContext context = new LoggerContext();
    private final Logger logger = context.getLogger("larch.access");
    private final Recording stream = new Recording();
    private QueuedAppender queued;

    /** An output stream that keeps what was flushed, and can hold its writer up. */
    private static final class Recording extends OutputStream {
        private final ByteArrayOutputStream written = new ByteArrayOutputStream();
        private volatile CountDownLatch gate = new CountDownLatch(0);
        private volatile String flushed = "";
        private volatile int writes;
        private volatile int flushes;
        private volatile boolean closed;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            boolean interrupted = false;
            while (true) {
                try {
                    gate.await();
                    break;
                } catch (InterruptedException e) {
                    // The stop interrupts the writer: the write still waits for the gate.
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            written.write(b, off, len);
            writes++;
        }

        @Override
        public synchronized void flush() {
            flushed = written.toString(StandardCharsets.UTF_8);
            flushes++;
        }

        @Override
        public synchronized void close() {
            flush();
            closed = true;
        }

        List<String> flushedLines() {
            String text = flushed;
            return text.isEmpty() ? List.of() : List.of(text.split("\n"));
        }

        void hold() {
            gate = new CountDownLatch(1);
        }

        void release() {
            gate.countDown();
        }
    }

    private void start(int capacity) {
        // A context of its own, so it needs the MDC adapter the global one has.
        context.setMDCAdapter(new LogbackMDCAdapter());
        OutputStreamAppender<ILoggingEvent> out = new OutputStreamAppender<>();
        out.setContext(context);
        // The server's encoder: the writer hands it a batch of lines at once.
        AccessLineEncoder encoder = AccessLineEncoder.json();
        encoder.setContext(context);
        encoder.start();
        out.setEncoder(encoder);
        out.setImmediateFlush(false);
        // The buffer is the stream's own here: each batch is one write, so writes count batches.
        out.setOutputStream(stream);
        out.start();
        queued = new QueuedAppender(out, capacity);
        queued.setContext(context);
        queued.start();
        logger.addAppender(queued);
        logger.setAdditive(false);
    }

    @AfterEach
    void stop() {
        stream.release();
        if (queued != null) {
            queued.stop();
        }
    }

    private static List<String> numbered(String prefix, int count) {
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            lines.add(prefix + i);
        }
        return lines;
    }

    @Test
    void linesReachTheOutputInOrderOnceTheWriterCatchesUpWithoutAStop() {
        start(4096);
        List<String> expected = numbered("line ", 1000);
        expected.forEach(logger::info);
        // No close, no more traffic: the writer flushes because its queue ran empty.
        Awaitility.await().atMost(BOUND).until(() -> stream.flushedLines().size() == expected.size());
        assertEquals(expected, stream.flushedLines());
    }

    @Test
    void stoppingWritesEveryQueuedLineAndClosesTheOutput() {
        start(4096);
        stream.hold();
        List<String> expected = numbered("queued ", 500);
        expected.forEach(logger::info);
        stream.release();
        queued.stop();
        assertTrue(stream.closed);
        assertEquals(expected, stream.flushedLines());
        assertEquals(0, queued.dropped());
    }

    @Test
    void aFullQueueMakesTheLoggingThreadWaitAndLosesNoLine() throws Exception {
        start(16);
        stream.hold();
        List<String> expected = numbered("burst ", 200);
        Thread logging = Thread.ofPlatform().start(() -> expected.forEach(logger::info));
        // The output takes nothing: the queue fills and the logging thread waits for room.
        Awaitility.await().atMost(BOUND).until(() -> queued.waits() > 0);
        assertTrue(logging.isAlive());
        stream.release();
        logging.join();
        queued.stop();
        assertEquals(expected, stream.flushedLines());
        assertEquals(0, queued.dropped());
    }

    @Test
    void aBurstFromManyThreadsKeepsEveryLineAndEachThreadsOrder() throws Exception {
        start(16);
        int threads = 8;
        int each = 2000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String prefix = "t" + t + " ";
            started.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                numbered(prefix, each).forEach(logger::info);
            }));
        }
        go.countDown();
        for (Thread t : started) {
            t.join();
        }
        queued.stop();
        List<String> lines = stream.flushedLines();
        assertEquals(threads * each, lines.size());
        for (int t = 0; t < threads; t++) {
            String prefix = "t" + t + " ";
            assertEquals(
                    numbered(prefix, each),
                    lines.stream().filter(l -> l.startsWith(prefix)).toList());
        }
        assertTrue(queued.waits() > 0, "16 lines of room for 8 threads: some waited");
        assertEquals(0, queued.dropped());
    }

    @Test
    void aSteadyTrickleOfLinesIsWrittenInFarFewerFlushesThanLines() {
        start(4096);
        List<String> expected = numbered("trickle ", 400);
        for (String line : expected) {
            logger.info(line);
            // A line every 50 µs or more, as request threads log them: the writer catches up each time.
            LockSupport.parkNanos(50_000);
        }
        Awaitility.await().atMost(BOUND).until(() -> stream.flushedLines().size() == expected.size());
        assertEquals(expected, stream.flushedLines());
        // Woken for every line, it would flush about once per line; letting lines gather, once per few ms.
        assertTrue(stream.flushes < 100, stream.flushes + " flushes for " + expected.size() + " lines");
    }

    @Test
    void aBurstIsWrittenWithFewerFlushesThanLines() {
        start(4096);
        stream.hold();
        List<String> expected = numbered("batch ", 1000);
        expected.forEach(logger::info);
        stream.release();
        queued.stop();
        assertEquals(expected, stream.flushedLines());
        // Held up, the writer found the whole burst queued: a flush per batch, not per line.
        assertTrue(stream.flushes < 100, stream.flushes + " flushes for " + stream.writes + " writes");
    }
}
