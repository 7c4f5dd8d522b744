package dev.larch.e2e;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every abuse test checks around its abuse: a {@link WellBehavedClient} reads entries the whole
 * time and gets every answer right within {@link #LATENCY_BOUND}; the server, read through
 * {@link ServerMemory}, stays alive and within the memory bounds below; the figures go to the
 * {@link AbuseReport}. Not thread-safe: one test at a time.
 */
final class AbuseChecks {
    /**
     * The slowest answer the well-behaved client may get: a stall check, not a speed target. Answers
     * take milliseconds; 1.1 to 1.9 s were seen while several builds shared the 2 cores, and a stalled
     * server would not answer for the length of the abuse.
     */
    static final Duration LATENCY_BOUND = Duration.ofSeconds(3);
    /** The least time the well-behaved client measures during each abuse. */
    static final Duration MIN_MEASURED = Duration.ofSeconds(2);
    /**
     * Peak live heap, as collections during the abuse left it. Heap used including garbage is
     * reported but not bounded below -Xmx: the collector lets garbage grow towards -Xmx
     * ({@link AbuseServer#MAX_HEAP}) before it collects, and running out of it would kill the server.
     */
    static final long PEAK_LIVE_HEAP_BOUND = 128L << 20;
    /** Heap still used after a full collection once the abuse ended: nothing it did is retained. */
    static final long RETAINED_HEAP_BOUND = 64L << 20;
    /** Peak native memory of NMT category Other (direct buffers, Netty's included). */
    static final long PEAK_DIRECT_BOUND = 64L << 20;

    private final AbuseServer server;
    private final GeneratedTree tree;

    AbuseChecks(AbuseServer server, GeneratedTree tree) {
        this.server = server;
        this.tree = tree;
    }

    /** Lets the server load and compile what a lookup needs, so that no test measures a cold start. */
    void warmUp() throws Exception {
        WellBehavedClient client = WellBehavedClient.start(tree, server.port());
        Thread.sleep(MIN_MEASURED.toMillis());
        client.close();
        assertEquals(List.of(), client.problems(), "warm-up");
    }

    /**
     * Runs {@code abuse} (which returns what it did, for the report) with the client and the memory
     * sampler around it, then checks and records.
     */
    void measure(String test, Callable<String> abuse) throws Exception {
        String what;
        long start = System.nanoTime();
        WellBehavedClient client = WellBehavedClient.start(tree, server.port());
        MemoryPeaks peaks;
        try {
            peaks = MemoryPeaks.start(server.memory());
            try {
                what = abuse.call();
                long left = MIN_MEASURED.toNanos() - (System.nanoTime() - start);
                if (left > 0) {
                    Thread.sleep(Duration.ofNanos(left));
                }
            } finally {
                peaks.close();
            }
        } finally {
            client.close();
        }
        assertTrue(
                server.process().isAlive(),
                "the server died\n" + server.process().output());
        long retained = server.memory().heapAfterGcBytes();
        String figures = what + "; well-behaved client: " + client + "; server: " + peaks + ", heap after GC "
                + MemoryPeaks.mib(retained);
        AbuseReport.record(test, figures);
        assertEquals(List.of(), client.problems(), test);
        assertTrue(client.lookups() > 0, "the well-behaved client never got an answer");
        assertTrue(
                client.worstLatency().compareTo(LATENCY_BOUND) <= 0,
                test + ": the well-behaved client waited "
                        + client.worstLatency().toMillis() + " ms");
        assertTrue(peaks.liveHeapBytes() <= PEAK_LIVE_HEAP_BOUND, test + ": " + peaks);
        assertTrue(retained <= RETAINED_HEAP_BOUND, test + ": heap after GC " + MemoryPeaks.mib(retained));
        assertTrue(peaks.nativeOtherBytes() <= PEAK_DIRECT_BOUND, test + ": " + peaks);
    }
}
