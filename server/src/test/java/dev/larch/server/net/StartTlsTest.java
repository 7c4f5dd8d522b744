package dev.larch.server.net;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.tls.Certificates;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** StartTLS through the dispatcher on an {@link EmbeddedChannel}: what it answers and when it adds TLS. */
class StartTlsTest {

    /** Operations handed to the request handler, which leaves them running. */
    private final List<Operation> handled = new ArrayList<>();
    /** Final responses, as the dispatcher reports them ended. */
    private final List<ResultResponse> ended = new ArrayList<>();

    private EmbeddedChannel channel;

    @AfterEach
    void close() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    private EmbeddedChannel channel(TlsOptions tls) {
        RequestHandler handler = new RequestHandler() {
            @Override
            public void handle(Operation operation) {
                handled.add(operation);
            }

            @Override
            public void ended(Operation operation, ResultResponse response) {
                ended.add(response);
            }
        };
        channel = new EmbeddedChannel(
                new LdapMessageEncoder(LdapApiServiceFactory.getSingleton()),
                new LdapDispatcher(handler, new InFlightOperations(), null, null, 100, tls));
        return channel;
    }

    private static TlsOptions tls() throws Exception {
        Certificates.Issued server = Certificates.selfSignedServer("localhost", Duration.ofDays(1));
        return new TlsOptions(
                SslContextBuilder.forServer(server.keys().getPrivate(), server.certificate())
                        .sslProvider(SslProvider.JDK)
                        .build(),
                10_000,
                0);
    }

    private static OpaqueExtendedRequest startTls(int id) {
        OpaqueExtendedRequest request = new OpaqueExtendedRequest(StartTls.OID);
        request.setMessageId(id);
        return request;
    }

    private static SearchRequestImpl search(int id) {
        SearchRequestImpl search = new SearchRequestImpl();
        search.setMessageId(id);
        search.setBase(Dn.EMPTY_DN);
        return search;
    }

    private ExtendedResponse onlyResponse() {
        assertEquals(1, ended.size(), ended.toString());
        ExtendedResponse response = assertInstanceOf(ExtendedResponse.class, ended.get(0));
        assertEquals(StartTls.OID, response.getResponseName());
        return response;
    }

    @Test
    void withoutACertificateStartTlsIsUnavailableAndNamesTheSetting() {
        channel(TlsOptions.NONE).writeInbound(startTls(1));
        ExtendedResponse response = onlyResponse();
        assertEquals(ResultCodeEnum.UNAVAILABLE, response.getLdapResult().getResultCode());
        assertTrue(response.getLdapResult().getDiagnosticMessage().contains("tls.certificate"));
        assertNull(channel.pipeline().get(SslHandler.class));
        assertTrue(handled.isEmpty(), "StartTLS never reaches the request handler");
    }

    @Test
    void startTlsPutsTlsAtThePipelineHeadAndAnswersSuccess() throws Exception {
        channel(tls()).writeInbound(startTls(1));
        assertEquals(ResultCodeEnum.SUCCESS, onlyResponse().getLdapResult().getResultCode());
        assertSame(channel.pipeline().first(), channel.pipeline().get(SslHandler.class));
        Object clear = channel.readOutbound();
        assertNotNull(clear, "the response went out in clear, before any TLS record");
        ReferenceCountUtil.release(clear);
    }

    @Test
    void startTlsWithAnOperationOutstandingIsOperationsErrorAndKeepsTheConnectionClear() throws Exception {
        channel(tls()).writeInbound(search(1), startTls(2));
        assertEquals(1, handled.size(), "the search is still running");
        ExtendedResponse response = onlyResponse();
        assertEquals(ResultCodeEnum.OPERATIONS_ERROR, response.getLdapResult().getResultCode());
        assertTrue(response.getLdapResult().getDiagnosticMessage().contains("1 other operation(s) outstanding"));
        assertNull(channel.pipeline().get(SslHandler.class));
    }

    @Test
    void aRequestArrivingBeforeTheHandshakeCompletesIsNeverHandledAndClosesTheConnection() throws Exception {
        channel(tls()).writeInbound(startTls(1));
        channel.releaseOutbound();
        channel.pipeline().fireChannelRead(search(2));
        assertTrue(handled.isEmpty(), "the search never reached the request handler");
        assertTrue(!channel.isOpen(), "closed");
    }

    @Test
    void aBindHeldBehindAStartTlsWhileReadingWasPausedIsNeverHandledAndClosesTheConnection() {
        RequestHandler handler = handled::add;
        ListenerOptions options =
                new ListenerOptions("127.0.0.1", 0, 1, 1 << 20, 0, 100).withRequestLimits(64 * 1024, 2);
        channel = new EmbeddedChannel(LdapChannelInitializer.standalone(options, handler));
        byte[] startTls = Fixtures.message(3, Fixtures.tlv(0x77, Fixtures.tlv(0x80, StartTls.OID.getBytes(US_ASCII))));
        // Two searches left running reach the pending-operation limit: what follows is set aside, whole.
        channel.writeInbound(Unpooled.wrappedBuffer(Fixtures.concat(
                Fixtures.baseSearch(1, "ou=held", Fixtures.objectClassPresent()),
                Fixtures.baseSearch(2, "ou=held", Fixtures.objectClassPresent()),
                startTls,
                Fixtures.simpleBind(4, "cn=admin,dc=example,dc=com", "secret"))));
        assertEquals(2, handled.size());
        Operation first = handled.get(0);
        first.complete(TestHandler.success(first));
        channel.runPendingTasks();
        assertEquals(2, handled.size(), "the bind set aside behind the StartTLS request never reached the handler");
        assertTrue(!channel.isOpen(), "closed");
        assertNull(channel.pipeline().get(SslHandler.class), "TLS never started");
    }

    @Test
    void aSecondStartTlsIsOperationsError() throws Exception {
        channel(tls()).writeInbound(startTls(1));
        channel.releaseOutbound();
        channel.pipeline().fireUserEventTriggered(SslHandshakeCompletionEvent.SUCCESS);
        // The client's next bytes would be TLS records; a StartTLS decoded now stands for one sent inside TLS.
        channel.pipeline().fireChannelRead(startTls(2));
        assertEquals(2, ended.size());
        ResultResponse second = ended.get(1);
        assertEquals(ResultCodeEnum.OPERATIONS_ERROR, second.getLdapResult().getResultCode());
        assertTrue(second.getLdapResult().getDiagnosticMessage().contains("already"));
    }
}
