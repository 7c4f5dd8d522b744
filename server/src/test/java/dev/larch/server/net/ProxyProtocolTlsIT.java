package dev.larch.server.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import dev.larch.config.IpNetwork;
import dev.larch.server.net.proxy.ProxyHeaders;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.tls.Certificates;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.BindResponse;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * The PROXY header comes before TLS, as a balancer passing TLS through sends it: on the LDAPS port the
 * handshake starts after the header, and on the plain port StartTLS works behind one. Either way the
 * session is the proxied client's.
 */
class ProxyProtocolTlsIT {
    private static final InetAddress BALANCER = address(new byte[] {127, 0, 0, 2});
    private static final BindAddresses HANDLER = new BindAddresses();

    private static SSLContext client;
    private static LdapListener listener;
    private static int ldapsPort;

    @BeforeAll
    static void listen() throws Exception {
        Certificates.Issued certificate = Certificates.selfSignedServer("localhost", Duration.ofDays(1));
        try (ServerSocket free = new ServerSocket(0)) {
            ldapsPort = free.getLocalPort();
        }
        TlsOptions tls = new TlsOptions(
                SslContextBuilder.forServer(certificate.keys().getPrivate(), certificate.certificate())
                        .sslProvider(SslProvider.JDK)
                        .build(),
                10_000,
                ldapsPort);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate.certificate());
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        client = SSLContext.getInstance("TLS");
        client.init(null, trustManagers.getTrustManagers(), null);
        listener = LdapListener.start(
                new ListenerOptions("127.0.0.1", 0, 1, 1 << 20, 0, 100)
                        .withProxyProtocolFrom(List.of(IpNetwork.parse("127.0.0.2"))),
                tls,
                HANDLER);
    }

    @AfterAll
    static void stop() {
        if (listener != null) {
            listener.close();
        }
    }

    @Test
    void onTheLdapsPortTheHandshakeFollowsTheHeader() throws Exception {
        try (Socket raw = connect(new InetSocketAddress("127.0.0.1", ldapsPort))) {
            raw.getOutputStream().write(ProxyHeaders.v2("203.0.113.7", 40_100));
            try (SSLSocket tls = wrap(raw, ldapsPort)) {
                assertBindRecordedFrom(tls, new InetSocketAddress("203.0.113.7", 40_100));
            }
        }
    }

    @Test
    void startTlsWorksBehindTheHeader() throws Exception {
        try (Socket raw = connect(listener.address())) {
            raw.getOutputStream()
                    .write(ProxyHeaders.concat(
                            ProxyHeaders.v1("203.0.113.8", 40_101),
                            Fixtures.message(
                                    1,
                                    Fixtures.tlv(
                                            0x77,
                                            Fixtures.tlv(0x80, StartTls.OID.getBytes(StandardCharsets.US_ASCII))))));
            ExtendedResponse started =
                    assertInstanceOf(ExtendedResponse.class, RawClient.readMessage(raw.getInputStream()));
            assertEquals(ResultCodeEnum.SUCCESS, started.getLdapResult().getResultCode());
            try (SSLSocket tls = wrap(raw, listener.address().getPort())) {
                assertBindRecordedFrom(tls, new InetSocketAddress("203.0.113.8", 40_101));
            }
        }
    }

    private static void assertBindRecordedFrom(SSLSocket tls, SocketAddress expected) throws IOException {
        tls.startHandshake();
        tls.getOutputStream().write(Fixtures.simpleBind(2, "cn=someone", "pw"));
        BindResponse bound = assertInstanceOf(BindResponse.class, RawClient.readMessage(tls.getInputStream()));
        assertEquals(ResultCodeEnum.SUCCESS, bound.getLdapResult().getResultCode());
        assertEquals(expected, HANDLER.addresses.get(HANDLER.addresses.size() - 1));
    }

    private static Socket connect(InetSocketAddress server) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(BALANCER, 0));
        socket.connect(server, 5_000);
        socket.setSoTimeout(5_000);
        socket.setTcpNoDelay(true);
        return socket;
    }

    private static SSLSocket wrap(Socket raw, int port) throws IOException {
        return (SSLSocket) client.getSocketFactory().createSocket(raw, "localhost", port, false);
    }

    private static InetAddress address(byte[] bytes) {
        try {
            return InetAddress.getByAddress(bytes);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Records the session address of every bind and answers everything success. */
    private static final class BindAddresses implements RequestHandler {
        final List<SocketAddress> addresses = new CopyOnWriteArrayList<>();

        @Override
        public void handle(Operation op) {
            if (op.request() instanceof BindRequest) {
                addresses.add(op.session().remoteAddress());
            }
            op.complete(TestHandler.success(op));
        }
    }
}
