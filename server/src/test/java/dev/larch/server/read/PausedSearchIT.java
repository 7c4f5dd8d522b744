package dev.larch.server.read;

import java.time.Duration;
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
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Searches whose client stops reading are bounded: one may wait {@value #PAUSE_SECONDS} seconds and
 * only {@value #MAX_PAUSED} may wait at once. The tree holds {@value #ENTRIES} entries of about 4 KB,
 * more than the socket buffers and the channel's high-water mark take, so a stalled client really
 * makes the server pause. The access log shows when the server ended a search while its client
 * still was not reading.
 */
class PausedSearchIT {
    private static final int ENTRIES = 2000;
    private static final int PAUSE_SECONDS = 3;
    private static final int MAX_PAUSED = 1;
    private static final String FILLER = "x".repeat(4000);
    private static final String BULK = "ou=bulk," + TestServer.SUFFIX;
    private static final ListAppender<ILoggingEvent> ACCESS = new ListAppender<>();

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> TestServer.withAccessLog(c)
                    .set("limits.size-limit", 0)
                    .set("limits.time-limit-seconds", 0)
                    .set("limits.look-through-limit", 0)
                    .set("limits.apply-to-admin", true)
                    .set("limits.paused-search-seconds", PAUSE_SECONDS)
                    .set("limits.max-paused-searches", MAX_PAUSED))
            .importing(bulk());

    private static String bulk() {
        return Ldif.bulkUnit(BULK, ENTRIES, i -> FILLER);
    }

    @BeforeAll
    static void captureAccessLog() {
        ACCESS.start();
        ((Logger) LoggerFactory.getLogger("larch.access")).addAppender(ACCESS);
    }

    @AfterAll
    static void releaseAccessLog() {
        ((Logger) LoggerFactory.getLogger("larch.access")).detachAppender(ACCESS);
    }

    /** Blocks the client's reader on the first entry until released, so the server's stream stalls. */
    private static final class StallingListener implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        final transient CountDownLatch first = new CountDownLatch(1);
        final transient CountDownLatch release = new CountDownLatch(1);
        final transient CompletableFuture<SearchResult> done = new CompletableFuture<>();

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {
            if (first.getCount() > 0) {
                first.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {}

        @Override
        public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {
            done.complete(result);
        }
    }

    /** A stalled search, the connection it runs on and the marker in its filter that finds its log line. */
    private record Stalled(LDAPConnection connection, StallingListener listener, String marker)
            implements AutoCloseable {
        SearchResult releaseAndAwait() throws Exception {
            listener.release.countDown();
            return listener.done.get(30, TimeUnit.SECONDS);
        }

        /** Waits until the server logs the end of this search; returns the line. */
        String awaitEndLogged(Duration within) {
            return await().atMost(within).until(() -> accessLine(marker), line -> !line.isEmpty());
        }

        @Override
        public void close() {
            listener.release.countDown();
            connection.close();
        }
    }

    private static final AtomicInteger MARKERS = new AtomicInteger();

    /** Starts a one-level search of the bulk unit on a new connection whose reader stalls on the first entry. */
    private static Stalled stall(int requestTimeLimit) throws Exception {
        return stall(requestTimeLimit, false);
    }

    /**
     * As {@link #stall(int)}; {@code paged}: as one page of a paged search (RFC 2696) as large as the
     * unit, whose entries the server must not buffer whole either.
     */
    private static Stalled stall(int requestTimeLimit, boolean paged) throws Exception {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setResponseTimeoutMillis(30_000);
        LDAPConnection c =
                new LDAPConnection(options, "127.0.0.1", larch.server().port());
        StallingListener listener = new StallingListener();
        String marker = "stall" + MARKERS.incrementAndGet();
        SearchRequest r = new SearchRequest(
                listener, BULK, SearchScope.ONE, "(&(objectClass=inetOrgPerson)(!(cn=" + marker + ")))");
        r.setTimeLimitSeconds(requestTimeLimit);
        if (paged) {
            r.addControl(new SimplePagedResultsControl(ENTRIES));
        }
        c.asyncSearch(r);
        assertTrue(listener.first.await(20, TimeUnit.SECONDS), "no first entry");
        return new Stalled(c, listener, marker);
    }

    private static String accessLine(String marker) {
        synchronized (ACCESS) {
            return ACCESS.list.stream()
                    .map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains(" SEARCH ") && m.contains(marker) && m.contains(" result="))
                    .findFirst()
                    .orElse("");
        }
    }

    @Test
    void aSearchPausedTooLongEndsWhileTheClientStillStallsAndNamesTheKey() throws Exception {
        try (Stalled stalled = stall(0)) {
            String line = stalled.awaitEndLogged(Duration.ofSeconds(PAUSE_SECONDS + 10));
            assertTrue(line.contains("result=3"), line);
            assertFalse(stalled.listener().done.isDone(), "the client was still not reading");
            SearchResult result = stalled.releaseAndAwait();
            assertEquals(ResultCode.TIME_LIMIT_EXCEEDED, result.getResultCode());
            assertTrue(
                    result.getDiagnosticMessage().contains("limits.paused-search-seconds"),
                    result.getDiagnosticMessage());
        }
    }

    @Test
    void aPageWhoseClientStopsReadingPausesAndEndsAtThePauseBoundRatherThanBeingBufferedWhole() throws Exception {
        // 2000 entries of 4 KB in one page: 8 MB, far more than the socket buffers and the high-water mark.
        try (Stalled stalled = stall(0, true)) {
            String line = stalled.awaitEndLogged(Duration.ofSeconds(PAUSE_SECONDS + 10));
            assertTrue(line.contains("result=3"), line);
            assertFalse(stalled.listener().done.isDone(), "the client was still not reading");
            SearchResult result = stalled.releaseAndAwait();
            assertEquals(ResultCode.TIME_LIMIT_EXCEEDED, result.getResultCode());
            assertTrue(
                    result.getDiagnosticMessage().contains("limits.paused-search-seconds"),
                    result.getDiagnosticMessage());
            assertTrue(result.getEntryCount() < ENTRIES, "entries before the end: " + result.getEntryCount());
        }
    }

    @Test
    void theTimeLimitRunsWhileASearchIsPausedAndNamesTheClientAsItsSource() throws Exception {
        try (Stalled stalled = stall(1)) {
            // Ends at its one-second limit, well before the pause bound would end it.
            String line = stalled.awaitEndLogged(Duration.ofSeconds(PAUSE_SECONDS - 1));
            assertTrue(line.contains("result=3"), line);
            SearchResult result = stalled.releaseAndAwait();
            assertEquals(ResultCode.TIME_LIMIT_EXCEEDED, result.getResultCode());
            assertEquals("time limit of 1 seconds exceeded (requested by the client)", result.getDiagnosticMessage());
        }
    }

    @Test
    void aSearchThatWouldPauseBeyondTheCapEndsBusyAndASlotReturnsWhenAPausedSearchEnds() throws Exception {
        try (Stalled first = stall(0);
                Stalled second = stall(0)) {
            // Whichever paused second needed the only slot while the other held it.
            String firstLine = first.awaitEndLogged(Duration.ofSeconds(PAUSE_SECONDS + 10));
            String secondLine = second.awaitEndLogged(Duration.ofSeconds(PAUSE_SECONDS + 10));
            assertTrue(
                    firstLine.contains("result=51") != secondLine.contains("result=51"),
                    "exactly one is busy:\n" + firstLine + "\n" + secondLine);
            Stalled refusedOne = firstLine.contains("result=51") ? first : second;
            SearchResult refused = refusedOne.releaseAndAwait();
            assertEquals(ResultCode.BUSY, refused.getResultCode());
            assertTrue(
                    refused.getDiagnosticMessage().contains("limits.max-paused-searches"),
                    refused.getDiagnosticMessage());

            // The paused search's slot (and read transaction) went back when it ended: a third may wait again.
            try (Stalled third = stall(0)) {
                String line = third.awaitEndLogged(Duration.ofSeconds(PAUSE_SECONDS + 10));
                assertTrue(line.contains("result=3"), "paused and timed out rather than refused: " + line);
            }
        }
    }
}
