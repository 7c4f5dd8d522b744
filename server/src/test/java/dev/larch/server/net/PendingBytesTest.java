package dev.larch.server.net;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bytes of requests a connection holds, through the whole connection pipeline on
 * {@link EmbeddedChannel}s, fed byte by byte: reading pauses at the connection's byte limit (smaller
 * before a bind) and while the listener's total is spent, every request is still handed on in order
 * once room is made, and everything is given back.
 */
class PendingBytesTest {

    /** A search of {@value} bytes, tag and length included. */
    private static final int SEARCH_BYTES = 1_000;

    private static final int ANONYMOUS_LIMIT = 4 * SEARCH_BYTES;
    private static final int BOUND_LIMIT = 8 * SEARCH_BYTES;

    private final Recorder handler = new Recorder();
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void close() {
        for (EmbeddedChannel channel : channels) {
            channel.finishAndReleaseAll(); // answers may be left unread; leaks show under paranoid detection
        }
    }

    private LdapChannelInitializer pipeline(long total) {
        ListenerOptions options = new ListenerOptions("127.0.0.1", 0, 1, 1 << 20, 0, 100)
                .withRequestLimits(64 * 1024, 1_000)
                .withPendingBytes(BOUND_LIMIT, ANONYMOUS_LIMIT, total);
        return LdapChannelInitializer.standalone(options, handler);
    }

    private EmbeddedChannel connect(LdapChannelInitializer pipeline) {
        EmbeddedChannel channel = new EmbeddedChannel(pipeline);
        channels.add(channel);
        return channel;
    }

    /** A base search of exactly {@link #SEARCH_BYTES} bytes that the recorder leaves running. */
    static byte[] search(int id) {
        for (int value = SEARCH_BYTES; value > 0; value--) {
            byte[] search = Fixtures.baseSearch(id, "ou=held", Fixtures.equality("description", "v".repeat(value)));
            if (search.length == SEARCH_BYTES) {
                return search;
            }
        }
        throw new AssertionError("no search of " + SEARCH_BYTES + " bytes");
    }

    private static void byteByByte(EmbeddedChannel channel, byte[] bytes) {
        for (byte b : bytes) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        channel.runPendingTasks();
    }

    private static byte[] searches(int firstId, int count) {
        byte[][] each = new byte[count][];
        for (int i = 0; i < count; i++) {
            each[i] = search(firstId + i);
        }
        return Fixtures.concat(each);
    }

    @Test
    void anAnonymousConnectionStopsAtItsByteLimitAndGoesOnInOrderAsRequestsAreAnswered() {
        EmbeddedChannel channel = connect(pipeline(1L << 30));
        byteByByte(channel, searches(1, 12));
        assertEquals(List.of(1, 2, 3, 4), handler.ids(), "four searches fill the anonymous limit");
        for (int next = 5; next <= 12; next++) {
            handler.completeOldest();
            channel.runPendingTasks();
            assertEquals(next, handler.lastId(), "one answered, the next one in");
        }
        assertEquals(4, handler.running.size());
    }

