package dev.larch.server.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchScope;
import io.netty.channel.epoll.Epoll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A listener with a socket per event loop, as a client and a second server see it. */
class ListeningSocketsIT {

    private static final int LOOPS = 3;

    private static ListenerOptions options(int port) {
        return new ListenerOptions("127.0.0.1", port, LOOPS, 256 * 1024, 0, 100);
    }

    @Test
    void everyConnectionIsServedWhicheverSocketTakesIt() throws Exception {
        try (TestHandler handler = new TestHandler();
                LdapListener listener = LdapListener.start(options(0), handler)) {
            for (int i = 0; i < 40; i++) {
                try (LDAPConnection c =
                        new LDAPConnection("127.0.0.1", listener.address().getPort())) {
                    assertEquals(
                            2,
                            c.search("dc=example,dc=com", SearchScope.SUB, "(objectClass=*)")
                                    .getEntryCount());
                }
            }
            assertEquals(0, listener.refusedConnections());
        }
    }

    @Test
    void aSecondServerCannotShareThePort() throws Exception {
        assumeTrue(Epoll.isAvailable(), "SO_REUSEPORT sockets only with native epoll");
        try (TestHandler handler = new TestHandler();
                LdapListener listener = LdapListener.start(options(0), handler)) {
            int port = listener.address().getPort();
            assertThrows(IOException.class, () -> LdapListener.start(options(port), handler));
            try (LDAPConnection c = new LDAPConnection("127.0.0.1", port)) {
                assertEquals(
                        2,
                        c.search("dc=example,dc=com", SearchScope.SUB, "(objectClass=*)")
                                .getEntryCount());
            }
        }
    }

    @Test
    void stopClosesEverySocketOfThePort() throws Exception {
        int port;
        try (TestHandler handler = new TestHandler()) {
            LdapListener listener = LdapListener.start(options(0), handler);
            port = listener.address().getPort();
            listener.stop(Duration.ofSeconds(1));
        }
        // A plain socket (no SO_REUSEPORT) binds only where no listening socket of the port is left.
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", port));
        }
    }
}
