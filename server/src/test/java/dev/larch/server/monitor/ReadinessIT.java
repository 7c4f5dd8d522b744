package dev.larch.server.monitor;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.replica.ReplicationMetrics;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.StoreOptions;
import dev.larch.server.work.WorkerPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** /ready says 200 only while the store is open and the listener accepts; /health stays 200. */
class ReadinessIT {
    @TempDir
    Path dir;

    @Test
    void readyOnlyWithStoreOpenAndListenerAccepting() throws Exception {
        AtomicBoolean accepting = new AtomicBoolean(false);
        LmdbStore store = LmdbStore.open(dir, new StoreOptions(1L << 26, 16, false), Map.of());
        try (WorkerPool workers = new WorkerPool("test-worker", 1, 1);
                WriteQueue writes = new WriteQueue(store)) {
            MonitoredServer server = new MonitoredServer(
                    new ServerMetrics(),
                    store,
                    workers,
                    writes,
                    null,
                    "test",
                    Instant.now(),
                    "dc=example,dc=com",
                    accepting::get,
                    List::of,
                    new ReplicationMetrics());
            try (MetricsEndpoint endpoint = MetricsEndpoint.start(
                    server, LarchSchema.standard(), LarchConfig.defaults().metrics(), "127.0.0.1")) {
                HttpClient http = HttpClient.newHttpClient();
                String base = "http://127.0.0.1:" + endpoint.address().getPort();
                assertEquals(503, status(http, base + "/ready"), "listener not accepting yet");
                assertEquals(200, status(http, base + "/health"));
                accepting.set(true);
                assertEquals(200, status(http, base + "/ready"));
                String metrics = body(http, base + "/metrics");
                assertTrue(Exposition.parse(metrics).get("larch_ready") == 1.0, metrics);
                store.close();
                assertEquals(503, status(http, base + "/ready"), "store closed");
                assertEquals(200, status(http, base + "/health"));
                // A scrape of a closing server still answers, without the store's gauges.
                Map<String, Double> late = Exposition.parse(body(http, base + "/metrics"));
                assertEquals(0.0, late.get("larch_ready"));
                assertTrue(!late.containsKey("larch_lmdb_map_size_bytes"));
            }
        } finally {
            store.close();
        }
    }

    private static int status(HttpClient http, String url) throws Exception {
        return http.send(request(url), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String body(HttpClient http, String url) throws Exception {
        return http.send(request(url), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static HttpRequest request(String url) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .build();
    }
}
