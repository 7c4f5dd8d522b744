package dev.larch.server.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.tls.Certificates;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.BindResponse;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * StartTLS command injection (the class of CVE-2011-0411 and CVE-2021-33515) against a real listener,
 * from a raw socket: bytes a client sends in clear behind a StartTLS request, before the handshake, are
 * never decoded or executed. A connection that has such bytes when TLS would begin is closed; no bind
 * sent that way reaches the request handler, and nothing is answered inside the TLS session.
 */
class StartTlsInjectionIT {

    private static final String ADMIN = "cn=admin,dc=example,dc=com";
    private static final String WHO_AM_I = "1.3.6.1.4.1.4203.1.11.3";

    private static Certificates.Issued certificate;
    private static TlsOptions tls;
    private static SSLContext client;
    private static LdapListener listener;
    private static final BindRecorder HANDLER = new BindRecorder();

    @BeforeAll
    static void listenWithTls() throws Exception {
        certificate = Certificates.selfSignedServer("localhost", Duration.ofDays(1));
        tls = new TlsOptions(
                SslContextBuilder.forServer(certificate.keys().getPrivate(), certificate.certificate())
                        .sslProvider(SslProvider.JDK)
                        .build(),
                10_000,
                0);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate.certificate());
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        client = SSLContext.getInstance("TLS");
        client.init(null, trustManagers.getTrustManagers(), null);
        listener = LdapListener.start(new ListenerOptions("127.0.0.1", 0, 1, 1 << 20, 0, 100), tls, HANDLER);
    }

    @AfterAll
    static void stop() {
        if (listener != null) {
            listener.close();
        }
    }

    private static byte[] startTls(int id) {
        return extended(id, StartTls.OID);
    }

    private static byte[] extended(int id, String oid) {
        return Fixtures.message(id, Fixtures.tlv(0x77, Fixtures.tlv(0x80, oid.getBytes(StandardCharsets.US_ASCII))));
    }

    private static byte[] adminBind(int id) {
        return Fixtures.simpleBind(id, ADMIN, "secret");
    }

    @Test
    void aBindInjectedInTheStartTlsSegmentIsNeverExecuted() throws Exception {
        int before = HANDLER.binds.size();
        try (Socket raw = connect()) {
            write(raw, Fixtures.concat(startTls(1), adminBind(2), extended(3, WHO_AM_I)));
            assertRefusedAndNothingRun(raw, before);
        }
    }

    @Test
    void aBindInjectedAcrossTwoWritesBeforeTheHandshakeIsNeverExecuted() throws Exception {
        int before = HANDLER.binds.size();
        byte[] bind = adminBind(2);
        try (Socket raw = connect()) {
            write(raw, Fixtures.concat(startTls(1), Arrays.copyOf(bind, 7)));
            Thread.sleep(100);
            write(raw, Fixtures.concat(Arrays.copyOfRange(bind, 7, bind.length), extended(3, WHO_AM_I)));
            assertRefusedAndNothingRun(raw, before);
        }
    }

    @Test
    void aBindSentInClearRightAfterTheStartTlsRequestIsNeverExecuted() throws Exception {
        int before = HANDLER.binds.size();
        try (Socket raw = connect()) {
            write(raw, startTls(1));
            // Before the response: it may arrive with the request or after TLS is installed; never run either way.
            write(raw, adminBind(2));
            try {
                handshakeAndRead(raw);
                fail("the server answered inside TLS a request sent in clear");
            } catch (IOException expected) {
                // closed: a notice or garbage in place of a handshake
            }
        }
        assertEquals(List.of(), HANDLER.binds.subList(before, HANDLER.binds.size()), "an injected bind was run");
    }

    @Test
    void aPartialFrameAfterTheStartTlsRequestClosesTheConnection() throws Exception {
        int before = HANDLER.binds.size();
        try (Socket raw = connect()) {
            write(raw, Fixtures.concat(startTls(1), Fixtures.hex("30 0c 02")));
            assertRefusedAndNothingRun(raw, before);
        }
    }

    @Test
    void aStartTlsAloneIsAnsweredAndABindInsideTlsIsServed() throws Exception {
        int before = HANDLER.binds.size();
        try (Socket raw = connect()) {
            write(raw, startTls(1));
            ExtendedResponse response = assertInstanceOf(ExtendedResponse.class, read(raw.getInputStream()));
            assertEquals(ResultCodeEnum.SUCCESS, response.getLdapResult().getResultCode());
            try (SSLSocket secured = layerTls(raw)) {
                secured.startHandshake();
                write(secured, adminBind(2));
                BindResponse bound = assertInstanceOf(BindResponse.class, read(secured.getInputStream()));
                assertEquals(ResultCodeEnum.SUCCESS, bound.getLdapResult().getResultCode());
            }
        }
        assertEquals(List.of(ADMIN), HANDLER.binds.subList(before, HANDLER.binds.size()));
    }

    @Test
    void aRefusedStartTlsLeavesTheConnectionServingInClear() throws Exception {
        try (LdapListener plain = LdapListener.start(
                        new ListenerOptions("127.0.0.1", 0, 1, 1 << 20, 0, 100), TlsOptions.NONE, new BindRecorder());
                Socket raw = connect(plain.address())) {
            write(raw, startTls(1));
            ExtendedResponse refused = assertInstanceOf(ExtendedResponse.class, read(raw.getInputStream()));
            assertEquals(ResultCodeEnum.UNAVAILABLE, refused.getLdapResult().getResultCode());
            write(raw, adminBind(2));
            BindResponse bound = assertInstanceOf(BindResponse.class, read(raw.getInputStream()));
            assertEquals(ResultCodeEnum.SUCCESS, bound.getLdapResult().getResultCode());
        }
    }

    /** What the client saw: the first answer in clear, then what came inside TLS (null: closed). */
    private record Outcome(Message clear, Message insideTls) {}

    /** Reads the first answer in clear, then tries the handshake and reads one answer inside TLS. */
    private static Outcome attempt(Socket raw) {
        Message first;
        try {
            first = read(raw.getInputStream());
        } catch (IOException closed) {
            first = null;
        }
        try {
            return new Outcome(first, handshakeAndRead(raw));
        } catch (IOException closed) {
            return new Outcome(first, null);
        }
    }

    /**
     * No injected bind ran; the server answered the StartTLS request with a Notice of Disconnection
     * (protocolError) or closed at once, and nothing came inside TLS.
     */
    private static void assertRefusedAndNothingRun(Socket raw, int bindsBefore) {
        Outcome outcome = attempt(raw);
        assertEquals(
                List.of(),
                HANDLER.binds.subList(bindsBefore, HANDLER.binds.size()),
                "an injected bind ran: " + outcome);
        assertNull(outcome.insideTls(), "answered inside TLS: " + outcome);
        if (outcome.clear() != null) {
            ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, outcome.clear(), outcome.toString());
            assertEquals(ProtocolResponses.NOTICE_OF_DISCONNECTION_OID, notice.getResponseName(), outcome.toString());
            assertEquals(ResultCodeEnum.PROTOCOL_ERROR, notice.getLdapResult().getResultCode());
            assertTrue(notice.getLdapResult().getDiagnosticMessage().contains("StartTLS"), outcome.toString());
        }
    }

    private static Message handshakeAndRead(Socket raw) throws IOException {
        SSLSocket secured = layerTls(raw);
        secured.setSoTimeout(3_000);
        secured.startHandshake();
        return read(secured.getInputStream());
    }

    private static SSLSocket layerTls(Socket raw) throws IOException {
        return (SSLSocket) client.getSocketFactory().createSocket(raw, "localhost", raw.getPort(), false);
    }

    private static Socket connect() throws IOException {
        return connect(listener.address());
    }

    private static Socket connect(InetSocketAddress address) throws IOException {
        Socket socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(5_000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    private static void write(Socket socket, byte[] bytes) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /** One whole LDAPMessage; an IOException when the stream ends or times out first. */
    private static Message read(InputStream stream) throws IOException {
        try {
            return RawClient.readMessage(stream);
        } catch (SocketTimeoutException e) {
            throw new IOException("nothing received", e);
        }
    }

    /** Records the DN of every bind it is handed and binds the session to it; answers everything success. */
    private static final class BindRecorder implements RequestHandler {
        final List<String> binds = new CopyOnWriteArrayList<>();

        @Override
        public void handle(Operation op) {
            if (op.request() instanceof BindRequest bind) {
                binds.add(bind.getName());
                try {
                    op.session().bound(new Dn(bind.getName()), false);
                } catch (LdapInvalidDnException e) {
                    throw new IllegalArgumentException(e);
                }
            }
            op.complete(TestHandler.success(op));
        }
    }
}
