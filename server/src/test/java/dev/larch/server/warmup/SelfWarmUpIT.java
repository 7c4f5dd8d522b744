package dev.larch.server.warmup;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.accesslog.AccessLoggingHandler;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The self-warm-up on a real server: the port opens only after it, it changes no entry, and nothing
 * of it shows in the access log, the operation and index counters or the rate quotas.
 */
class SelfWarmUpIT {
    private static final Pattern LINE = Pattern.compile(
            "warm-up before listening: (\\d+) searches \\((\\d+) distinct, drawn from the store; (\\d+) answered,"
                    + " (\\d+) with an error, (\\d+) entries returned\\)");
    private static final int PEOPLE = 300;

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> warmUpLog = new ListAppender<>();
    private final ListAppender<ILoggingEvent> accessLog = new ListAppender<>();

    @BeforeEach
    void attach() {
        warmUpLog.start();
        ((Logger) LoggerFactory.getLogger(SelfWarmUp.class)).addAppender(warmUpLog);
        accessLog.start();
        ((Logger) LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME)).addAppender(accessLog);
    }

    @AfterEach
    void detach() {
        ((Logger) LoggerFactory.getLogger(SelfWarmUp.class)).detachAppender(warmUpLog);
        ((Logger) LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME)).detachAppender(accessLog);
    }

    @Test
    void portOpensOnlyAfterWarmUpWhichLeavesNoTrace() throws Exception {
        int port = freePort();
        LarchConfig config = TestServer.withAccessLog(TestServer.settings(dir.resolve("data")))
                .set("listen.port", port)
                // Five operations a second from one address: the warm-up's thousands would use it up.
                .set("limits.rate-per-address", 5)
                .set("server.warm-up-seconds", 2)
                .build();
        TestServer.importOffline(config, TestServer.BASE_LDIF + people(PEOPLE));
        Map<String, String> before = entries(config);

        CompletableFuture<TestServer> starting = CompletableFuture.supplyAsync(() -> TestServer.start(config));
        int refused = 0;
        long firstConnect = 0;
        int probePort = 0;
        while (firstConnect == 0) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                firstConnect = System.currentTimeMillis();
                probePort = s.getLocalPort();
            } catch (IOException e) {
                refused++;
                Thread.sleep(20);
            }
        }
        try (TestServer larch = starting.join()) {
            ILoggingEvent line = warmUpLine();
            Matcher m = LINE.matcher(line.getFormattedMessage());
            assertTrue(m.find(), line.getFormattedMessage());
            long sent = Long.parseLong(m.group(1));
            assertTrue(sent > 0, line.getFormattedMessage());
            assertEquals(sent, Long.parseLong(m.group(3)), "every search answered: " + line.getFormattedMessage());
            assertEquals(0, Long.parseLong(m.group(4)), "no search refused: " + line.getFormattedMessage());
            assertTrue(Long.parseLong(m.group(5)) > 0, line.getFormattedMessage());
            assertTrue(refused > 0, "the port was tried while the server warmed up");
            assertTrue(
                    firstConnect >= line.getTimeStamp(),
                    "the port opened " + (line.getTimeStamp() - firstConnect) + " ms before warm-up ended");

            // The socket probe above is the only connection so far: its open and close at most.
            String from = "from=127.0.0.1:" + probePort;
            List<String> probe = accessLines();
            String probeConn = probe.stream()
                    .filter(l -> l.contains(from))
                    .map(l -> l.substring(0, l.indexOf(' ')))
                    .findFirst()
                    .orElse("(no line)");
            assertTrue(
                    probe.stream().allMatch(l -> l.startsWith(probeConn + " ")),
                    "the access log holds none of the warm-up: " + probe);
            try (LDAPConnection client = larch.anonymous()) {
                for (int i = 0; i < 3; i++) {
                    SearchResult r = client.search(TestServer.SUFFIX, SearchScope.SUB, "(uid=user" + i + ")");
                    assertEquals(ResultCode.SUCCESS, r.getResultCode(), "the quota is untouched by the warm-up");
                    assertEquals(1, r.getEntryCount());
                }
            }
            try (LDAPConnection admin = larch.admin()) {
                assertEquals(3, counter(admin, "cn=uid equality,cn=Indexes,cn=Monitor"));
                // The three searches above and the monitor reads: none of the warm-up's thousands.
                long searches = counter(admin, "cn=Search,cn=Operations,cn=Monitor", "monitorOpInitiated");
                assertTrue(searches >= 3 && searches <= 6, "searches counted: " + searches);
                // The probe, the anonymous client and this one; none of the warm-up's connections.
                long connections = counter(admin, "cn=Total,cn=Connections,cn=Monitor");
                assertTrue(connections >= 2 && connections <= 3, "connections counted: " + connections);
            }
            List<String> lines = accessLines();
            assertTrue(
                    lines.stream().filter(l -> l.contains("SRCH")).count() <= 6,
                    "only the clients' searches are logged: " + lines);
        }
        assertEquals(before, entries(config), "the warm-up changed no entry");
    }

    /**
     * A restarted replica catches up while the request path is compiled, not after: its session reaches
     * the provider while the server's own port still refuses connections.
     */
    @Test
    void aReplicaReachesItsProviderWhileThePortIsStillClosedForTheWarmUp() throws Exception {
        int port = freePort();
        CompletableFuture<Boolean> portClosedAtContact = new CompletableFuture<>();
        try (ServerSocket provider = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread accept = new Thread(
                    () -> {
                        try (Socket replica = provider.accept()) {
                            boolean closed = !accepts(port);
                            replica.shutdownOutput(); // the replica retries later; this test needs one contact
                            portClosedAtContact.complete(closed);
                        } catch (IOException e) {
                            portClosedAtContact.completeExceptionally(e);
                        }
                    },
                    "provider-accept");
            accept.setDaemon(true);
            accept.start();
            LarchConfig config = TestServer.settings(dir.resolve("data"))
                    .set("listen.port", port)
                    .set("server.warm-up-seconds", 5)
                    .set("replication.server-id", 2)
                    .set("replication.consumer.1.provider-url", "ldap://127.0.0.1:" + provider.getLocalPort())
                    .set("replication.consumer.1.bind-dn", TestServer.ADMIN_DN)
                    .set("replication.consumer.1.bind-password", TestServer.ADMIN_PASSWORD)
                    .build();
            TestServer.importOffline(config, TestServer.BASE_LDIF + people(PEOPLE));
            try (TestServer larch = TestServer.start(config)) {
                assertTrue(
                        portClosedAtContact.get(30, TimeUnit.SECONDS),
                        "the replica reached its provider only once the port was open");
                assertTrue(LINE.matcher(warmUpLine().getFormattedMessage()).find(), "a warm-up ran");
                try (LDAPConnection client = larch.anonymous()) {
                    assertNotNull(client.getEntry(TestServer.SUFFIX), "serving once warm");
                }
            }
        }
    }

    /** Whether something accepts a connection on the loopback port now. */
    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void warmUpOffOpensAtOnce() throws Exception {
        LarchConfig config = TestServer.settings(dir.resolve("data"))
                .set("server.warm-up-seconds", 0)
                .build();
        TestServer.importOffline(config, TestServer.BASE_LDIF + people(20));
        try (TestServer larch = TestServer.start(config);
                LDAPConnection client = larch.anonymous()) {
            assertEquals(List.of(), warmUpLog.list, "no warm-up ran");
            assertEquals(
                    1,
                    client.search(TestServer.SUFFIX, SearchScope.SUB, "(uid=user3)")
                            .getEntryCount());
        }
    }

    @Test
    void storeWithOnlyTheSuffixEndsWarmUpEarly() throws Exception {
        LarchConfig config = TestServer.withSuffixCreation(TestServer.settings(dir.resolve("data")))
                .set("server.warm-up-seconds", 30)
                .build();
        long start = System.nanoTime();
        try (TestServer larch = TestServer.start(config);
                LDAPConnection client = larch.anonymous()) {
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            Matcher m = LINE.matcher(warmUpLine().getFormattedMessage());
            assertTrue(m.find(), warmUpLine().getFormattedMessage());
            // One base search of the suffix, sent at most MAX_PASSES times, well before the 30 s.
            assertEquals(1, Integer.parseInt(m.group(2)));
            assertTrue(Long.parseLong(m.group(1)) <= SelfWarmUp.MAX_PASSES, m.group());
            assertTrue(tookMillis < 20_000, "the start took " + tookMillis + " ms");
            assertNotNull(client.getEntry(TestServer.SUFFIX));
        }
    }

    @Test
    void emptyStoreSkipsWarmUp() throws Exception {
        LarchConfig config = TestServer.settings(dir.resolve("data"))
                .set("server.warm-up-seconds", 30)
                .build();
        try (TestServer larch = TestServer.start(config);
                LDAPConnection client = larch.anonymous()) {
            assertTrue(warmUpLine().getFormattedMessage().contains("holds no entry"));
            LDAPSearchException e = assertThrows(
                    LDAPSearchException.class,
                    () -> client.search(TestServer.SUFFIX, SearchScope.BASE, "(objectClass=*)"));
            assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        }
    }

    private ILoggingEvent warmUpLine() {
        synchronized (warmUpLog) {
            assertEquals(1, warmUpLog.list.size(), () -> "one warm-up line: " + warmUpLog.list);
            return warmUpLog.list.get(0);
        }
    }

    private List<String> accessLines() {
        synchronized (accessLog) {
            return accessLog.list.stream()
                    .map(ILoggingEvent::getFormattedMessage)
                    .toList();
        }
    }

    private static long counter(LDAPConnection c, String dn) throws Exception {
        return counter(c, dn, "monitorCounter");
    }

    private static long counter(LDAPConnection c, String dn, String attribute) throws Exception {
        SearchResultEntry e = c.getEntry(dn, attribute);
        assertTrue(e != null && e.hasAttribute(attribute), dn + " has no " + attribute);
        return Long.parseLong(e.getAttributeValue(attribute));
    }

    static String people(int n) {
        StringBuilder ldif = new StringBuilder();
        for (int i = 0; i < n; i++) {
            ldif.append("\ndn: uid=user")
                    .append(i)
                    .append(",ou=people,dc=example,dc=com\nobjectClass: inetOrgPerson\nuid: user")
                    .append(i)
                    .append("\ncn: Person ")
                    .append(i)
                    .append("\nsn: Surname")
                    .append(i % 17)
                    .append("\nmail: user")
                    .append(i)
                    .append("@example.com\n");
        }
        return ldif.toString();
    }

    /** Every entry, by DN, with its attributes and values, read offline. */
    private static Map<String, String> entries(LarchConfig config) throws Exception {
        TreeMap<String, String> out = new TreeMap<>();
        try (StoredDirectory open = StoredDirectory.open(config, LarchSchema.load(config.schemaFiles()), false);
                ReadTxn txn = open.store().read();
                IdCursor ids = txn.allEntries()) {
            for (long id = ids.next(); id != ReadTxn.NOT_FOUND; id = ids.next()) {
                StoredEntry e = open.directory().load(txn, id);
                List<String> attributes = new ArrayList<>();
                for (StoredAttribute a : e.attributes()) {
                    StringBuilder values = new StringBuilder(a.oid());
                    for (byte[] v : a.values()) {
                        values.append(' ').append(HexFormat.of().formatHex(v));
                    }
                    attributes.add(values.toString());
                }
                out.put(e.dn(), String.join("\n", attributes));
            }
        }
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
