package dev.larch.server.net;

import java.io.IOException;
import java.net.InetAddress;

import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Connection limits of a real listener, with clients on several loopback addresses. */
class ConnectionLimitsIT {

    private static final InetAddress FIRST = address("127.0.0.1");
    private static final InetAddress SECOND = address("127.0.0.2");
    private static final InetAddress THIRD = address("127.0.0.3");

    private static InetAddress address(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Searches once and expects the two entries and done of {@link TestHandler}. */
    private static void assertServed(RawClient client) throws IOException {
        client.send(Fixtures.baseSearch(1, "dc=example,dc=com", Fixtures.objectClassPresent()));
        client.read();
        client.read();
        SearchResultDone done = assertInstanceOf(SearchResultDone.class, client.read());
        assertEquals(ResultCodeEnum.SUCCESS, done.getLdapResult().getResultCode());
    }

    private static String assertRefused(RawClient client) throws IOException {
        ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, client.read());
        assertEquals(0, notice.getMessageId());
        assertEquals(ProtocolResponses.NOTICE_OF_DISCONNECTION_OID, notice.getResponseName());
        assertEquals(ResultCodeEnum.BUSY, notice.getLdapResult().getResultCode());
        RawClient.assertEof(client);
        return notice.getLdapResult().getDiagnosticMessage();
    }

    @Test
    void connectionsBeyondTheLimitsGetANoticeAndAreCounted() throws Exception {
        ListenerOptions options = new ListenerOptions("127.0.0.1", 0, 2, 1 << 20, 0, 100).withConnectionLimits(3, 2);
        try (TestHandler handler = new TestHandler();
                LdapListener listener = LdapListener.start(options, handler);
                RawClient a1 = new RawClient(listener.address(), FIRST);
                RawClient a2 = new RawClient(listener.address(), FIRST)) {
            assertServed(a1);
            assertServed(a2);
            try (RawClient a3 = new RawClient(listener.address(), FIRST)) {
                String message = assertRefused(a3);
                assertTrue(
                        message.contains("127.0.0.1") && message.contains("listen.max-connections-per-address"),
                        message);
            }
            assertEquals(1, listener.refusedConnections());

            try (RawClient b1 = new RawClient(listener.address(), SECOND)) {
                assertServed(b1);
                try (RawClient c1 = new RawClient(listener.address(), THIRD)) {
                    String message = assertRefused(c1);
                    assertTrue(message.contains("at most 3 (listen.max-connections)"), message);
                }
                assertEquals(2, listener.refusedConnections());
                assertEquals(3, listener.openConnections());
            }
            // A closed connection makes room again.
            Awaitility.await().until(() -> listener.openConnections() == 2);
            try (RawClient c2 = new RawClient(listener.address(), THIRD)) {
                assertServed(c2);
            }
            a1.send(Fixtures.UNBIND);
            Awaitility.await().until(() -> listener.openConnections() <= 1);
            try (RawClient a3 = new RawClient(listener.address(), FIRST)) {
                assertServed(a3);
            }
            assertEquals(2, listener.refusedConnections());
        }
    }

    @Test
    void aRefusedConnectionIsNotReadFrom() throws Exception {
        ListenerOptions options = new ListenerOptions("127.0.0.1", 0, 1, 1 << 20, 0, 100).withConnectionLimits(1, 0);
        try (TestHandler handler = new TestHandler();
                LdapListener listener = LdapListener.start(options, handler);
                RawClient first = new RawClient(listener.address())) {
            assertServed(first);
            try (RawClient second = new RawClient(listener.address())) {
                // What the refused client sends is never decoded nor handed to the request handler.
                second.send(Fixtures.baseSearch(1, "ou=refused", Fixtures.objectClassPresent()));
                assertRefused(second);
            }
            assertServed(first);
            assertFalse(handler.searchedBases.contains("ou=refused"));
        }
    }
}
