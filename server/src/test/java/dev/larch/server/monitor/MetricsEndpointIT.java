package dev.larch.server.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Prometheus endpoint of a running server, scraped by a real HTTP client: its numbers move with
 * the LDAP operations run, its text is valid exposition (a strict parser always, promtool when it is
 * installed), and /health and /ready answer.
 */
class MetricsEndpointIT {
    private static final int PORT = freePort();

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("metrics.port", PORT).set("metrics.host", "127.0.0.1"));

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        InetSocketAddress at = larch.server().metricsAddress();
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private Map<String, Double> scrape() throws Exception {
        HttpResponse<String> response = get("/metrics");
        assertEquals(200, response.statusCode());
        return Exposition.parse(response.body());
    }

    @Test
    void listensWhereConfigured() {
        assertEquals(PORT, larch.server().metricsAddress().getPort());
    }

    @Test
    void writeCountersMoveByOneTransactionForALoneModify() throws Exception {
        Map<String, Double> before = scrape();
        try (LDAPConnection c = larch.server().admin()) {
            c.modify(
                    "ou=people," + TestServer.SUFFIX,
                    new Modification(ModificationType.REPLACE, "description", "counted"));
        }
        Map<String, Double> after = scrape();
        assertEquals(before.get("larch_write_operations_total") + 1, after.get("larch_write_operations_total"));
        assertEquals(before.get("larch_write_transactions_total") + 1, after.get("larch_write_transactions_total"));
    }

    @Test
    void numbersMoveWithTheOperationsRun() throws Exception {
        Map<String, Double> before = scrape();
        try (LDAPConnection c = larch.server().admin()) {
            for (int i = 0; i < 7; i++) {
                c.search(TestServer.SUFFIX, SearchScope.SUB, "(ou=people)");
            }
        }
        Map<String, Double> after = scrape();
        String searches = "larch_operations_completed_total{operation=\"search\"}";
        assertEquals(before.get(searches) + 7, after.get(searches));
        String binds = "larch_operations_completed_total{operation=\"bind\"}";
        assertEquals(before.get(binds) + 1, after.get(binds));
        String latency = "larch_operation_duration_seconds_count{operation=\"search\"}";
        assertEquals(before.get(latency) + 7, after.get(latency));
        assertEquals(before.get("larch_connections_total") + 1, after.get("larch_connections_total"));
        assertEquals(before.get("larch_entries_sent_total") + 7, after.get("larch_entries_sent_total"));
        assertTrue(after.get("larch_received_bytes_total") > before.get("larch_received_bytes_total"));
        assertTrue(after.get("larch_sent_bytes_total") > before.get("larch_sent_bytes_total"));
        String success = "larch_results_total{code=\"0\",result=\"success\"}";
        assertEquals(before.getOrDefault(success, 0.0) + 8, after.get(success));
        assertEquals(1.0, after.get("larch_ready"));
        assertTrue(after.get("larch_lmdb_map_size_bytes") > 0);
        assertTrue(after.get("larch_lmdb_records{database=\"entries\"}") >= 3);
        assertTrue(after.get("larch_jvm_heap_used_bytes") > 0);
        assertTrue(
                after.keySet().stream().anyMatch(k -> k.startsWith("larch_jvm_gc_seconds_total{collector=")),
                "GC time per collector");
        assertTrue(after.keySet().stream().anyMatch(k -> k.startsWith("larch_info{version=")));
        assertTrue(after.containsKey("larch_index_lookups_total{attribute=\"uid\",kind=\"equality\"}"));
    }

    @Test
    void expositionPassesPromtool() throws Exception {
        Path promtool = onPath("promtool");
        Assumptions.assumeTrue(promtool != null, "promtool is not installed (Debian: apt-get install prometheus)");
        String text = get("/metrics").body();
        Process p = new ProcessBuilder(promtool.toString(), "check", "metrics")
                .redirectErrorStream(true)
                .start();
        p.getOutputStream().write(text.getBytes(UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "promtool check metrics:\n" + out);
    }

    @Test
    void healthAndReadinessAnswer() throws Exception {
        assertEquals(200, get("/health").statusCode());
        assertEquals(200, get("/ready").statusCode());
        assertEquals(404, get("/nothing-here").statusCode());
    }

    private static Path onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir, tool);
            if (!dir.isEmpty() && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
