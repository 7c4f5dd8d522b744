package dev.larch.server.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import dev.larch.config.LarchConfig;
import dev.larch.server.testing.LarchServerExtension;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code tls.require-client-certificate} and {@code tls.crl-files} as a client meets them over
 * StartTLS: no certificate, or one the authority revoked, fails the handshake; a good one is served.
 */
class ClientCertificatesIT {
    private static final Path DIR = directory();
    private static final Certificates.Issued CA = Certificates.authority("CN=Clients CA,O=Example", Duration.ofDays(2));
    private static final Certificates.Issued GOOD =
            Certificates.client("CN=Good Client,UID=good,O=Example", CA, Duration.ofDays(2));
    private static final Certificates.Issued REVOKED =
            Certificates.client("CN=Revoked Client,UID=revoked,O=Example", CA, Duration.ofDays(2));

    @RegisterExtension
    static final LarchServerExtension requiringAndRevoking =
            LarchServerExtension.withBaseTree().configured(c -> tls(c, true, crl()));

    @RegisterExtension
    static final LarchServerExtension askingOnly =
            LarchServerExtension.withBaseTree().configured(c -> tls(c, false, null));

    @Test
    void aClientWithoutACertificateFailsTheHandshakeWhenOneIsRequired() throws Exception {
        assertHandshakeFails(requiringAndRevoking, null);
        assertEquals(ResultCode.SUCCESS, startTls(askingOnly, null).getResultCode());
    }

    @Test
    void aRevokedCertificateFailsTheHandshakeAndAGoodOneIsServed() throws Exception {
        assertHandshakeFails(requiringAndRevoking, REVOKED);
        try (LDAPConnection good =
                new LDAPConnection("127.0.0.1", requiringAndRevoking.server().port())) {
            ExtendedResult started = good.processExtendedOperation(new StartTLSExtendedRequest(client(GOOD)));
            assertEquals(ResultCode.SUCCESS, started.getResultCode());
            WhoAmIExtendedResult who =
                    (WhoAmIExtendedResult) good.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals(ResultCode.SUCCESS, who.getResultCode());
        }
        // Without the revocation list the same certificate is accepted: the list is what refuses it.
        assertEquals(ResultCode.SUCCESS, startTls(askingOnly, REVOKED).getResultCode());
    }

    private static void assertHandshakeFails(LarchServerExtension server, Certificates.Issued identity)
            throws Exception {
        try (LDAPConnection connection =
                new LDAPConnection("127.0.0.1", server.server().port())) {
            SSLContext context = client(identity);
            assertThrows(LDAPException.class, () -> {
                connection.processExtendedOperation(new StartTLSExtendedRequest(context));
                // TLS 1.3 reports a refused client certificate only on the first read after the handshake.
                connection.processExtendedOperation(new WhoAmIExtendedRequest());
            });
        }
    }

    private static ExtendedResult startTls(LarchServerExtension server, Certificates.Issued identity) throws Exception {
        try (LDAPConnection connection =
                new LDAPConnection("127.0.0.1", server.server().port())) {
            ExtendedResult result = connection.processExtendedOperation(new StartTLSExtendedRequest(client(identity)));
            connection.processExtendedOperation(new WhoAmIExtendedRequest());
            return result;
        }
    }

    private static LarchConfig.Builder tls(LarchConfig.Builder c, boolean require, Path crl) {
        Certificates.Issued server = Certificates.server("localhost", CA, Duration.ofDays(2));
        return c.set("tls.certificate", write("server-" + require + ".pem", server.certificatePem()))
                .set("tls.private-key", write("server-" + require + ".key", server.privateKeyPem()))
                .set("tls.ca-certificates", write("ca.pem", CA.certificatePem()))
                .set("tls.require-client-certificate", require)
                .set("tls.crl-files", crl == null ? "" : crl);
    }

    /** The authority's revocation list, revoking {@link #REVOKED}. */
    @SuppressWarnings("JavaUtilDate") // Bouncy Castle's CRL builder takes Dates
    private static Path crl() {
        try {
            Date now = new Date();
            X509v2CRLBuilder builder = new X509v2CRLBuilder(
                    X500Name.getInstance(
                            CA.certificate().getSubjectX500Principal().getEncoded()),
                    now);
            builder.setNextUpdate(new Date(now.getTime() + Duration.ofDays(1).toMillis()));
            BigInteger serial = REVOKED.certificate().getSerialNumber();
            builder.addCRLEntry(serial, now, CRLReason.keyCompromise);
            byte[] der = builder.build(new JcaContentSignerBuilder("SHA256withECDSA")
                            .build(CA.keys().getPrivate()))
                    .getEncoded();
            return write(
                    "ca.crl",
                    "-----BEGIN X509 CRL-----\n" + Base64.getMimeEncoder().encodeToString(der)
                            + "\n-----END X509 CRL-----\n");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A client context trusting the test authority, presenting {@code identity} (none if null). */
    private static SSLContext client(Certificates.Issued identity) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", CA.certificate());
        TrustManagerFactory trusting = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trusting.init(trust);
        KeyManagerFactory keys = null;
        if (identity != null) {
            KeyStore own = KeyStore.getInstance("PKCS12");
            own.load(null, null);
            own.setKeyEntry("me", identity.keys().getPrivate(), "pw".toCharArray(), new X509Certificate[] {
                identity.certificate(), CA.certificate()
            });
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(own, "pw".toCharArray());
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys == null ? null : keys.getKeyManagers(), trusting.getTrustManagers(), null);
        return context;
    }

    private static Path directory() {
        try {
            Path dir = Files.createTempDirectory("larch-client-certs");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(String name, String text) {
        try {
            return Files.writeString(DIR.resolve(name), text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
