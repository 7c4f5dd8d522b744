package dev.larch.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.ExtendedRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import dev.larch.server.tls.Certificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * StartTLS command injection (CVE-2011-0411's class) against a real server process: one TCP write
 * carries a StartTLS request, a simple bind as the administrator and a WhoAmI; the client then starts
 * TLS on the same socket. The bind must never run (the access log shows no BIND) and nothing may be
 * answered inside TLS; the server refuses in clear with a Notice of Disconnection and closes.
 */
class StartTlsCommandInjectionIT {
    static final String ADMIN_PASSWORD = "injection-admin-secret";
    static final String START_TLS = "1.3.6.1.4.1.1466.20037";
    static final String WHO_AM_I = "1.3.6.1.4.1.4203.1.11.3";
    static final String NOTICE_OF_DISCONNECTION = "1.3.6.1.4.1.1466.20036";

    @TempDir
    static Path dir;

    static LarchProcess server;
    static SSLContext trusting;

    @BeforeAll
    static void serveWithTls() throws Exception {
        Certificates.Issued certificate = Certificates.selfSignedServer("localhost", Duration.ofDays(1));
        Files.writeString(dir.resolve("server.pem"), certificate.certificatePem(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("server.key"), certificate.privateKeyPem(), StandardCharsets.UTF_8);
        Path config = dir.resolve("larch.conf");
        Files.writeString(
                config,
                "tls.certificate = server.pem\ntls.private-key = server.key\nserver.warm-up-seconds = 0\n",
                StandardCharsets.UTF_8);
        server = LarchProcess.serve(dir.resolve("data"))
                .adminPassword(ADMIN_PASSWORD)
                .config(config)
                .start();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate.certificate());
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        trusting = SSLContext.getInstance("TLS");
        trusting.init(null, factory.getTrustManagers(), null);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            assertEquals(0, server.stop(), server.output());
        }
    }

    @Test
    void anAdministratorBindInjectedBehindStartTlsNeverRunsAndNothingIsAnsweredInsideTls() throws Exception {
        byte[] segment = concat(
                new LDAPMessage(1, new ExtendedRequestProtocolOp(START_TLS, null))
                        .encode()
                        .encode(),
                new LDAPMessage(2, new BindRequestProtocolOp(TestData.ADMIN_DN, ADMIN_PASSWORD))
                        .encode()
                        .encode(),
                new LDAPMessage(3, new ExtendedRequestProtocolOp(WHO_AM_I, null))
                        .encode()
                        .encode());
        LDAPMessage clear;
        LDAPMessage insideTls = null;
        try (Socket raw = new Socket()) {
            raw.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
            raw.setSoTimeout(10_000);
            OutputStream out = raw.getOutputStream();
            out.write(segment);
            out.flush();
            clear = readOne(raw.getInputStream());
            try {
                SSLSocket tls =
                        (SSLSocket) trusting.getSocketFactory().createSocket(raw, "localhost", server.port(), false);
                tls.setSoTimeout(5_000);
                tls.startHandshake();
                insideTls = readOne(tls.getInputStream());
            } catch (IOException closed) {
                // no handshake: the server closed the connection
            }
        }
        Thread.sleep(500); // the access log line of a bind, had one run
        String output = server.output();
        assertFalse(output.contains("BIND dn="), "the injected bind ran\n" + output);
        assertNull(insideTls, "answered inside TLS: " + insideTls);
        assertTrue(clear != null, "no answer in clear");
        assertEquals(LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_RESPONSE, clear.getProtocolOpType(), clear.toString());
        assertEquals(
                NOTICE_OF_DISCONNECTION, clear.getExtendedResponseProtocolOp().getResponseOID(), clear.toString());
        assertEquals(
                ResultCode.PROTOCOL_ERROR_INT_VALUE,
                clear.getExtendedResponseProtocolOp().getResultCode(),
                clear.toString());
        assertTrue(output.contains("after a StartTLS request"), "the refusal is logged\n" + output);
    }

    /** One LDAPMessage, or null when the stream ends first. */
    private static LDAPMessage readOne(InputStream in) throws IOException {
        try {
            return LDAPMessage.readFrom(new ASN1StreamReader(in), true);
        } catch (LDAPException e) {
            throw new IOException(e);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
