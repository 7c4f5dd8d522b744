package dev.larch.e2e;

import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of subtree searches that are sent and never read, spread over connections, against a
 * real server process with its default limits; {@link AbuseChecks} around it, as in {@link AbuseIT}.
 */
class PausedSearchesIT {
    static final GeneratedTree TREE = new GeneratedTree(3000, 10);
    static final List<String> CONFIG = List.of("logging.access-log = false");
    static final int PAUSED_SEARCHES = 2000;
    /** listen.max-pending-operations is 128: beyond that a connection is not read at all. */
    static final int SEARCHES_PER_CONNECTION = 125;

    @TempDir
    static Path dir;

    static AbuseServer server;
    static AbuseChecks checks;

    @BeforeAll
    static void serveTheGeneratedTree() throws Exception {
        server = AbuseServer.start(dir, TREE, CONFIG);
        checks = new AbuseChecks(server, TREE);
        checks.warmUp();
    }

    @AfterAll
    static void stopTheServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void twoThousandPausedSubtreeSearchesHoldNobodyHostage() throws Exception {
        checks.measure("(b) 2,000 paused subtree searches", () -> {
            List<Socket> sockets = new ArrayList<>();
            try {
                int id = 0;
                for (int sent = 0; sent < PAUSED_SEARCHES; ) {
                    Socket socket = new Socket("127.0.0.1", server.port());
                    sockets.add(socket);
                    for (int i = 0; i < SEARCHES_PER_CONNECTION && sent < PAUSED_SEARCHES; i++, sent++) {
                        socket.getOutputStream().write(everyPerson(++id));
                    }
                }
                Thread.sleep(AbuseChecks.MIN_MEASURED.toMillis());
                return String.format(
                        Locale.ROOT,
                        "%d subtree searches (each up to the 500-entry size limit of %d people) on %d connections"
                                + " that never read",
                        PAUSED_SEARCHES,
                        TREE.people(),
                        sockets.size());
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
        });
    }

    private static byte[] everyPerson(int messageId) {
        return new LDAPMessage(
                        messageId,
                        new SearchRequestProtocolOp(
                                TestData.SUFFIX,
                                SearchScope.SUB,
                                DereferencePolicy.NEVER,
                                0,
                                0,
                                false,
                                Filter.createEqualityFilter("objectClass", "inetOrgPerson"),
                                List.of()))
                .encode()
                .encode();
    }
}
