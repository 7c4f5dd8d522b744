package dev.larch.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Drains a child process's output stream on a daemon thread (so the child never blocks on a full
 * pipe) and keeps every line. Thread-safe.
 */
final class CapturedStream {
    private final List<String> lines = new ArrayList<>();
    private final Thread pump;
    private boolean ended;

    CapturedStream(InputStream in, String name) {
        pump = Thread.ofPlatform().daemon().name(name).start(() -> drain(in));
    }

    private void drain(InputStream in) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (this) {
                    lines.add(line);
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // The process died and took the pipe with it; what was read so far is kept.
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    /**
     * Waits until a line matches, the stream ends or the timeout passes.
     *
     * @return the first matching line; empty when the stream ended or the time ran out without one
     */
    synchronized Optional<String> await(Predicate<String> matches, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int seen = 0; ; ) {
            for (; seen < lines.size(); seen++) {
                if (matches.test(lines.get(seen))) {
                    return Optional.of(lines.get(seen));
                }
            }
            long left = deadline - System.nanoTime();
            if (ended || left <= 0) {
                return Optional.empty();
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Waits for the stream to end (the process closed it or exited). */
    void awaitEnd(Duration timeout) {
        try {
            pump.join(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while reading process output", e));
        }
    }

    synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /** Everything read so far, one line per line. */
    synchronized String text() {
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }
}
