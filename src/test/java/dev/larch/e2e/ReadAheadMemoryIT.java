package dev.larch.e2e;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Read-ahead memory before a bind (issue 29), against a real server process with the default 256 MiB
 * heap: anonymous connections that park persistent searches, then pipeline searches of nearly the
 * anonymous PDU limit and never read an answer. The server stops reading them once they hold their
 * byte limit ({@code listen.max-pending-size-anonymous}, and {@code listen.max-pending-size-total} for
 * all of them) instead of decoding 120 large requests each; a {@link WellBehavedClient} is served
 * throughout and the server never runs out of heap.
 */
class ReadAheadMemoryIT {
    static final GeneratedTree TREE = new GeneratedTree(500, 5);
    static final List<String> CONFIG = List.of("logging.access-log = false");

    /** Persistent searches: as many as run at once on one connection, so the rest wait behind them. */
    static final int PERSISTENT = 8;

    static final int LARGE = 120;
    /** Just under the default anonymous PDU limit (256 KiB). */
    static final int LARGE_VALUE_BYTES = 255_000;

    static final Duration HOLD = Duration.ofSeconds(15);

    @TempDir
    static Path dir;

    static AbuseServer server;
    static AbuseChecks checks;

    @BeforeAll
    static void serve() throws Exception {
        server = AbuseServer.start(dir, TREE, CONFIG);
        checks = new AbuseChecks(server, TREE);
        checks.warmUp();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anonymousConnectionsPipeliningLargeSearchesBehindPersistentOnesAreStoppedNotBuffered() throws Exception {
        int connections = 8;
        try {
            attackAndMeasure(connections);
        } catch (AssertionError e) {
            String output = server.process().output();
            throw new AssertionError(
                    e.getMessage() + (output.contains("OutOfMemoryError") ? "\nthe server ran out of heap" : "")
                            + "\n--- server output (end)\n"
                            + output.substring(Math.max(0, output.length() - 4000)),
                    e);
        }
    }

    private static void attackAndMeasure(int connections) throws Exception {
        checks.measure("read-ahead: 8 persistent + 120 searches of 255 KB, not read, x" + connections, () -> {
            List<Socket> sockets = new ArrayList<>();
            List<Thread> writers = new ArrayList<>();
            AtomicInteger written = new AtomicInteger();
            try {
                for (int c = 0; c < connections; c++) {
                    Socket socket = new Socket();
                    socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
                    sockets.add(socket);
                    writers.add(
                            Thread.ofPlatform().daemon().name("read-ahead-" + c).start(() -> attack(socket, written)));
                }
                Thread.sleep(HOLD.toMillis());
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
                for (Thread writer : writers) {
                    writer.join(Duration.ofSeconds(10));
                }
            }
            assertFalse(
                    server.process().output().contains("OutOfMemoryError"),
                    "the server ran out of heap\n" + server.process().output());
            assertTrue(
                    server.process().isAlive(),
                    "the server died\n" + server.process().output());
            return String.format(
                    Locale.ROOT,
                    "%d of %d large searches written in %d s while nobody read",
                    written.get(),
                    LARGE * connections,
                    HOLD.toSeconds());
        });
    }

    /** Sends the persistent searches, then the large searches, reading nothing; stops when the socket closes. */
    private static void attack(Socket socket, AtomicInteger written) {
        try {
            // Not closed here: closing a socket's stream closes the socket.
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
            int id = 1;
            for (int i = 0; i < PERSISTENT; i++) {
                out.write(persistentSearch(id++));
            }
            out.flush();
            String value = "v".repeat(LARGE_VALUE_BYTES);
            for (int i = 0; i < LARGE; i++) {
                out.write(search(id++, Filter.createEqualityFilter("description", value)));
                out.flush();
                written.incrementAndGet();
            }
        } catch (IOException e) {
            // The test closed the socket while the server was not reading it: the expected end.
        }
    }

    private static byte[] persistentSearch(int id) {
        SearchRequestProtocolOp op = new SearchRequestProtocolOp(
                TestData.SUFFIX,
                SearchScope.SUB,
                DereferencePolicy.NEVER,
                0,
                0,
                false,
                Filter.createPresenceFilter("objectClass"),
                List.of("1.1"));
        return new LDAPMessage(
                        id,
                        op,
                        new PersistentSearchRequestControl(PersistentSearchChangeType.allChangeTypes(), true, true))
                .encode()
                .encode();
    }

    private static byte[] search(int id, Filter filter) {
        SearchRequestProtocolOp op = new SearchRequestProtocolOp(
                TestData.SUFFIX, SearchScope.BASE, DereferencePolicy.NEVER, 0, 0, false, filter, List.of("1.1"));
        return new LDAPMessage(id, op).encode().encode();
    }
}
