package dev.larch.server.net;

import java.io.IOException;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.BindResponse;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The anonymous PDU limit of a real listener: small before a bind, large after, small again after an anonymous bind. */
class AnonymousPduLimitIT {

    private static final int MAX_PDU = 1 << 20;
    private static final int MAX_PDU_ANONYMOUS = 16 * 1024;
    private static final String NOTICE =
            "PDU exceeds the maximum size of " + MAX_PDU_ANONYMOUS + " bytes before a successful bind";

    private static ListenerOptions options() {
        return new ListenerOptions("127.0.0.1", 0, 1, MAX_PDU, 0, 100).withRequestLimits(MAX_PDU_ANONYMOUS, 16);
    }

    /** A search of 64 KiB: over the anonymous limit, well within the other. */
    private static byte[] largeSearch(int id) {
        return Fixtures.baseSearch(id, "dc=example,dc=com", Fixtures.equality("description", "v".repeat(64 * 1024)));
    }

    private static void assertNotice(RawClient client) throws IOException {
        ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, client.read());
        assertEquals(ProtocolResponses.NOTICE_OF_DISCONNECTION_OID, notice.getResponseName());
        assertEquals(ResultCodeEnum.PROTOCOL_ERROR, notice.getLdapResult().getResultCode());
        assertEquals(NOTICE, notice.getLdapResult().getDiagnosticMessage());
        RawClient.assertEof(client);
    }

    private static void assertAnswered(RawClient client, int id) throws IOException {
        assertInstanceOf(SearchResultEntry.class, client.read());
        assertInstanceOf(SearchResultEntry.class, client.read());
        SearchResultDone done = assertInstanceOf(SearchResultDone.class, client.read());
        assertEquals(id, done.getMessageId());
        assertEquals(ResultCodeEnum.SUCCESS, done.getLdapResult().getResultCode());
    }

    private static void bind(RawClient client, int id, String dn) throws IOException {
        client.send(Fixtures.simpleBind(id, dn, dn.isEmpty() ? "" : "secret"));
        BindResponse response = assertInstanceOf(BindResponse.class, client.read());
        assertEquals(ResultCodeEnum.SUCCESS, response.getLdapResult().getResultCode());
    }

    @Test
    void anAnonymousClientSendingALargePduIsDisconnected() throws Exception {
        try (LdapListener listener = LdapListener.start(options(), new BindingHandler());
                RawClient client = new RawClient(listener.address())) {
            client.send(largeSearch(1));
            assertNotice(client);
        }
    }

    @Test
    void aBoundClientMaySendLargePdusUntilItBindsAnonymouslyAgain() throws Exception {
        try (LdapListener listener = LdapListener.start(options(), new BindingHandler());
                RawClient client = new RawClient(listener.address())) {
            bind(client, 1, "cn=someone,dc=example,dc=com");
            client.send(largeSearch(2));
            assertAnswered(client, 2);
            bind(client, 3, "");
            client.send(largeSearch(4));
            assertNotice(client);
        }
    }

    /** {@link TestHandler}, plus binds that record the bound DN in the session as the real bind handler does. */
    private static final class BindingHandler implements RequestHandler {
        private final TestHandler searches = new TestHandler();

        @Override
        public void handle(Operation op) {
            if (op.request() instanceof BindRequest bind) {
                try {
                    op.session().bound(new Dn(bind.getName()), false);
                } catch (LdapInvalidDnException e) {
                    throw new IllegalArgumentException(e);
                }
                op.complete(TestHandler.success(op));
                return;
            }
            searches.handle(op);
        }
    }
}
