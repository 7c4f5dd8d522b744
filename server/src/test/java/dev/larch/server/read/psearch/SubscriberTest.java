package dev.larch.server.read.psearch;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.StoredDn;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.SearchResultEntryImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The queue between the writer and one persistent search's client: order, the initial phase, the bound. */
class SubscriberTest {
    private static final int BOUND = 3;

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final Connection op = new Connection();
    private int left;
    private final Subscriber subscriber = new Subscriber(op, op.request, null, BOUND, () -> left++);

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    private static SearchResultEntry notification(int n) {
        SearchResultEntry e = new SearchResultEntryImpl(7);
        e.setObjectName(new StoredDn("uid=u" + n));
        return e;
    }

    private static String dnOf(Response r) {
        return ((SearchResultEntry) r).getObjectName().getName();
    }

    @Test
    void nothingGoesOutBeforeTheInitialPhaseEndedThenAllInOrder() {
        for (int i = 0; i < BOUND; i++) {
            subscriber.offer(notification(i));
        }
        channel.runPendingTasks();
        assertEquals(List.of(), op.sent);
        subscriber.goLive();
        assertEquals(
                List.of("uid=u0", "uid=u1", "uid=u2"),
                op.sent.stream().map(SubscriberTest::dnOf).toList());
    }

    @Test
    void aClientThatStopsReadingLosesItsConnectionOnePastTheBound() {
        subscriber.goLive();
        op.writable = false;
        subscriber.offer(notification(0)); // sent: the channel then says it is full
        channel.runPendingTasks();
        assertEquals(1, op.sent.size());
        assertNotNull(op.resume, "waits for the channel to drain");
        for (int i = 1; i <= BOUND; i++) {
            subscriber.offer(notification(i));
        }
        channel.runPendingTasks();
        assertNull(op.closedBecause, "the bound itself is still allowed");
        subscriber.offer(notification(BOUND + 1));
        assertNotNull(op.closedBecause);
        assertTrue(op.closedBecause.contains("limits.persistent-search-queue"), op.closedBecause);
        assertEquals(1, left);
        assertTrue(subscriber.hasEnded());
        op.writable = true;
        op.resume.run();
        assertEquals(1, op.sent.size(), "nothing more goes to a closed connection");
    }

    @Test
    void whatWaitedGoesOutOnceTheChannelIsWritableAgain() {
        subscriber.goLive();
        op.writable = false;
        subscriber.offer(notification(0));
        subscriber.offer(notification(1));
        channel.runPendingTasks();
        assertEquals(1, op.sent.size());
        op.writable = true;
        op.resume.run();
        subscriber.offer(notification(2));
        channel.runPendingTasks();
        assertEquals(
                List.of("uid=u0", "uid=u1", "uid=u2"),
                op.sent.stream().map(SubscriberTest::dnOf).toList());
    }

    @Test
    void itEndsOnceWithOneResultAndAnAbandonedOneLeavesSilently() {
        subscriber.end(ResultCodeEnum.UNAVAILABLE, "stopping");
        subscriber.end(ResultCodeEnum.TIME_LIMIT_EXCEEDED, "late");
        assertEquals(1, op.completed.size());
        assertEquals(
                ResultCodeEnum.UNAVAILABLE, op.completed.get(0).getLdapResult().getResultCode());
        assertEquals(1, left);

        Connection other = new Connection();
        int[] otherLeft = {0};
        Subscriber abandoned = new Subscriber(other, other.request, null, BOUND, () -> otherLeft[0]++);
        abandoned.goLive();
        other.abandoned = true;
        abandoned.offer(notification(0));
        channel.runPendingTasks();
        assertEquals(List.of(), other.sent);
        assertEquals(List.of(), other.completed);
        assertEquals(1, otherLeft[0]);
    }

    /** An operation on the embedded channel's event loop whose writability the test sets. */
    private final class Connection implements Operation {
        final SearchRequestImpl request = new SearchRequestImpl();
        final List<Response> sent = new ArrayList<>();
        final List<ResultResponse> completed = new ArrayList<>();
        boolean writable = true;
        boolean abandoned;
        Runnable resume;
        String closedBecause;

        Connection() {
            request.setMessageId(7);
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
            sent.add(response);
            return writable;
        }

        @Override
        public boolean isWritable() {
            return writable;
        }

        @Override
        public void onWritable(Runnable then) {
            this.resume = then;
        }

        @Override
        public boolean isAbandoned() {
            return abandoned;
        }

        @Override
        public void complete(ResultResponse response) {
            completed.add(response);
        }

        @Override
        public void closeConnection(String reason) {
            closedBecause = reason;
        }

        @Override
        public int entriesSent() {
            return sent.size();
        }

        @Override
        public long startNanos() {
            return 0;
        }
    }
}
