package dev.larch.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TlsSettingsTest {
    @TempDir
    Path dir;

    @Test
    void defaultHasNoTlsButRequiresTlsForPasswordBinds() {
        Tls tls = LarchConfig.defaults().tls();
        assertFalse(tls.configured());
        assertEquals(0, tls.ldapsPort());
        assertTrue(tls.requireTlsForBinds());
        assertEquals(10, tls.handshakeTimeoutSeconds());
        assertEquals("uid", tls.certificateMapping());
    }

    @Test
    void pemPairAndCaResolveAgainstTheConfigDirectory() throws Exception {
        Tls tls = load("""
                tls.certificate = cert.pem
                tls.private-key = key.pem
                tls.ca-certificates = ca.pem
                listen.ldaps-port = 1636
                security.require-tls-for-binds = false
                tls.certificate-mapping = cn
                """).tls();
        assertEquals(dir.resolve("cert.pem"), tls.certificate());
        assertEquals(dir.resolve("key.pem"), tls.privateKey());
        assertEquals(dir.resolve("ca.pem"), tls.caCertificates());
        assertEquals(1636, tls.ldapsPort());
        assertFalse(tls.requireTlsForBinds());
        assertTrue(tls.requestsClientCertificates());
        assertEquals("cn", tls.certificateMapping());
    }

    @Test
    void emptyPathMeansNotSet() throws Exception {
        Tls tls = load("tls.certificate =\ntls.private-key =\n").tls();
        assertNull(tls.certificate());
        assertFalse(tls.configured());
    }

    @Test
    void certificateWithoutKeyNamesTheMissingKey() {
        assertProblem("tls.certificate = c.pem\n", "tls.private-key: must be set when tls.certificate is");
    }

    @Test
    void keystoreAndPemTogetherAreRefused() {
        assertProblem(
                "tls.certificate = c.pem\ntls.private-key = k.pem\ntls.keystore = s.p12\n",
                "tls.keystore: set either tls.keystore or tls.certificate and tls.private-key, not both");
    }

    @Test
    void authoritiesWithoutACertificateOrAProviderOverTlsAreRefused() {
        assertProblem("tls.ca-certificates = ca.pem\n", "tls.ca-certificates: needs a server certificate");
    }

    @Test
    void ldapsPortWithoutCertificateIsRefused() {
        assertProblem("listen.ldaps-port = 1636\n", "listen.ldaps-port: needs a server certificate");
    }

    @Test
    void ldapsPortEqualToThePlainPortIsRefused() {
        assertProblem(
                "listen.port = 1636\nlisten.ldaps-port = 1636\ntls.keystore = s.p12\n",
                "listen.ldaps-port: must differ from listen.port (1636)");
    }

    @Test
    void mappingMustBeAnAttributeName() {
        assertProblem("tls.certificate-mapping = (uid=x)\n", "tls.certificate-mapping: expected an attribute name");
    }

    @Test
    void handshakeTimeoutIsBounded() {
        assertProblem(
                "tls.handshake-timeout-seconds = 0\n", "tls.handshake-timeout-seconds: expected an integer 1..300");
    }

    @Test
    void toStringHidesTheKeystorePassword() throws Exception {
        Tls tls =
                load("tls.keystore = s.p12\ntls.keystore-password = hunter2\n").tls();
        assertEquals("hunter2", tls.keystorePassword());
        assertFalse(tls.toString().contains("hunter2"));
    }

    private LarchConfig load(String text) throws IOException, ConfigException {
        Path file = dir.resolve("larch.conf");
        Files.writeString(file, text);
        return LarchConfig.load(file);
    }

    private void assertProblem(String text, String expected) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
