package dev.larch.server.read;

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
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
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
 * Time limits from the request and the configuration, and abandon, on searches whose stream the
 * client stalls. The tree holds {@value #ENTRIES} entries of about 4 KB, three times what the
 * socket buffers and the channel's high-water mark can take, so a client that stops reading
 * really stalls the server.
 */
class SearchTimeLimitIT {
    private static final int ENTRIES = 3000;
    private static final String FILLER = "x".repeat(4000);
    private static final String BULK = "ou=bulk," + TestServer.SUFFIX;
    private static final ListAppender<ILoggingEvent> ACCESS = new ListAppender<>();

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            // The administrator's exemption is what one test checks: limits.apply-to-admin = false.
            .configured(c -> TestServer.withAccessLog(c)
                    .set("limits.size-limit", 0)
                    .set("limits.time-limit-seconds", 1)
                    .set("limits.look-through-limit", 0)
                    .set("limits.apply-to-admin", false))
            .importing(bulk());

    /** The bulk unit and its {@value #ENTRIES} people, each with a 4 KB description. */
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

    /** Blocks the client's reader on the first entry, so the server's stream stalls for a while. */
    private static final class StallingListener implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        final AtomicInteger entries = new AtomicInteger();
        final CountDownLatch first = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CompletableFuture<SearchResult> done = new CompletableFuture<>();

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {
            if (entries.incrementAndGet() == 1) {
                first.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
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

    private static LDAPConnection slowReader(boolean asAdmin) throws Exception {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setResponseTimeoutMillis(20_000);
        LDAPConnection c =
                new LDAPConnection(options, "127.0.0.1", larch.server().port());
        if (asAdmin) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
        }
        return c;
    }

    private static SearchResult stalledSearch(LDAPConnection c, int requestTimeLimit, long stallMillis)
            throws Exception {
        StallingListener listener = new StallingListener();
        SearchRequest r = new SearchRequest(listener, BULK, SearchScope.ONE, "(objectClass=inetOrgPerson)");
        r.setTimeLimitSeconds(requestTimeLimit);
        c.asyncSearch(r);
        assertTrue(listener.first.await(20, TimeUnit.SECONDS));
        // The stall itself is the stimulus: the client keeps not reading for this long, whatever the server does.
        Thread.sleep(stallMillis);
        listener.release.countDown();
        SearchResult result = listener.done.get(30, TimeUnit.SECONDS);
        assertTrue(listener.entries.get() >= 1);
        return result;
    }

    @Test
    void requestTimeLimitEndsAStalledSearchWithTimeLimitExceededAfterTheEntriesSent() throws Exception {
        try (LDAPConnection c = slowReader(true)) {
            SearchResult result = stalledSearch(c, 1, 1500);
            assertEquals(ResultCode.TIME_LIMIT_EXCEEDED, result.getResultCode());
            assertTrue(result.getEntryCount() > 0 && result.getEntryCount() < ENTRIES, result.toString());
        }
    }

    @Test
    void configTimeLimitAppliesToAnonymousSearches() throws Exception {
        try (LDAPConnection c = slowReader(false)) {
            SearchResult result = stalledSearch(c, 0, 1500);
            assertEquals(ResultCode.TIME_LIMIT_EXCEEDED, result.getResultCode());
        }
    }

    @Test
    void administratorIsExemptFromTheConfigTimeLimit() throws Exception {
        try (LDAPConnection c = slowReader(true)) {
            SearchResult result = stalledSearch(c, 0, 1500);
            assertEquals(ResultCode.SUCCESS, result.getResultCode());
            assertEquals(ENTRIES, result.getEntryCount());
        }
    }

    @Test
    void abandonStopsAStreamingSearchAndTheConnectionKeepsWorking() throws Exception {
        try (LDAPConnection c = slowReader(true)) {
            StallingListener listener = new StallingListener();
            AsyncRequestID id =
                    c.asyncSearch(new SearchRequest(listener, BULK, SearchScope.ONE, "(objectClass=inetOrgPerson)"));
            assertTrue(listener.first.await(20, TimeUnit.SECONDS));
            c.abandon(id);
            listener.release.countDown();
            // a later request on the same connection is answered
            assertEquals(
                    1, c.search(BULK, SearchScope.ONE, "(uid=u0042)", "1.1").getEntryCount());
            assertFalse(listener.done.isDone(), "an abandoned search gets no result");
            String line = accessLine(id.getMessageID());
            assertTrue(line.contains("result=abandoned"), line);
            int sent = Integer.parseInt(line.replaceAll(".* entries=(\\d+).*", "$1"));
            assertTrue(sent < ENTRIES, "the server stopped streaming: " + line);
        }
    }

    /** The access log line of the abandoned search with {@code messageId}, once the server has written it. */
    private static String accessLine(int messageId) {
        return await().until(
                        () -> {
                            synchronized (ACCESS) {
                                return ACCESS.list.stream()
                                        .map(ILoggingEvent::getFormattedMessage)
                                        .filter(m -> m.contains(" op=" + messageId + " SEARCH")
                                                && m.contains("ou=bulk")
                                                && m.contains("abandoned"))
                                        .findFirst();
                            }
                        },
                        Optional::isPresent)
                .orElseThrow();
    }
}
