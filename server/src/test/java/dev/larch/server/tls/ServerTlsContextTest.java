package dev.larch.server.tls;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.larch.config.LarchConfig;
import dev.larch.config.Tls;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading the configured TLS files: every failure is one line naming the key and the file. */
class ServerTlsContextTest {
    @TempDir
    Path dir;

    private static Tls pem(Path certificate, Path key) {
        return tls(LarchConfig.builder().set("tls.certificate", certificate).set("tls.private-key", key));
    }

    private static Tls tls(LarchConfig.Builder settings) {
        return settings.build().tls();
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void aSelfSignedPairLoadsAndNamesItsProvider() throws Exception {
        Certificates.Issued issued = Certificates.selfSignedServer("localhost", Duration.ofDays(1));
        ServerTlsContext context = ServerTlsContext.load(
                pem(write("cert.pem", issued.certificatePem()), write("key.pem", issued.privateKeyPem())));
        assertNotNull(context.context());
        assertTrue(
                context.provider().startsWith("BoringSSL") || context.provider().startsWith("JDK"));
        assertTrue(context.context().isServer());
    }

    @Test
    void aMissingCertificateNamesKeyAndFile() throws Exception {
        Path key = write(
                "key.pem",
                Certificates.selfSignedServer("h", Duration.ofDays(1)).privateKeyPem());
        TlsSetupException e =
                assertThrows(TlsSetupException.class, () -> ServerTlsContext.load(pem(dir.resolve("nope.pem"), key)));
        assertEquals("tls.certificate = " + dir.resolve("nope.pem") + ": no such file", e.getMessage());
    }

    @Test
    void aCertificateFileWithoutPemNamesKeyAndFile() throws Exception {
        Certificates.Issued issued = Certificates.selfSignedServer("h", Duration.ofDays(1));
        Path garbage = write("cert.pem", "hello\n");
        TlsSetupException e = assertThrows(
                TlsSetupException.class,
                () -> ServerTlsContext.load(pem(garbage, write("key.pem", issued.privateKeyPem()))));
        assertTrue(e.getMessage().startsWith("tls.certificate = " + garbage + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void aKeyFileWithoutAKeyNamesKeyAndFile() throws Exception {
        Certificates.Issued issued = Certificates.selfSignedServer("h", Duration.ofDays(1));
        Path notAKey = write("key.pem", issued.certificatePem());
        TlsSetupException e = assertThrows(
                TlsSetupException.class,
                () -> ServerTlsContext.load(pem(write("cert.pem", issued.certificatePem()), notAKey)));
        assertEquals("tls.private-key = " + notAKey + ": holds no PEM private key", e.getMessage());
    }

    @Test
    void aKeyOfAnotherCertificateIsRefused() throws Exception {
        Certificates.Issued one = Certificates.selfSignedServer("h", Duration.ofDays(1));
        Certificates.Issued other = Certificates.selfSignedServer("h", Duration.ofDays(1));
        Path cert = write("cert.pem", one.certificatePem());
        Path key = write("key.pem", other.privateKeyPem());
        TlsSetupException e = assertThrows(TlsSetupException.class, () -> ServerTlsContext.load(pem(cert, key)));
        assertEquals("tls.private-key = " + key + ": is not the key of the certificate in " + cert, e.getMessage());
    }

    @Test
    void aCaBundleWithoutCertificatesNamesItsKey() throws Exception {
        Certificates.Issued issued = Certificates.selfSignedServer("h", Duration.ofDays(1));
        Path ca = write("ca.pem", "\n");
        Tls tls = tls(LarchConfig.builder()
                .set("tls.certificate", write("cert.pem", issued.certificatePem()))
                .set("tls.private-key", write("key.pem", issued.privateKeyPem()))
                .set("tls.ca-certificates", ca));
        TlsSetupException e = assertThrows(TlsSetupException.class, () -> ServerTlsContext.load(tls));
        assertTrue(e.getMessage().startsWith("tls.ca-certificates = " + ca + ": "), e.getMessage());
    }

    @Test
    void aKeystoreThatIsNoPkcs12NamesKeyAndFile() throws Exception {
        Path store = write("store.p12", "not pkcs12");
        Tls tls = tls(LarchConfig.builder().set("tls.keystore", store).set("tls.keystore-password", "pw"));
        TlsSetupException e = assertThrows(TlsSetupException.class, () -> ServerTlsContext.load(tls));
        assertTrue(
                e.getMessage().startsWith("tls.keystore = " + store + ": cannot open it as PKCS#12"), e.getMessage());
    }
}
