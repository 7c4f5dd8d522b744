package dev.larch.server.read;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.search.AttributeSelection;
import dev.larch.server.search.Filter;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.search.SearchCursor;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import dev.larch.server.work.WorkerPool;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pause bounds of one search whose client never reads, on an {@link EmbeddedChannel}'s event
 * loop with its clock advanced by hand: no test sleeps.
 */
class StreamingSearchTest {
    private static final int PAUSE_SECONDS = 60;

    @TempDir
    Path dir;

    private TestTree tree;
    private EmbeddedChannel channel;

    @BeforeEach
    void open() {
        tree = new TestTree(dir).add(Ldif.PEOPLE_AND_GROUP);
        channel = new EmbeddedChannel();
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
        tree.close();
    }

    /** An operation whose client never reads: every send fills the connection. */
    private final class StalledOperation implements Operation {
        final SearchRequestImpl request = new SearchRequestImpl();
        final long startNanos = System.nanoTime();
        ResultResponse done;
        Runnable resume;
        boolean abandoned;
        int sent;

        StalledOperation(int requestTimeLimit) {
            request.setMessageId(7);
            request.setTimeLimit(requestTimeLimit);
        }

        @Override
        public Request request() {
            return request;
        }

        @Override
        public Session session() {
            return new Session(1, null);
        }

        @Override
        public EventExecutor executor() {
            return channel.eventLoop();
        }

        @Override
        public boolean send(Response response) {
            sent++;
            return false;
        }

        @Override
        public boolean isWritable() {
            return false;
        }

        @Override
        public void onWritable(Runnable resume) {
            this.resume = resume;
        }

        @Override
        public boolean isAbandoned() {
            return abandoned;
        }

        @Override
        public void complete(ResultResponse response) {
            done = response;
        }

        @Override
        public int entriesSent() {
            return sent;
        }

        @Override
        public long startNanos() {
            return startNanos;
        }
    }

    private StreamingSearch search(StalledOperation op, PausedSearches pauses, int timeLimitSeconds) {
        return search(op, pauses, timeLimitSeconds, null, null);
    }

    private StreamingSearch search(
            StalledOperation op,
            PausedSearches pauses,
            int timeLimitSeconds,
            WorkerPool workers,
            SearchSlots longSearches) {
        Filter filter = tree.filter("(objectClass=*)");
        ReadTxn txn = tree.store.read();
        long base = tree.directory.require(txn, tree.schemaNormalizer.dn("ou=People,dc=example,dc=com"));
        SearchCursor cursor = new SearchCursor(tree.directory, txn, base, SearchScope.SUBTREE, filter, null, 0);
        return new StreamingSearch(
                op,
                op.request,
                txn,
                cursor,
                AttributeSelection.of(List.of(), tree.schema),
                new ResultEntries(null),
                pauses,
                workers,
                longSearches,
                0,
                timeLimitSeconds);
    }

    private static ResultCodeEnum code(StalledOperation op) {
        assertNotNull(op.done, "the search did not end");
        return op.done.getLdapResult().getResultCode();
    }

