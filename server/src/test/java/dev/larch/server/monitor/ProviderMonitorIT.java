package dev.larch.server.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResultEntry;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Larch consumer of a Larch provider, seen from the consumer's {@code cn=Monitor} and {@code
 * /metrics}: the changes it applied, the lag of live changes (histogram, and p50/p99 on {@code
 * cn=Provider 1}) and the state of its session, all under replica ID 1.
 */
class ProviderMonitorIT {
    private static final String PROVIDER_ENTRY = "cn=Provider 1,cn=Replication,cn=Monitor";

    @RegisterExtension
    static final LarchServerExtension provider = LarchServerExtension.withBaseTree();

    @TempDir
    Path dir;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void theConsumerShowsChangesAppliedTheLagOfLiveChangesAndItsStatePerReplicaId() throws Exception {
        int metricsPort = freePort();
        try (TestServer consumer = TestServer.start(
                dir.resolve("consumer"),
                b -> b.set("metrics.port", metricsPort)
                        .set("metrics.host", "127.0.0.1")
                        .set("replication.server-id", 2)
                        .set(
                                "replication.consumer.1.provider-url",
                                "ldap://127.0.0.1:" + provider.server().port())
                        .set("replication.consumer.1.bind-dn", TestServer.ADMIN_DN)
                        .set("replication.consumer.1.bind-password", TestServer.ADMIN_PASSWORD)
                        .set("replication.consumer.1.retry-seconds", 1))) {
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> "persist".equals(attribute(consumer, "larchReplicaState")));
            long refreshed = Long.parseLong(attribute(consumer, "larchReplicaChangesApplied"));
            assertEquals(3, refreshed, "the suffix and two units of the refresh");
            assertNull(attribute(consumer, "larchReplicaLagP50"), "a refresh's entries are not live changes");

            try (LDAPConnection admin = provider.server().admin()) {
                for (int i = 0; i < 5; i++) {
                    admin.add(
                            "uid=live" + i + ",ou=people," + TestServer.SUFFIX,
                            new Attribute("objectClass", "inetOrgPerson"),
                            new Attribute("uid", "live" + i),
                            new Attribute("cn", "Live " + i),
                            new Attribute("sn", "Live"));
                }
                admin.delete("uid=live4,ou=people," + TestServer.SUFFIX);
            }
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> "9".equals(attribute(consumer, "larchReplicaChangesApplied")));
            double p50 = Double.parseDouble(attribute(consumer, "larchReplicaLagP50"));
            double p99 = Double.parseDouble(attribute(consumer, "larchReplicaLagP99"));
            assertTrue(0 <= p50 && p50 <= p99 && p99 < 20, "lag p50 " + p50 + " p99 " + p99);

            Map<String, Double> metrics = scrape(metricsPort);
            assertEquals(9.0, metrics.get("larch_replication_changes_applied_total{rid=\"1\"}"));
            assertEquals(6.0, metrics.get("larch_replication_lag_seconds_count{rid=\"1\"}"), "five adds, one delete");
            assertEquals(6.0, metrics.get("larch_replication_lag_seconds_bucket{rid=\"1\",le=\"3600.0\"}"));
            assertEquals(1.0, metrics.get("larch_replication_state{rid=\"1\",state=\"persist\"}"));
            assertEquals(0.0, metrics.get("larch_replication_state{rid=\"1\",state=\"retrying\"}"));
        }
    }

    private static String attribute(TestServer consumer, String name) throws Exception {
        try (LDAPConnection c = consumer.admin()) {
            SearchResultEntry e = c.getEntry(PROVIDER_ENTRY, "*", "+");
            assertNotNull(e, PROVIDER_ENTRY);
            return e.getAttributeValue(name);
        }
    }

    private Map<String, Double> scrape(int port) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return Exposition.parse(response.body());
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
