package dev.larch.server.net;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.accesslog.AccessLoggingHandler;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real listener on an ephemeral port, driven by the UnboundID SDK and by raw sockets. */
class LdapListenerIT {

    private static final int MAX_PDU = 256 * 1024;
    private static final int MAX_DEPTH = 100;

    private static TestHandler handler;
    private static LdapListener listener;
    private static final ListAppender<ILoggingEvent> ACCESS = new ListAppender<>();

    @BeforeAll
    static void start() throws IOException {
        Logger access = (Logger) LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME);
        ACCESS.start();
        access.addAppender(ACCESS);
        handler = new TestHandler();
        listener = LdapListener.start(options(0), new AccessLoggingHandler(handler));
    }

    @AfterAll
    static void stop() {
        listener.stop(Duration.ofSeconds(1));
        handler.close();
        ((Logger) LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME)).detachAppender(ACCESS);
    }

    /** The access log so far; the appender adds lines from the event loop while a test reads them. */
    private static List<String> accessLines() {
        synchronized (ACCESS) {
            return ACCESS.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    private static ListenerOptions options(int idleTimeout) {
        return new ListenerOptions("127.0.0.1", 0, 2, MAX_PDU, idleTimeout, MAX_DEPTH);
    }

    private static LDAPConnection connect(LdapListener l) throws LDAPException {
        return new LDAPConnection("127.0.0.1", l.address().getPort());
    }

    private static void assertServesSecondConnection() throws LDAPException {
        try (LDAPConnection c = connect(listener)) {
            assertEquals(
                    2,
                    c.search("dc=example,dc=com", SearchScope.SUB, "(objectClass=*)")
                            .getEntryCount());
        }
    }

    private static ExtendedResponse assertNoticeOfDisconnection(RawClient raw, ResultCodeEnum code) throws IOException {
        ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, raw.read());
        assertEquals(0, notice.getMessageId());
        assertEquals(ProtocolResponses.NOTICE_OF_DISCONNECTION_OID, notice.getResponseName());
        assertEquals(code, notice.getLdapResult().getResultCode());
        RawClient.assertEof(raw);
        return notice;
    }

    @Test
    void searchReturnsEntriesThenDone() throws LDAPException {
        try (LDAPConnection c = connect(listener)) {
            SearchResult result = c.search("dc=example,dc=com", SearchScope.SUB, "(uid=jdoe)");
            assertEquals(ResultCode.SUCCESS, result.getResultCode());
            assertEquals(
                    List.of("cn=one,dc=example,dc=com", "cn=two,dc=example,dc=com"),
                    result.getSearchEntries().stream()
                            .map(SearchResultEntry::getDN)
                            .toList());
            assertEquals(
                    ResultCode.SUCCESS,
                    c.bind("cn=admin,dc=example,dc=com", "secret").getResultCode());
        }
    }

    @Test
    void outstandingRequestsAreAnsweredByTheirOwnMessageIds() throws Exception {
        try (LDAPConnection c = connect(listener)) {
            CompletableFuture<SearchResult> slow = new CompletableFuture<>();
            SearchRequest slowSearch =
                    new SearchRequest(new FutureListener(slow), "ou=later", SearchScope.BASE, "(objectClass=*)");
            AsyncRequestID slowId = c.asyncSearch(slowSearch);
            List<AsyncRequestID> modifies = new ArrayList<>();
            List<CompletableFuture<LDAPResult>> results = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                CompletableFuture<LDAPResult> done = new CompletableFuture<>();
                results.add(done);
                modifies.add(c.asyncModify(
                        new ModifyRequest(
                                "cn=m" + i + ",dc=example,dc=com",
                                new Modification(ModificationType.REPLACE, "description", "v" + i)),
                        (id, result) -> done.complete(result)));
            }
            for (int i = 0; i < 5; i++) {
                LDAPResult r = results.get(i).get(5, TimeUnit.SECONDS);
                assertEquals(modifies.get(i).getMessageID(), r.getMessageID());
                assertEquals(ResultCode.SUCCESS, r.getResultCode());
            }
            assertFalse(slow.isDone(), "the slow search was answered before the fast modifies");
            SearchResult slowResult = slow.get(5, TimeUnit.SECONDS);
            assertEquals(slowId.getMessageID(), slowResult.getMessageID());
            assertEquals(ResultCode.SUCCESS, slowResult.getResultCode());
        }
    }

    @Test
    void streamingSearchDeliversEveryEntryThroughBackPressure() throws Exception {
        try (LDAPConnection c = connect(listener)) {
            SearchResult result = c.search("ou=stream", SearchScope.ONE, "(objectClass=*)");
            assertEquals(ResultCode.SUCCESS, result.getResultCode());
            assertEquals(TestHandler.STREAMED, result.getEntryCount());
        }
    }

    @Test
    void abandonStopsAStreamingSearch() throws Exception {
        TestHandler own = new TestHandler();
        try (LdapListener l = LdapListener.start(options(0), own);
                LDAPConnection c = connect(l)) {
            CountDownLatch firstEntry = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger received = new AtomicInteger();
            AsyncSearchResultListener slowReader = new AsyncSearchResultListener() {
                @Override
                public void searchEntryReturned(SearchResultEntry entry) {
                    received.incrementAndGet();
                    firstEntry.countDown();
                    await(release); // stall the client's reader so the server's buffer fills
                }

                @Override
                public void searchReferenceReturned(SearchResultReference reference) {}

                @Override
                public void searchResultReceived(AsyncRequestID id, SearchResult result) {}
            };
            AsyncRequestID id =
                    c.asyncSearch(new SearchRequest(slowReader, "ou=stream", SearchScope.ONE, "(objectClass=*)"));
            // Generous bounds: the waits end as soon as the server gets there, and a loaded machine
            // (the whole suite on two cores) has taken more than 5 s.
            assertTrue(firstEntry.await(30, TimeUnit.SECONDS), "no first entry");
            c.abandon(id);
            assertTrue(own.streamStopped.await(30, TimeUnit.SECONDS), "producer not resumed after abandon");
            release.countDown();
            assertTrue(own.streamSawAbandon);
            assertTrue(own.streamPauses.get() > 0, "producer never paused for writability");
            assertTrue(
                    own.streamedEntries.get() < TestHandler.STREAMED,
                    "all entries were produced: " + own.streamedEntries.get());
            // The connection still serves requests after the abandon.
            assertEquals(
                    2,
                    c.search("dc=example,dc=com", SearchScope.SUB, "(objectClass=*)")
                            .getEntryCount());
        } finally {
            own.close();
        }
    }

    @Test
    void unbindClosesWithoutAResponse() throws IOException {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Fixtures.UNBIND);
            RawClient.assertEof(raw);
        }
    }

    @Test
    void handlerFailureIsOtherWithoutDetails() throws LDAPException {
        try (LDAPConnection c = connect(listener)) {
            LDAPException e =
                    assertThrows(LDAPException.class, () -> c.search("ou=boom", SearchScope.BASE, "(objectClass=*)"));
            assertEquals(ResultCode.OTHER, e.getResultCode());
            assertEquals("internal error", e.getDiagnosticMessage());
        }
    }

    @Test
    void malformedPduGetsNoticeOfDisconnection() throws Exception {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Fixtures.BAD_BER);
            ExtendedResponse notice = assertNoticeOfDisconnection(raw, ResultCodeEnum.PROTOCOL_ERROR);
            assertFalse(notice.getLdapResult().getDiagnosticMessage().contains("Exception"));
        }
        assertServesSecondConnection();
    }

    @Test
    void oversizedPduIsRefusedFromItsHeader() throws Exception {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Fixtures.HUGE_HEADER);
            ExtendedResponse notice = assertNoticeOfDisconnection(raw, ResultCodeEnum.PROTOCOL_ERROR);
            assertEquals(
                    "PDU exceeds the maximum size of " + MAX_PDU + " bytes",
                    notice.getLdapResult().getDiagnosticMessage());
        }
        assertServesSecondConnection();
    }

    @Test
    void indefiniteLengthGetsNoticeOfDisconnection() throws Exception {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Fixtures.INDEFINITE_LENGTH);
            assertNoticeOfDisconnection(raw, ResultCodeEnum.PROTOCOL_ERROR);
        }
        assertServesSecondConnection();
    }

    @Test
    void unknownOperationGetsNoticeOfDisconnection() throws Exception {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Fixtures.UNKNOWN_OPERATION);
            assertNoticeOfDisconnection(raw, ResultCodeEnum.PROTOCOL_ERROR);
        }
        assertServesSecondConnection();
    }

    @Test
    void responseSentByClientGetsNoticeOfDisconnection() throws Exception {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Fixtures.SEARCH_RESULT_ENTRY);
            assertNoticeOfDisconnection(raw, ResultCodeEnum.PROTOCOL_ERROR);
        }
        assertServesSecondConnection();
    }

    @Test
    void truncatedPduThenCloseLeavesTheServerServing() throws Exception {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Arrays.copyOf(Fixtures.SEARCH, 20));
        }
        assertServesSecondConnection();
    }

    @Test
    void filterTenThousandDeepIsProtocolErrorAndTheConnectionSurvives() throws Exception {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Fixtures.searchWithFilterDepth(9, 10_000));
            SearchResultDone done = assertInstanceOf(SearchResultDone.class, raw.read());
            assertEquals(9, done.getMessageId());
            assertEquals(ResultCodeEnum.PROTOCOL_ERROR, done.getLdapResult().getResultCode());
            assertEquals(
                    "filter nested deeper than " + MAX_DEPTH,
                    done.getLdapResult().getDiagnosticMessage());

            raw.send(Fixtures.SEARCH);
            assertEquals(2, raw.read().getMessageId());
            assertEquals(2, raw.read().getMessageId());
            assertInstanceOf(SearchResultDone.class, raw.read());
        }
        assertServesSecondConnection();
    }

    @Test
    void unparsableDnIsInvalidDnSyntaxAndTheConnectionSurvives() throws Exception {
        try (RawClient raw = new RawClient(listener.address())) {
            raw.send(Fixtures.SEARCH_BAD_DN);
            SearchResultDone done = assertInstanceOf(SearchResultDone.class, raw.read());
            assertEquals(3, done.getMessageId());
            assertEquals(ResultCodeEnum.INVALID_DN_SYNTAX, done.getLdapResult().getResultCode());
            raw.send(Fixtures.BIND);
            Message bound = raw.read();
            assertEquals(1, bound.getMessageId());
        }
        try (LDAPConnection c = connect(listener)) {
            LDAPException e =
                    assertThrows(LDAPException.class, () -> c.search("not a dn", SearchScope.BASE, "(objectClass=*)"));
            assertEquals(ResultCode.INVALID_DN_SYNTAX, e.getResultCode());
            assertEquals(ResultCode.SUCCESS, c.bind("cn=admin", "secret").getResultCode());
        }
    }

    @Test
    void accessLogHasOneLinePerOperation() throws Exception {
        long connection;
        try (LDAPConnection c = connect(listener)) {
            c.search("dc=example,dc=com", SearchScope.SUB, "(uid=jd\"oe)");
            // the line is written when the operation completes, which may be after the client has its result
            String searchLine = Awaitility.await()
                    .until(
                            () -> accessLines().stream()
                                    .filter(m -> m.contains("filter=\"(uid=jd\\\"oe)\""))
                                    .findFirst(),
                            Optional::isPresent)
                    .orElseThrow();
            connection = Long.parseLong(searchLine.substring(5, searchLine.indexOf(' ')));
        }
        String closed = "conn=" + connection + " closed";
        List<String> lines = Awaitility.await()
                .until(
                        () -> accessLines().stream()
                                .filter(m -> m.startsWith("conn=" + connection + " "))
                                .toList(),
                        l -> l.contains(closed));
        assertTrue(lines.get(0).matches("conn=\\d+ open from=127\\.0\\.0\\.1:\\d+"), lines.get(0));
        assertTrue(
                lines.get(1)
                        .matches("conn=\\d+ op=1 SEARCH base=\"dc=example,dc=com\" scope=sub "
                                + "filter=\"\\(uid=jd\\\\\"oe\\)\" result=0 entries=2 etime=\\d+\\.\\d{3}"),
                lines.get(1));
        assertTrue(lines.get(2).matches("conn=\\d+ op=2 UNBIND"), lines.get(2));
        assertEquals(closed, lines.get(3));
    }

    @Test
    void idleConnectionsAreClosed() throws Exception {
        try (LdapListener l = LdapListener.start(options(1), handler);
                RawClient raw = new RawClient(l.address())) {
            long start = System.nanoTime();
            RawClient.assertEof(raw);
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(900));
        }
    }

    @Test
    void stopLetsInFlightOperationsFinishAndRefusesNewConnections() throws Exception {
        TestHandler own = new TestHandler();
        LdapListener l = LdapListener.start(options(0), own);
        InetSocketAddress address = l.address();
        try (LDAPConnection c = connect(l)) {
            CompletableFuture<SearchResult> inFlight = new CompletableFuture<>();
            c.asyncSearch(
                    new SearchRequest(new FutureListener(inFlight), "ou=later", SearchScope.BASE, "(objectClass=*)"));
            Awaitility.await().until(() -> own.searchedBases.contains("ou=later"));
            l.stop(Duration.ofSeconds(5));
            assertTrue(inFlight.isDone(), "stop() returned before the in-flight search finished");
            assertEquals(ResultCode.SUCCESS, inFlight.get().getResultCode());
            assertThrows(ConnectException.class, () -> new Socket(address.getAddress(), address.getPort()).close());
            l.stop(Duration.ZERO); // idempotent
        } finally {
            own.close();
        }
    }

    @Test
    void stopAfterGraceSendsUnavailableNotice() throws Exception {
        TestHandler own = new TestHandler();
        LdapListener l = LdapListener.start(options(0), own);
        try (RawClient raw = new RawClient(l.address())) {
            raw.send(Fixtures.searchRequest(4, Fixtures.tlv(0x87, "cn".getBytes(StandardCharsets.UTF_8))));
            raw.send(neverSearch());
            Awaitility.await().until(() -> own.searchedBases.contains("ou=never"));
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> l.stop(Duration.ofMillis(300)));
            // the first search (dc=example,dc=com) was answered before the stop
            assertEquals(4, raw.read().getMessageId());
            assertEquals(4, raw.read().getMessageId());
            assertInstanceOf(SearchResultDone.class, raw.read());
            assertNoticeOfDisconnection(raw, ResultCodeEnum.UNAVAILABLE);
            stopping.get(5, TimeUnit.SECONDS);
        } finally {
            own.close();
        }
    }

    /** searchRequest messageID 5, base "ou=never", present filter (cn=*). */
    private static byte[] neverSearch() {
        byte[] op = Fixtures.concat(
                Fixtures.tlv(0x04, "ou=never".getBytes(StandardCharsets.UTF_8)),
                Fixtures.tlv(0x0A, new byte[] {0}),
                Fixtures.tlv(0x0A, new byte[] {0}),
                Fixtures.tlv(0x02, new byte[] {0}),
                Fixtures.tlv(0x02, new byte[] {0}),
                Fixtures.tlv(0x01, new byte[] {0}),
                Fixtures.tlv(0x87, "cn".getBytes(StandardCharsets.UTF_8)),
                Fixtures.tlv(0x30, new byte[0]));
        return Fixtures.tlv(0x30, Fixtures.concat(Fixtures.tlv(0x02, new byte[] {5}), Fixtures.tlv(0x63, op)));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Completes a future with the search result; entries are collected by the SDK. */
    private record FutureListener(CompletableFuture<SearchResult> future) implements AsyncSearchResultListener {
        @Override
        public void searchEntryReturned(SearchResultEntry entry) {}

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {}

        @Override
        public void searchResultReceived(AsyncRequestID id, SearchResult result) {
            future.complete(result);
        }
    }
}
