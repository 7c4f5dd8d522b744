package dev.larch.e2e;

import java.time.Duration;
import java.util.Locale;

/**
 * Samples a server's {@link ServerMemory} every {@link #INTERVAL} on its own thread and keeps the
 * highest values seen, until {@link #close()}. Sampling can miss a spike shorter than the interval;
 * the figures are what the server JVM itself reported, never estimates.
 *
 * <p>{@link #close()} and the getters are for the thread that started it.
 */
final class MemoryPeaks implements AutoCloseable {
    static final Duration INTERVAL = Duration.ofMillis(100);

    private final ServerMemory memory;
    private final Thread sampler;
    private volatile boolean running = true;
    private volatile long heap;
    private volatile long liveHeap;
    private volatile long nioDirect;
    private volatile long nativeOther;
    private volatile RuntimeException failure;

    private MemoryPeaks(ServerMemory memory) {
        this.memory = memory;
        this.sampler = Thread.ofPlatform().daemon().name("memory-peaks").unstarted(this::sampleUntilClosed);
    }

    static MemoryPeaks start(ServerMemory memory) {
        MemoryPeaks peaks = new MemoryPeaks(memory);
        peaks.sampleOnce();
        peaks.sampler.start();
        return peaks;
    }

    private void sampleUntilClosed() {
        try {
            while (running) {
                sampleOnce();
                Thread.sleep(INTERVAL.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private void sampleOnce() {
        heap = Math.max(heap, memory.heapUsedBytes());
        liveHeap = Math.max(liveHeap, memory.heapAfterLastGcBytes());
        nioDirect = Math.max(nioDirect, memory.nioDirectBytes());
        nativeOther = Math.max(nativeOther, memory.nativeOtherBytes());
    }

    /** Stops sampling after one last sample. */
    @Override
    public void close() {
        running = false;
        try {
            sampler.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw new AssertionError("reading the server's memory failed", failure);
        }
        sampleOnce();
    }

    long heapBytes() {
        return heap;
    }

    /** The highest live heap a collection left during the sampling (see {@link ServerMemory}). */
    long liveHeapBytes() {
        return liveHeap;
    }

    long nioDirectBytes() {
        return nioDirect;
    }

    long nativeOtherBytes() {
        return nativeOther;
    }

    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    @Override
    public String toString() {
        return "peak heap used " + mib(heap) + " (garbage included), peak heap live after a GC " + mib(liveHeap)
                + ", peak NIO direct " + mib(nioDirect) + ", peak native Other (NMT) "
                + mib(nativeOther);
    }
}