    @Test
    void aPausedSearchEndsAtThePauseBoundAndGivesBackItsSlot() {
        PausedSearches pauses = new PausedSearches(PAUSE_SECONDS, 4);
        StalledOperation op = new StalledOperation(0);
        search(op, pauses, 0).run();
        assertEquals(1, op.sent);
        assertEquals(1, pauses.paused());
        channel.advanceTimeBy(PAUSE_SECONDS - 1, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertNull(op.done, "still within the bound");
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertEquals(ResultCodeEnum.TIME_LIMIT_EXCEEDED, code(op));
        assertTrue(op.done.getLdapResult().getDiagnosticMessage().contains("limits.paused-search-seconds"));
        assertEquals(0, pauses.paused());
        op.resume.run(); // the client reads at last: nothing more happens
        assertEquals(1, op.sent);
    }

    @Test
    void theTimeLimitEndsAPausedSearchBeforeThePauseBound() {
        PausedSearches pauses = new PausedSearches(PAUSE_SECONDS, 4);
        StalledOperation op = new StalledOperation(0);
        search(op, pauses, 2).run();
        channel.advanceTimeBy(3, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertEquals(ResultCodeEnum.TIME_LIMIT_EXCEEDED, code(op));
        assertEquals(
                "time limit of 2 seconds exceeded (limits.time-limit-seconds)",
                op.done.getLdapResult().getDiagnosticMessage());
        assertEquals(0, pauses.paused());
    }

    @Test
    void aResumedSearchCancelsItsPauseTimer() {
        PausedSearches pauses = new PausedSearches(PAUSE_SECONDS, 4);
        StalledOperation op = new StalledOperation(0);
        search(op, pauses, 0).run();
        channel.advanceTimeBy(PAUSE_SECONDS - 1, TimeUnit.SECONDS);
        op.resume.run(); // sends one more and pauses again, with a fresh bound
        assertEquals(2, op.sent);
        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertNull(op.done, "the first pause's timer was cancelled");
        assertEquals(1, pauses.paused(), "one search, one slot, however often it pauses");
        abandon(op);
    }

    /** Ends a search still paused, as the dispatcher does when its client abandons it. */
    private static void abandon(StalledOperation op) {
        op.abandoned = true;
        op.resume.run();
    }

    @Test
    void aSearchThatWouldPauseBeyondTheCapEndsBusy() {
        PausedSearches pauses = new PausedSearches(PAUSE_SECONDS, 1);
        StalledOperation first = new StalledOperation(0);
        StalledOperation second = new StalledOperation(0);
        search(first, pauses, 0).run();
        search(second, pauses, 0).run();
        assertNull(first.done);
        assertEquals(ResultCodeEnum.BUSY, code(second));
        assertTrue(second.done.getLdapResult().getDiagnosticMessage().contains("limits.max-paused-searches"));
        assertEquals(1, pauses.paused());
        abandon(first);
        assertEquals(0, pauses.paused());
    }

    @Test
    void anAbandonedPausedSearchReleasesItsSlot() {
        PausedSearches pauses = new PausedSearches(PAUSE_SECONDS, 1);
        StalledOperation op = new StalledOperation(0);
        search(op, pauses, 0).run();
        abandon(op);
        assertEquals(0, pauses.paused());
        assertNull(op.done);
    }

    @Test
    void aSearchThatWouldRunLongBeyondTheBoundEndsBusyNamingTheKey() {
        SearchSlots longSearches = new SearchSlots(1, "limits.max-long-searches");
        try (WorkerPool workers = new WorkerPool("test-worker", 1, 4)) {
            assertTrue(longSearches.tryTake(), "another search runs long");
            StalledOperation op = new StalledOperation(0);
            search(op, new PausedSearches(PAUSE_SECONDS, 4), 0, workers, longSearches)
                    .start(StreamingSearch.Placement.ON_WORKERS);
            assertEquals(ResultCodeEnum.BUSY, code(op));
            assertEquals(
                    "too many long searches are running (limits.max-long-searches = 1); use an indexed filter or a"
                            + " narrower base, or try again later",
                    op.done.getLdapResult().getDiagnosticMessage());
            assertEquals(1, longSearches.taken(), "the refused search took no slot");
        }
    }

    @Test
    void aLongSearchGivesItsSlotBackWhenItEnds() throws Exception {
        SearchSlots longSearches = new SearchSlots(1, "limits.max-long-searches");
        CountDownLatch release = new CountDownLatch(1);
        try (WorkerPool workers = new WorkerPool("test-worker", 1, 0)) {
            // The only worker is busy and nothing may wait: the search takes its slot, then ends busy.
            assertTrue(workers.trySubmit(() -> awaitQuietly(release)));
            StalledOperation op = new StalledOperation(0);
            search(op, new PausedSearches(PAUSE_SECONDS, 4), 0, workers, longSearches)
                    .start(StreamingSearch.Placement.ON_WORKERS);
            assertEquals(ResultCodeEnum.BUSY, code(op));
            assertTrue(op.done.getLdapResult().getDiagnosticMessage().contains("limits.worker-queue"));
            assertEquals(0, longSearches.taken());
            release.countDown();
        } finally {
            release.countDown();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
