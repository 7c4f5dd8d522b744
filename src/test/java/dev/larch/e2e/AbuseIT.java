package dev.larch.e2e;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.CompareRequestProtocolOp;
import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ProtocolOp;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile and careless clients against a real server process (issue 8): each test runs one abuse
 * while a {@link WellBehavedClient} keeps reading entries, then checks that every one of its answers
 * was right and came within {@link AbuseChecks#LATENCY_BOUND}, and that the server's memory, read
 * from its own JVM, stayed within the bounds of {@link AbuseChecks}. The figures go to
 * {@link AbuseReport}.
 *
 * <p>Subtree searches sent by the thousand and never read are in {@link PausedSearchesIT}.
 *
 * <p>The server runs with low connection limits and a short idle timeout ({@link #CONFIG}) so that
 * those limits can be reached quickly.
 */
class AbuseIT {
    static final GeneratedTree TREE = new GeneratedTree(3000, 10);
    static final int IDLE_TIMEOUT_SECONDS = 5;
    static final int MAX_CONNECTIONS = 48;
    static final int MAX_CONNECTIONS_PER_ADDRESS = 24;
    static final List<String> CONFIG = List.of(
            "listen.idle-timeout-seconds = " + IDLE_TIMEOUT_SECONDS,
            "listen.max-connections = " + MAX_CONNECTIONS,
            "listen.max-connections-per-address = " + MAX_CONNECTIONS_PER_ADDRESS,
            // 100,000 pipelined requests would write 100,000 access-log lines into this test JVM.
            "logging.access-log = false");
    /** How long each abuse is held while the well-behaved client measures. */
    static final Duration HOLD = Duration.ofSeconds(2);

    static final int OR_TERMS = 100_000;
    /** What a search over a limit may be answered; success if it fits in them all. */
    static final Set<ResultCode> LIMIT_ANSWERS = Set.of(
            ResultCode.SUCCESS,
            ResultCode.SIZE_LIMIT_EXCEEDED,
            ResultCode.TIME_LIMIT_EXCEEDED,
            ResultCode.ADMIN_LIMIT_EXCEEDED,
            ResultCode.UNWILLING_TO_PERFORM,
            ResultCode.PROTOCOL_ERROR);

    static final String NOTICE_OF_DISCONNECTION = "1.3.6.1.4.1.1466.20036";

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

    /** A socket to the server from the loopback address {@code 127.0.0.<lastByte>}. */
    static Socket connectFrom(int lastByte) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) lastByte}), 0));
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 10_000);
        return socket;
    }

    static byte[] encode(int messageId, ProtocolOp op) {
        return new LDAPMessage(messageId, op).encode().encode();
    }

    static byte[] anonymousBind(int messageId) {
        return encode(messageId, new BindRequestProtocolOp("", ""));
    }

    /** Reads one LDAP message, or null at end of stream. */
    static LDAPMessage readMessage(InputStream in) throws LDAPException {
        return LDAPMessage.readFrom(new ASN1StreamReader(in), true);
    }

    static void assertNoticeOfDisconnection(LDAPMessage message, ResultCode code, String naming) {
        assertEquals(0, message.getMessageID(), message.toString());
        assertEquals(LDAPMessage.PROTOCOL_OP_TYPE_EXTENDED_RESPONSE, message.getProtocolOpType(), message.toString());
        ExtendedResponseProtocolOp notice = message.getExtendedResponseProtocolOp();
        assertEquals(NOTICE_OF_DISCONNECTION, notice.getResponseOID(), message.toString());
        assertEquals(code.intValue(), notice.getResultCode(), message.toString());
        assertTrue(notice.getDiagnosticMessage().contains(naming), message.toString());
    }

    @Test
    void aClientPipeliningAHundredThousandRequestsWithoutReadingIsSlowedDownAndStillAnsweredInFull() throws Exception {
        int requests = 100_000;
        checks.measure("(a) 100,000 pipelined requests, not read", () -> {
            try (Socket socket = connectFrom(2)) {
                AtomicInteger written = new AtomicInteger();
                Thread writer = Thread.ofPlatform().daemon().name("pipeliner").start(() -> {
                    try {
                        // Not closed here: closing a socket's stream closes the socket.
                        OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
                        for (int id = 1; id <= requests; id++) {
                            out.write(cheapRequest(id));
                            written.incrementAndGet();
                        }
                        out.flush();
                    } catch (IOException e) {
                        // Reported below through the count of requests written.
                    }
                });
                Thread.sleep(HOLD.toMillis());
                // What fits in the socket buffers of both ends may all be written; the server
                // reads more only as fast as it can answer, which it cannot while nobody reads.
                int writtenWhileNotReading = written.get();
                // Now the client reads: every request gets its answer, in order, none refused.
                socket.setSoTimeout(30_000);
                InputStream in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
                ASN1StreamReader reader = new ASN1StreamReader(in);
                int answered = 0;
                for (int id = 1; id <= requests; id++) {
                    LDAPMessage response = LDAPMessage.readFrom(reader, true);
                    if (response == null) {
                        throw new AssertionError("the server closed the connection after " + answered + " answers");
                    }
                    if (response.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY) {
                        response = LDAPMessage.readFrom(reader, true);
                    }
                    assertEquals(id, response.getMessageID(), response.toString());
                    assertEquals(ResultCode.SUCCESS_INT_VALUE, resultCode(response), response.toString());
                    answered++;
                }
                writer.join(Duration.ofSeconds(30));
                return String.format(
                        Locale.ROOT,
                        "%d of %d requests written while the client did not read; all %d answered once it read",
                        writtenWhileNotReading,
                        requests,
                        answered);
            }
        });
    }

    /** Cycles through a root DSE base search, a compare (false: no sn is "x") and an anonymous bind. */
    private static byte[] cheapRequest(int id) {
        return switch (id % 3) {
            case 0 ->
                encode(
                        id,
                        new SearchRequestProtocolOp(
                                "",
                                SearchScope.BASE,
                                DereferencePolicy.NEVER,
                                0,
                                0,
                                false,
                                Filter.createPresenceFilter("objectClass"),
                                List.of("namingContexts")));
            case 1 ->
                encode(
                        id,
                        new CompareRequestProtocolOp(
                                TREE.personDn(id % TREE.people()), "sn", new ASN1OctetString("x")));
            default -> anonymousBind(id);
        };
    }

    /** The result code of a response, with compareFalse (the compares above) counted as success. */
    private static int resultCode(LDAPMessage response) {
        return switch (response.getProtocolOpType()) {
            case LDAPMessage.PROTOCOL_OP_TYPE_COMPARE_RESPONSE -> {
                int code = response.getCompareResponseProtocolOp().getResultCode();
                yield code == ResultCode.COMPARE_FALSE_INT_VALUE ? ResultCode.SUCCESS_INT_VALUE : code;
            }
            case LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE ->
                response.getBindResponseProtocolOp().getResultCode();
            case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE ->
                response.getSearchResultDoneProtocolOp().getResultCode();
            default -> throw new AssertionError("unexpected response " + response);
        };
    }

    @Test
    void anonymousBindsWithOneMebibyteDnsAreRefusedBeforeTheirBodyIsRead() throws Exception {
        int attempts = 20;
        checks.measure("(c) anonymous binds with 1 MiB DNs", () -> {
            int notices = 0;
            int resets = 0;
            for (int i = 0; i < attempts; i++) {
                try (Socket socket = connectFrom(3)) {
                    socket.setSoTimeout(15_000);
                    byte[] bind = encode(1, new BindRequestProtocolOp(hugeDn(i), "secret"));
                    Thread writer = Thread.ofPlatform().daemon().start(() -> {
                        try {
                            socket.getOutputStream().write(bind);
                        } catch (IOException e) {
                            // The server closes before the 1 MiB is sent: expected.
                        }
                    });
                    LDAPMessage answer;
                    try {
                        answer = readMessage(socket.getInputStream());
                    } catch (LDAPException e) {
                        // A reset may overtake the notice when our unread bytes were still in its buffer.
                        assertTrue(causedByReset(e), () -> "neither a notice nor a reset: " + e);
                        answer = null;
                        resets++;
                    }
                    if (answer != null) {
                        assertNoticeOfDisconnection(answer, ResultCode.PROTOCOL_ERROR, "");
                        notices++;
                        assertClosed(socket);
                    }
                    writer.join(Duration.ofSeconds(15));
                }
            }
            assertTrue(notices > 0, "no Notice of Disconnection seen in " + attempts + " attempts");
            return String.format(
                    Locale.ROOT,
                    "%d Notices of Disconnection (protocolError) and %d resets in %d attempts",
                    notices,
                    resets,
                    attempts);
        });
    }

    @Test
    void authenticatedBindsWithOneMebibyteDnsAreAnswered() throws Exception {
        // A client address failing more than 10 binds is slowed down (security.bind-failure-delay-ms).
        int attempts = 10;
        checks.measure("(c) authenticated binds with 1 MiB DNs", () -> {
            // Bound as the administrator the limit is listen.max-pdu-size: the bind is read and answered.
            for (int i = 0; i < attempts; i++) {
                try (LDAPConnection c =
                        new LDAPConnection("127.0.0.1", server.port(), TestData.ADMIN_DN, AbuseServer.ADMIN_PASSWORD)) {
                    // A different DN each time: none may stay in a cache.
                    String dn = hugeDn(1000 + i);
                    LDAPException e = assertThrows(LDAPException.class, () -> c.bind(dn, "secret"));
                    assertEquals(ResultCode.INVALID_CREDENTIALS, e.getResultCode(), e.getMessage());
                }
            }
            return attempts + " binds to 1 MiB DNs, each on a connection bound as the administrator, answered"
                    + " invalidCredentials";
        });
    }

    private static boolean causedByReset(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketException) {
                return true;
            }
        }
        return false;
    }

    /** A syntactically valid DN of a little over 1 MiB, distinct for each {@code i}. */
    private static String hugeDn(int i) {
        return "cn=" + i + "x".repeat(1024 * 1024) + ",ou=people," + TestData.SUFFIX;
    }

    @Test
    void aFilterOfAHundredThousandTermsIsAnsweredWithoutStallingOthers() throws Exception {
        checks.measure("(d) a 100,000-term OR filter", () -> {
            List<Filter> terms = new ArrayList<>(OR_TERMS);
            for (int i = 0; i < OR_TERMS; i++) {
                // Prefix terms: "First1*" alone matches over a thousand people.
                terms.add(Filter.createSubstringFilter("cn", "First" + i, null, null));
            }
            LDAPConnectionOptions options = new LDAPConnectionOptions();
            options.setResponseTimeoutMillis(120_000);
            // Bound: an anonymous client may not send a PDU this large (about 2 MB).
            try (LDAPConnection c = new LDAPConnection(
                    options, "127.0.0.1", server.port(), TestData.ADMIN_DN, AbuseServer.ADMIN_PASSWORD)) {
                long start = System.nanoTime();
                SearchResult result;
                try {
                    result = c.search(
                            new SearchRequest(TestData.SUFFIX, SearchScope.SUB, Filter.createORFilter(terms), "1.1"));
                } catch (LDAPSearchException e) {
                    result = e.getSearchResult();
                }
                long ms = (System.nanoTime() - start) / 1_000_000;
                assertTrue(LIMIT_ANSWERS.contains(result.getResultCode()), result.toString());
                if (!result.getResultCode().equals(ResultCode.SUCCESS)) {
                    assertFalse(
                            result.getDiagnosticMessage() == null
                                    || result.getDiagnosticMessage().isEmpty(),
                            "a limit answer must say which limit: " + result);
                }
                return String.format(
                        Locale.ROOT,
                        "answered %s (%s) with %d entries after %d ms",
                        result.getResultCode(),
                        result.getDiagnosticMessage(),
                        result.getEntryCount(),
                        ms);
            }
        });
    }

    @Test
    void connectionsBeyondTheLimitsGetANoticeOfDisconnectionAndAreCounted() throws Exception {
        checks.measure("(e) connections beyond the limits", () -> {
            List<Socket> open = new ArrayList<>();
            int admitted = 0;
            int refusedPerAddress = 0;
            int refusedTotal = 0;
            try {
                // One address: the per-address limit.
                for (int i = 0; i < MAX_CONNECTIONS_PER_ADDRESS + 4; i++) {
                    Socket socket = connectFrom(4);
                    if (admitted(socket, "listen.max-connections-per-address")) {
                        open.add(socket);
                        admitted++;
                    } else {
                        refusedPerAddress++;
                    }
                }
                assertEquals(MAX_CONNECTIONS_PER_ADDRESS, admitted);
                assertEquals(4, refusedPerAddress);
                // Further addresses until the global limit refuses (the well-behaved client holds one).
                for (int address = 5; refusedTotal < 4 && address < 10; address++) {
                    for (int i = 0; i < MAX_CONNECTIONS_PER_ADDRESS && refusedTotal < 4; i++) {
                        Socket socket = connectFrom(address);
                        if (admitted(socket, "listen.max-connections")) {
                            open.add(socket);
                            admitted++;
                        } else {
                            refusedTotal++;
                        }
                    }
                }
                assertEquals(4, refusedTotal, "the global limit never refused");
                assertTrue(admitted < MAX_CONNECTIONS, admitted + " admitted with the well-behaved client's");
            } finally {
                for (Socket socket : open) {
                    socket.close();
                }
            }
            List<String> counted = server.process().stdoutLines().stream()
                    .filter(line -> line.contains("refused ") && line.contains(" connection(s)"))
                    .toList();
            assertTrue(
                    !counted.isEmpty(), "no refusal logged\n" + server.process().output());
            return String.format(
                    Locale.ROOT,
                    "%d admitted, %d refused per address, %d refused in total; logged: %s",
                    admitted,
                    refusedPerAddress,
                    refusedTotal,
                    counted.get(0).replaceFirst("^.* - ", ""));
        });
        // Closed connections free their places.
        try (Socket socket = connectFrom(4)) {
            assertTrue(admitted(socket, "listen.max-connections-per-address"), "no place freed");
        }
    }

    /**
     * Binds anonymously on {@code socket}: true when answered, false (and the socket closed) when it
     * got a Notice of Disconnection (busy) whose message names {@code limit}.
     */
    private static boolean admitted(Socket socket, String limit) throws IOException, LDAPException {
        socket.setSoTimeout(15_000);
        socket.getOutputStream().write(anonymousBind(1));
        LDAPMessage answer = readMessage(socket.getInputStream());
        if (answer.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE) {
            assertEquals(
                    ResultCode.SUCCESS_INT_VALUE,
                    answer.getBindResponseProtocolOp().getResultCode());
            return true;
        }
        assertNoticeOfDisconnection(answer, ResultCode.BUSY, "(" + limit + ")");
        assertClosed(socket);
        socket.close();
        return false;
    }

    @Test
    void anIdleConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        checks.measure("(f) an idle connection", () -> {
            try (Socket socket = connectFrom(6)) {
                socket.setSoTimeout((IDLE_TIMEOUT_SECONDS + 15) * 1000);
                socket.getOutputStream().write(anonymousBind(1));
                assertEquals(1, readMessage(socket.getInputStream()).getMessageID());
                long start = System.nanoTime();
                Duration open = readUntilClosed(socket);
                assertTrue(
                        open.compareTo(Duration.ofSeconds(IDLE_TIMEOUT_SECONDS - 1)) >= 0,
                        "closed after " + open + ", before the idle timeout of " + IDLE_TIMEOUT_SECONDS + " s");
                return "closed " + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms after its last answer"
                        + " (idle timeout " + IDLE_TIMEOUT_SECONDS + " s)";
            }
        });
    }

    @Test
    void halfSentPdusHeldOpenBlockNobodyAndAreClosedAtTheIdleTimeout() throws Exception {
        int held = 10;
        checks.measure("(g) half-sent PDUs held open", () -> {
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < held; i++) {
                    Socket socket = connectFrom(7);
                    socket.setSoTimeout((IDLE_TIMEOUT_SECONDS + 15) * 1000);
                    // The first 6 of the 14 bytes of an anonymous bind; the rest never comes.
                    socket.getOutputStream().write(anonymousBind(1), 0, 6);
                    sockets.add(socket);
                }
                long worstMs = 0;
                for (Socket socket : sockets) {
                    worstMs = Math.max(worstMs, readUntilClosed(socket).toMillis());
                }
                return held + " connections each holding 6 bytes of a 14-byte bind, all closed by the server within "
                        + worstMs + " ms (idle timeout " + IDLE_TIMEOUT_SECONDS + " s)";
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
        });
    }

    /** Fails unless the server closed the connection (end of stream or a reset) with nothing more sent. */
    private static void assertClosed(Socket socket) {
        try {
            assertEquals(-1, socket.getInputStream().read(), "the connection stays open");
        } catch (SocketException e) {
            // A reset: closed as well.
        } catch (IOException e) {
            throw new AssertionError("the connection stays open", e);
        }
    }

    /** Reads (and drops) until the server closes; fails if it does not within the socket's timeout. */
    private static Duration readUntilClosed(Socket socket) throws IOException {
        long start = System.nanoTime();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            InputStream in = socket.getInputStream();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                received.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open; received "
                    + new String(received.toByteArray(), StandardCharsets.ISO_8859_1));
        } catch (SocketException e) {
            // A reset closes it too.
        }
        try {
            // Whatever came before the close must be LDAP (a Notice of Disconnection at most).
            ASN1StreamReader reader = new ASN1StreamReader(new ByteArrayInputStream(received.toByteArray()));
            for (LDAPMessage m = LDAPMessage.readFrom(reader, true);
                    m != null;
                    m = LDAPMessage.readFrom(reader, true)) {
                assertEquals(0, m.getMessageID(), m.toString());
            }
        } catch (LDAPException e) {
            throw new AssertionError("not LDAP before the close", e);
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
