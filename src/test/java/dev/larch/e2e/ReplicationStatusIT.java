package dev.larch.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.larch.server.tls.Certificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./larch replication status} against a Larch consumer of a Larch provider, both real
 * processes: converged, it exits 0 and says so per provider; with the provider stopped, 1 naming it
 * unreachable; without an administrator password, 2 saying which variables to set; with the
 * consumer stopped, 1 saying no server answers. A provider reached over LDAPS is checked against the
 * config's tls.ca-certificates, as the server checks it, not against the JVM's trust store.
 */
class ReplicationStatusIT {
    private static final String PASSWORD = "status-secret";
    private static final Duration CONVERGE = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void statusSaysConvergedThenNamesAStoppedProviderUnreachableAndRefusesWithoutAPassword() throws Exception {
        int providerPort = LarchProcess.freePort();
        int consumerPort = LarchProcess.freePort();
        Path config = dir.resolve("consumer.conf");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "listen.host = 127.0.0.1",
                        "listen.port = " + consumerPort,
                        "replication.server-id = 2",
                        "replication.consumer.1.provider-url = ldap://127.0.0.1:" + providerPort,
                        "replication.consumer.1.bind-dn = " + LarchProcess.ADMIN_DN,
                        "replication.consumer.1.bind-password = " + PASSWORD,
                        "replication.consumer.1.retry-seconds = 1",
                        "replication.consumer.1.max-retry-seconds = 2",
                        "server.warm-up-seconds = 0",
                        ""));
        LarchProcess provider = LarchProcess.serve(dir.resolve("provider"))
                .port(providerPort)
                .adminPassword(PASSWORD)
                .withoutSelfWarmUp()
                .start();
        try (LarchProcess consumer = LarchProcess.serve(dir.resolve("consumer"))
                .config(config)
                .port(consumerPort)
                .adminPassword(PASSWORD)
                .start()) {
            ProcessResult converged = awaitExit0(config);
            assertTrue(consumer.isAlive(), consumer::output);
            assertTrue(converged.out().contains("provider 1 ldap://127.0.0.1:" + providerPort), converged.out());
            assertTrue(converged.out().contains("provider 1: converged"), converged.out());
            assertTrue(converged.out().contains("state: persist"), converged.out());

            ProcessResult noPassword = LarchProcess.run(
                    Map.of("LARCH_ADMIN_PASSWORD", "", "LARCH_ADMIN_PASSWORD_FILE", ""),
                    "replication",
                    "status",
                    "--config",
                    config.toString());
            assertEquals(2, noPassword.exitCode(), noPassword.toString());
            assertTrue(noPassword.err().contains("LARCH_ADMIN_PASSWORD"), noPassword.err());

            assertEquals(0, provider.stop(), provider.output());
            ProcessResult unreachable = status(config);
            assertEquals(1, unreachable.exitCode(), unreachable.toString());
            assertTrue(unreachable.out().contains("provider 1: unreachable"), unreachable.out());
            assertTrue(unreachable.out().contains("127.0.0.1:" + providerPort), unreachable.out());
        } finally {
            provider.close();
        }
        ProcessResult noServer = status(config);
        assertEquals(1, noServer.exitCode(), noServer.toString());
        assertTrue(noServer.err().contains("not running"), noServer.err());
    }

    @Test
    void aLdapsProviderIsCheckedAgainstTheConfiguredAuthoritiesNotTheJvmTrustStore() throws Exception {
        Certificates.Issued ca = Certificates.authority("CN=Status Test CA,O=Example", Duration.ofDays(2));
        Certificates.Issued serverCert = Certificates.server("localhost", ca, Duration.ofDays(2));
        Files.writeString(dir.resolve("ca.pem"), ca.certificatePem());
        Files.writeString(dir.resolve("server.pem"), serverCert.certificatePem());
        Files.writeString(dir.resolve("server.key"), serverCert.privateKeyPem());
        int providerPort = LarchProcess.freePort();
        int providerLdapsPort = LarchProcess.freePort();
        int consumerPort = LarchProcess.freePort();
        Path providerConfig = dir.resolve("provider.conf");
        Files.writeString(
                providerConfig,
                String.join(
                        "\n",
                        "listen.host = 127.0.0.1",
                        "listen.ldaps-port = " + providerLdapsPort,
                        "tls.certificate = " + dir.resolve("server.pem"),
                        "tls.private-key = " + dir.resolve("server.key"),
                        "server.warm-up-seconds = 0",
                        ""));
        Path config = dir.resolve("consumer.conf");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "listen.host = 127.0.0.1",
                        "listen.port = " + consumerPort,
                        "server.warm-up-seconds = 0",
                        "tls.ca-certificates = " + dir.resolve("ca.pem"),
                        "replication.server-id = 2",
                        "replication.consumer.1.provider-url = ldaps://127.0.0.1:" + providerLdapsPort,
                        "replication.consumer.1.bind-dn = " + LarchProcess.ADMIN_DN,
                        "replication.consumer.1.bind-password = " + PASSWORD,
                        "replication.consumer.1.retry-seconds = 1",
                        "replication.consumer.1.max-retry-seconds = 2",
                        ""));
        try (LarchProcess provider = LarchProcess.serve(dir.resolve("provider"))
                        .config(providerConfig)
                        .port(providerPort)
                        .adminPassword(PASSWORD)
                        .start();
                LarchProcess consumer = LarchProcess.serve(dir.resolve("consumer"))
                        .config(config)
                        .port(consumerPort)
                        .adminPassword(PASSWORD)
                        .start()) {
            ProcessResult converged = awaitExit0(config);
            assertTrue(provider.isAlive(), provider::output);
            assertTrue(consumer.isAlive(), consumer::output);
            assertTrue(converged.out().contains("provider 1: converged"), converged.out());

            // The same servers read with a config trusting another authority: the provider is refused.
            Certificates.Issued other = Certificates.authority("CN=Other CA,O=Example", Duration.ofDays(2));
            Files.writeString(dir.resolve("other-ca.pem"), other.certificatePem());
            Path distrusting = dir.resolve("distrusting.conf");
            Files.writeString(
                    distrusting,
                    Files.readString(config)
                            .replace(
                                    dir.resolve("ca.pem").toString(),
                                    dir.resolve("other-ca.pem").toString()));
            ProcessResult refused = status(distrusting);
            assertEquals(1, refused.exitCode(), refused.toString());
            assertTrue(refused.out().contains("provider 1: not read: TLS with ldaps://127.0.0.1:"), refused.out());
        }
    }

    private static ProcessResult status(Path config) {
        return LarchProcess.run(
                Map.of("LARCH_ADMIN_PASSWORD", PASSWORD), "replication", "status", "--config", config.toString());
    }

    /** The status command run until it exits 0 (the consumer caught up), or the last run when time is out. */
    private static ProcessResult awaitExit0(Path config) throws InterruptedException {
        long deadline = System.nanoTime() + CONVERGE.toNanos();
        ProcessResult last = status(config);
        while (last.exitCode() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(500);
            last = status(config);
        }
        ProcessResult result = last;
        assertEquals(0, result.exitCode(), () -> "not converged in " + CONVERGE + ": " + result);
        return result;
    }
}