    @Test
    void aBoundConnectionMayHoldMore() {
        EmbeddedChannel channel = connect(pipeline(1L << 30));
        byteByByte(channel, Fixtures.simpleBind(1, "cn=someone,dc=example,dc=com", "secret"));
        assertEquals(List.of(1), handler.ids());
        byteByByte(channel, searches(2, 12));
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9), handler.ids(), "eight searches fill the limit after a bind");
    }

    @Test
    void aConnectionHoldingNothingMayAlwaysSendOneRequestLargerThanItsLimit() {
        EmbeddedChannel channel = connect(pipeline(1L << 30));
        byte[] large = Fixtures.baseSearch(1, "ou=held", Fixtures.equality("description", "v".repeat(20_000)));
        byteByByte(channel, Fixtures.concat(large, search(2)));
        assertEquals(List.of(1), handler.ids(), "the large one runs, the next waits for it");
        handler.completeOldest();
        channel.runPendingTasks();
        assertEquals(List.of(1, 2), handler.ids());
    }

    @Test
    void whileTheTotalIsSpentAConnectionHoldingSomethingWaitsUntilOthersGiveBack() {
        LdapChannelInitializer pipeline = pipeline(3 * SEARCH_BYTES);
        EmbeddedChannel first = connect(pipeline);
        EmbeddedChannel second = connect(pipeline);
        byteByByte(first, searches(1, 4));
        assertEquals(List.of(1, 2, 3), handler.ids(), "three searches spend the total");
        byteByByte(second, searches(11, 2));
        assertEquals(List.of(1, 2, 3, 11), handler.ids(), "a connection holding nothing still gets one in");
        handler.complete(1);
        first.runPendingTasks();
        second.runPendingTasks();
        assertEquals(List.of(1, 2, 3, 11), handler.ids(), "still spent: 2 + 1 searches held");
        handler.complete(2);
        first.runPendingTasks();
        second.runPendingTasks();
        assertEquals(List.of(1, 2, 3, 11, 4), handler.ids(), "woken, the first connection's next one took the room");
        handler.complete(3);
        first.runPendingTasks();
        second.runPendingTasks();
        assertEquals(List.of(1, 2, 3, 11, 4, 12), handler.ids(), "the second connection was woken too");
    }

    @Test
    void everyByteIsGivenBackWhenRequestsEndOrTheConnectionCloses() {
        PendingBytesBudget total = new PendingBytesBudget(1L << 30);
        PendingBytes counted = new PendingBytes(BOUND_LIMIT, ANONYMOUS_LIMIT, total);
        counted.take(SEARCH_BYTES);
        counted.take(SEARCH_BYTES);
        assertEquals(2 * SEARCH_BYTES, total.used());
        counted.giveBack(SEARCH_BYTES);
        counted.giveBack(SEARCH_BYTES);
        assertEquals(0, total.used());

        LdapChannelInitializer pipeline = pipeline(1L << 30);
        EmbeddedChannel channel = connect(pipeline);
        byteByByte(channel, searches(1, 3));
        handler.completeOldest();
        channel.runPendingTasks();
        channel.close();
        // The budget is the pipeline's own; a fresh connection of the same listener may use all of it.
        EmbeddedChannel again = connect(pipeline);
        handler.running.clear();
        byteByByte(again, searches(21, 6));
        assertEquals(4, handler.running.size(), "the closed connection gave back what it held");
    }

    @Test
    void theBudgetWakesEachWaiterOnceWhenGivenBack() {
        PendingBytesBudget total = new PendingBytesBudget(10);
        PendingBytes counted = new PendingBytes(100, 100, total);
        int[] woken = new int[1];
        Runnable wake = () -> woken[0]++;
        counted.take(10);
        assertTrue(counted.isFull(true, wake), "spent and holding something");
        assertTrue(counted.isFull(true, wake));
        total.giveBack(0);
        assertEquals(0, woken[0], "still spent");
        counted.giveBack(10);
        assertEquals(1, woken[0], "woken once, registered once");
        counted.woken();
        assertFalse(counted.isFull(true, wake));
    }

    /** Leaves every request running, binds sessions on binds, and records the order requests arrive in. */
    private static final class Recorder implements RequestHandler {
        final List<Operation> arrived = new ArrayList<>();
        final List<Operation> running = new ArrayList<>();

        @Override
        public void handle(Operation op) {
            arrived.add(op);
            if (op.request() instanceof BindRequest bind) {
                try {
                    op.session().bound(new Dn(bind.getName()), false);
                } catch (LdapInvalidDnException e) {
                    throw new IllegalArgumentException(e);
                }
                op.complete(TestHandler.success(op));
                return;
            }
            running.add(op);
        }

        List<Integer> ids() {
            return arrived.stream().map(op -> op.request().getMessageId()).toList();
        }

        int lastId() {
            return arrived.get(arrived.size() - 1).request().getMessageId();
        }

        void completeOldest() {
            Operation oldest = running.remove(0);
            oldest.complete(TestHandler.success(oldest));
        }

        void complete(int id) {
            Operation op = running.stream()
                    .filter(o -> o.request().getMessageId() == id)
                    .findFirst()
                    .orElseThrow();
            running.remove(op);
            op.complete(TestHandler.success(op));
        }
    }
}
