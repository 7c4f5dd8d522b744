package dev.larch.server.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Tells when the JVM's JIT compilers have gone quiet: when, after at least {@code minimum} since it
 * was made, they spent at most {@code quietMillis} compiling over the last {@code window}. A warm-up
 * under load is then done: what the load runs has been compiled, and what is still queued would
 * otherwise be compiled after the port opens, beside the clients, on the same cores.
 *
 * <p>Reads the compilers' accumulated time ({@link CompilationMXBean#getTotalCompilationTime()});
 * where the JVM does not keep it, never quiet, so the warm-up runs its whole time. Not thread-safe: one
 * caller polls it.
 */
final class CompilerQuiet implements BooleanSupplier {
    /** Compile time is sampled at most this many times per window (older samples are dropped). */
    private static final int SAMPLES = 64;

    private final LongSupplier compileMillis;
    private final LongSupplier nanoTime;
    private final long startNanos;
    private final long minimumNanos;
    private final long windowNanos;
    private final long quietMillis;
    private final long[] sampleNanos = new long[SAMPLES];
    private final long[] sampleMillis = new long[SAMPLES];
    private int first;
    private int count;
    /** Compile time in the last window at the last poll; -1 before a whole window was seen. */
    private long lastWindowMillis = -1;
    /** Whether a poll found the compilers quiet. */
    private boolean wentQuiet;

    /**
     * @param compileMillis the compilers' accumulated time in ms, or -1 when the JVM does not keep it
     * @param nanoTime as {@link System#nanoTime()}
     * @param minimum never quiet before this
     * @param window the span compile time is summed over, at least 1 ms
     * @param quietMillis at most this much compile time in the window is quiet
     */
    CompilerQuiet(
            LongSupplier compileMillis, LongSupplier nanoTime, Duration minimum, Duration window, long quietMillis) {
        if (window.toMillis() < 1) {
            throw new IllegalArgumentException("window must be at least 1 ms");
        }
        this.compileMillis = compileMillis;
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
        this.minimumNanos = minimum.toNanos();
        this.windowNanos = window.toNanos();
        this.quietMillis = quietMillis;
    }

    /** Over this JVM's compilers. */
    static CompilerQuiet ofThisJvm(Duration minimum, Duration window, long quietMillis) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        LongSupplier millis =
                jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : () -> -1;
        return new CompilerQuiet(millis, System::nanoTime, minimum, window, quietMillis);
    }

    /** Samples the compile time; true once the compilers have been quiet (see the class comment). */
    @Override
    public boolean getAsBoolean() {
        long now = nanoTime.getAsLong();
        long millis = compileMillis.getAsLong();
        if (millis < 0) {
            return false;
        }
        // Keep the oldest sample that still covers the window, and every later one.
        while (count > 1 && now - sampleNanos[(first + 1) % SAMPLES] >= windowNanos) {
            first = (first + 1) % SAMPLES;
            count--;
        }
        if (count == SAMPLES) {
            first = (first + 1) % SAMPLES;
            count--;
        }
        int last = (first + count) % SAMPLES;
        sampleNanos[last] = now;
        sampleMillis[last] = millis;
        count++;
        if (now - sampleNanos[first] < windowNanos) {
            return false;
        }
        lastWindowMillis = millis - sampleMillis[first];
        if (now - startNanos >= minimumNanos && lastWindowMillis <= quietMillis) {
            wentQuiet = true;
        }
        return wentQuiet;
    }

    /** Whether a poll has found the compilers quiet; from then on every poll says so. */
    boolean wentQuiet() {
        return wentQuiet;
    }

    /** Compile time over the last whole window at the last poll, in ms; -1 before one was seen. */
    long lastWindowMillis() {
        return lastWindowMillis;
    }
}
