package dev.larch.server.replica;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.larch.config.LarchConfig;
import dev.larch.config.ReplicationConsumer;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import dev.larch.server.tls.Certificates;
import dev.larch.server.tls.ProviderTrust;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.ssl.SslContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A session over TLS (StartTLS or ldaps://) refreshes from a provider whose certificate chains to
 * tls.ca-certificates and names the host it was reached by; a certificate of another authority or for
 * another name fails the handshake, and the session retries with that as its last error.
 */
class ProviderTlsIT {
    private static final Path DIR = directory();
    private static final Certificates.Issued CA =
            Certificates.authority("CN=Provider CA,O=Example", Duration.ofDays(2));
    private static final Certificates.Issued OTHER_CA =
            Certificates.authority("CN=Other CA,O=Example", Duration.ofDays(2));
    private static final int LDAPS_PORT = freePort();
    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static final LarchServerExtension provider = LarchServerExtension.withBaseTree()
            .configured(c -> tls(c, "127.0.0.1", "provider").set("listen.ldaps-port", LDAPS_PORT));

    private static EventLoopGroup group;

    @BeforeAll
    static void loops() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stopLoops() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void startTlsToAProviderWithATrustedCertificateForItsAddressRefreshes() {
        assertRefreshes(consumer("ldap", provider.server().port(), true), trust(CA));
    }

    @Test
    void ldapsToAProviderWithATrustedCertificateForItsAddressRefreshes() {
        assertRefreshes(consumer("ldaps", LDAPS_PORT, false), trust(CA));
    }

    @Test
    void aCertificateOfAnotherAuthorityFailsTheHandshakeAndIsRetried() {
        assertHandshakeFails(consumer("ldap", provider.server().port(), true), trust(OTHER_CA), "certification path");
    }

    @Test
    void aCertificateForAnotherNameFailsTheHandshakeAndIsRetried() throws Exception {
        // The certificate names 127.0.0.1 (and localhost); reached as 127.0.0.2, the same host, it names another.
        try (KillableProxy other = new KillableProxy(
                InetAddress.getByName("127.0.0.2"), provider.server().port())) {
            assertHandshakeFails(consumer("ldap", "127.0.0.2", other.port(), true), trust(CA), "127.0.0.2");
        }
    }

    private static void assertRefreshes(ReplicationConsumer consumer, SslContext tls) {
        RecordingSink sink = new RecordingSink(2);
        try (SyncSession session = new SyncSession(consumer, TestServer.SUFFIX, 2, sink, group, tls)) {
            session.start();
            await().atMost(WAIT).until(() -> session.status().state() == SyncSessionStatus.State.PERSIST);
            assertTrue(sink.changes(ReplicaChange.Upsert.class).size() >= 3, "the base tree");
            assertNull(session.status().lastError());
        }
    }

    private static void assertHandshakeFails(ReplicationConsumer consumer, SslContext tls, String why) {
        RecordingSink sink = new RecordingSink(2);
        try (SyncSession session = new SyncSession(consumer, TestServer.SUFFIX, 2, sink, group, tls)) {
            session.start();
            await().atMost(WAIT).until(() -> session.status().connects() >= 2);
            String error = session.status().lastError();
            assertTrue(
                    error != null && error.startsWith("TLS with the provider failed: ") && error.contains(why), error);
            assertEquals(0, sink.batches.size(), "nothing was read");
        }
    }

    private static ReplicationConsumer consumer(String scheme, int port, boolean startTls) {
        return consumer(scheme, "127.0.0.1", port, startTls);
    }

    private static ReplicationConsumer consumer(String scheme, String host, int port, boolean startTls) {
        return new ReplicationConsumer(
                3,
                scheme + "://" + host + ":" + port,
                host,
                port,
                scheme.equals("ldaps"),
                startTls,
                TestServer.ADMIN_DN,
                TestServer.ADMIN_PASSWORD,
                ReplicationConsumer.Mode.REFRESH_AND_PERSIST,
                60,
                1,
                1);
    }

    private static SslContext trust(Certificates.Issued authority) {
        return ProviderTrust.context(
                write("trust-" + authority.certificate().getSerialNumber() + ".pem", authority.certificatePem()));
    }

    private static LarchConfig.Builder tls(LarchConfig.Builder c, String host, String name) {
        Certificates.Issued server = Certificates.server(host, CA, Duration.ofDays(2));
        return c.set("tls.certificate", write(name + ".pem", server.certificatePem()))
                .set("tls.private-key", write(name + ".key", server.privateKeyPem()));
    }

    private static Path write(String name, String text) {
        try {
            return Files.writeString(DIR.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path directory() {
        try {
            Path dir = Files.createTempDirectory("provider-tls");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
