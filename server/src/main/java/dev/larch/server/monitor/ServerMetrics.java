package dev.larch.server.monitor;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.larch.server.protocol.ByteCounts;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The counters of one running server: connections, operations initiated and completed per type,
 * results per code, entries and bytes sent, and a latency histogram per operation type. Each record
 * is a {@link LongAdder} increment or a histogram observation into storage made at construction, so
 * the request path allocates nothing for it (result codes above 127, which are rare, box one Integer).
 *
 * <p>Thread-safe: written from every event loop and worker at once, read on demand by {@code
 * cn=Monitor} searches and Prometheus scrapes, which see each counter's value at some moment of the
 * read (not one snapshot of all of them). Counts start at zero with the process.
 */
public final class ServerMetrics implements ByteCounts {
    /** Result codes 0 to 127 (all of RFC 4511's and the one-octet extensions) in an array. */
    private static final int DIRECT_CODES = 128;

    /** Latency bucket bounds, in seconds: 100 µs to 10 s. */
    private static final double[] LATENCY_BOUNDS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private final LongAdder connectionsTotal = new LongAdder();
    private final LongAdder connectionsCurrent = new LongAdder();
    /** Per operation type; an EnumMap is an array inside, so a lookup allocates nothing. */
    private final Map<OperationType, PerType> byType = new EnumMap<>(OperationType.class);

    private final LongAdder abandoned = new LongAdder();
    private final LongAdder[] resultsByCode = adders(DIRECT_CODES);
    private final Map<Integer, LongAdder> otherResults = new ConcurrentHashMap<>();
    private final LongAdder entriesSent = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final Histogram latency;

    /** The counters and the latency series of one operation type. */
    private record PerType(LongAdder initiated, LongAdder completed, DistributionDataPoint latency) {}

    public ServerMetrics() {
        this.latency = Histogram.builder()
                .name("larch_operation_duration_seconds")
                .help("Time from a request's arrival to its final response (or its abandonment), by operation")
                .unit(Unit.SECONDS)
                .labelNames("operation")
                .classicOnly()
                .classicUpperBounds(LATENCY_BOUNDS)
                .build();
        for (OperationType type : OperationType.all()) {
            byType.put(type, new PerType(new LongAdder(), new LongAdder(), latency.labelValues(type.label())));
        }
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] out = new LongAdder[n];
        for (int i = 0; i < n; i++) {
            out[i] = new LongAdder();
        }
        return out;
    }

    // ---- recording (hot path) -------------------------------------------------------------------

    public void connectionOpened() {
        connectionsTotal.increment();
        connectionsCurrent.increment();
    }

    public void connectionClosed() {
        connectionsCurrent.decrement();
    }

    public void initiated(OperationType type) {
        byType.get(type).initiated().increment();
    }

    /**
     * An operation ended with a final response carrying {@code resultCode} (the code on the wire).
     *
     * @param startNanos {@link System#nanoTime()} when its request arrived
     */
    public void completed(OperationType type, int resultCode, long startNanos) {
        byType.get(type).completed().increment();
        result(resultCode);
        observe(type, startNanos);
    }

    /** An operation ended without a response (abandoned, or its connection closed). */
    public void abandoned(OperationType type, long startNanos) {
        byType.get(type).completed().increment();
        abandoned.increment();
        observe(type, startNanos);
    }

    /** An operation that has no response (abandon, unbind) was received and done. */
    public void done(OperationType type) {
        byType.get(type).initiated().increment();
        byType.get(type).completed().increment();
    }

    public void entriesSent(int entries) {
        if (entries > 0) {
            entriesSent.add(entries);
        }
    }

    @Override
    public void received(int bytes) {
        bytesReceived.add(bytes);
    }

    @Override
    public void sent(int bytes) {
        bytesSent.add(bytes);
    }

    private void result(int code) {
        if (code >= 0 && code < DIRECT_CODES) {
            resultsByCode[code].increment();
        } else {
            otherResults.computeIfAbsent(code, c -> new LongAdder()).increment();
        }
    }

    private void observe(OperationType type, long startNanos) {
        long nanos = System.nanoTime() - startNanos;
        byType.get(type).latency().observe(Math.max(0, nanos) / 1e9);
    }

    // ---- reading (on demand) --------------------------------------------------------------------

    public long connectionsTotal() {
        return connectionsTotal.sum();
    }

    public long connectionsCurrent() {
        return connectionsCurrent.sum();
    }

    public long initiatedCount(OperationType type) {
        return byType.get(type).initiated().sum();
    }

    public long completedCount(OperationType type) {
        return byType.get(type).completed().sum();
    }

    /** Operations that ended without a response (abandoned, or their connection closed). */
    public long abandoned() {
        return abandoned.sum();
    }

    /** Final responses sent so far by result code; codes never sent are absent. Sorted by code. */
    public Map<Integer, Long> results() {
        Map<Integer, Long> out = new TreeMap<>();
        for (int code = 0; code < DIRECT_CODES; code++) {
            long n = resultsByCode[code].sum();
            if (n > 0) {
                out.put(code, n);
            }
        }
        otherResults.forEach((code, n) -> out.put(code, n.sum()));
        return out;
    }

    public long entriesSent() {
        return entriesSent.sum();
    }

    public long bytesReceived() {
        return bytesReceived.sum();
    }

    public long bytesSent() {
        return bytesSent.sum();
    }

    /**
     * The latency histogram ({@code larch_operation_duration_seconds}, label {@code operation}), not
     * registered anywhere: the metrics endpoint registers it with its own registry.
     */
    public Histogram latency() {
        return latency;
    }
}
