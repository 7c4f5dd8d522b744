package dev.larch.server.tracing;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.server.LarchServer;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A collector that accepts connections and never answers: operations go on at full speed (spans are
 * queued, at most {@code tracing.max-queue-size}, and dropped beyond it), and the server still stops.
 */
class UnresponsiveCollectorIT {
    @TempDir
    Path dir;

    @Test
    void operationsNeverWaitForTheCollector() throws Exception {
        // Never accepts: the kernel completes connections into the backlog and nothing ever answers.
        try (ServerSocket blackHole = new ServerSocket(0)) {
            LarchConfig config = TestServer.settings(dir)
                    .set("tracing.otlp-endpoint", "http://127.0.0.1:" + blackHole.getLocalPort())
                    .set("tracing.max-queue-size", 16)
                    .build();
            LarchServer server = LarchServer.start(config, Map.of("LARCH_ADMIN_PASSWORD", TestServer.ADMIN_PASSWORD));
            try {
                assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
                    try (LDAPConnection c = new LDAPConnection(
                            "127.0.0.1", server.address().getPort(), TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD)) {
                        // Far more spans than the queue holds, each answered at once.
                        for (int i = 0; i < 500; i++) {
                            assertEquals(
                                    0,
                                    c.search("", SearchScope.BASE, "(objectClass=*)")
                                            .getResultCode()
                                            .intValue());
                        }
                    }
                });
            } finally {
                // Waits a bounded time for the export thread, then stops regardless.
                assertTimeoutPreemptively(Duration.ofSeconds(30), server::close);
            }
        }
    }
}
