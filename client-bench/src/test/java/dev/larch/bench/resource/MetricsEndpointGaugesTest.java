package dev.larch.bench.resource;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MetricsEndpointGaugesTest {
    private final AtomicReference<String> body = new AtomicReference<>();
    private final AtomicReference<Integer> status = new AtomicReference<>(200);
    private HttpServer http;

    @BeforeEach
    void start() throws IOException {
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/metrics", exchange -> {
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(status.get(), bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        http.start();
    }

    @AfterEach
    void stop() {
        http.stop(0);
    }

    private MetricsEndpointGauges gauges() {
        return new MetricsEndpointGauges(
                URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/metrics"));
    }

    @Test
    void readsLarchsHeapAndGcSeriesSummingCollectors() throws IOException {
        body.set(Fixtures.text("larch-metrics.txt"));
        JvmReading r = gauges().read();
        assertEquals(46_137_344L, r.heapUsedBytes());
        assertEquals(536_870_912L, r.heapMaxBytes());
        assertEquals(1.75, r.gcSeconds(), 1e-9);
    }

    @Test
    void anEndpointWithoutGcSeriesHasNoGcTime() throws IOException {
        body.set(Fixtures.text("larch-metrics.txt")
                .lines()
                .filter(l -> !l.contains("gc_seconds"))
                .collect(Collectors.joining("\n", "", "\n")));
        assertNull(gauges().read().gcSeconds());
    }

    @Test
    void readsTheUsualJvmSeriesSummingPoolsAndCollectors() throws IOException {
        body.set(Fixtures.text("jvm-metrics.txt"));
        JvmReading r = gauges().read();
        assertEquals(42_000_000L, r.heapUsedBytes(), "heap pools only, not Metaspace");
        assertEquals(536_870_912L, r.heapMaxBytes(), "a pool without a limit (-1) is left out");
        assertEquals(0.75, r.gcSeconds(), 1e-9);
    }

    @Test
    void aLarchHeapWithoutALimitHasNoMax() {
        JvmReading r = MetricsEndpointGauges.reading(
                PrometheusText.parse("larch_jvm_heap_used_bytes 1.0E6\nlarch_jvm_heap_max_bytes -1.0\n"));
        assertEquals(1_000_000L, r.heapUsedBytes());
        assertNull(r.heapMaxBytes());
    }

    @Test
    void anErrorStatusOrAnotherFormatFailsTheReading() {
        body.set(Fixtures.text("larch-metrics.txt"));
        status.set(503);
        IOException e = assertThrows(IOException.class, () -> gauges().read());
        assertTrue(e.getMessage().contains("HTTP 503"), e.getMessage());
        status.set(200);
        body.set("<html><body>not metrics</body></html>\n");
        assertThrows(IOException.class, () -> gauges().read());
    }
}
