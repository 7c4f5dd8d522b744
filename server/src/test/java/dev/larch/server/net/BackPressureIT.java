package dev.larch.server.net;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOutboundBuffer;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that send requests without reading the answers, against a real listener: the server's
 * buffers stay bounded, other clients are still served, and every request is answered once the client
 * reads.
 */
class BackPressureIT {

    /**
     * Their answers (about 1 KiB each, 30 MB in all) are far more than the kernel's socket buffers and
     * the server's high water mark can hold, so a server that kept reading would run all of them.
     */
    private static final int PIPELINED = 30_000;

    private static final String ANSWER_VALUE = "y".repeat(1000);
    private static final byte PROTOCOL_OP_ENTRY = 0x64;
    private static final byte PROTOCOL_OP_DONE = 0x65;

    /** One event loop, so that a stalled connection would stall the well-behaved one too. */
    private static ListenerOptions options() {
        return new ListenerOptions("127.0.0.1", 0, 1, 1 << 20, 0, 100);
    }

    @Test
    void aClientThatPipelinesWithoutReadingIsHeldWithinTheHighWaterMark() throws Exception {
        RootDseHandler handler = new RootDseHandler();
        try (LdapListener listener = LdapListener.start(options(), handler);
                Socket hog = new Socket()) {
            hog.connect(listener.address(), 5_000);
            hog.setSoTimeout(30_000);
            byte[] requests = pipelinedRootDseSearches();
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> write(hog, requests));

            assertTrue(handler.sawUnwritable.await(30, TimeUnit.SECONDS), "the hog never filled its connection");
            try (LDAPConnection polite =
                    new LDAPConnection("127.0.0.1", listener.address().getPort())) {
                SearchResult answer = polite.search("ou=polite", SearchScope.BASE, "(objectClass=*)");
                assertEquals(ResultCode.SUCCESS, answer.getResultCode());
                assertEquals(1, answer.getEntryCount());
            }
            int dispatchedWhileStalled = handler.rootDseSearches.get();
            assertTrue(
                    dispatchedWhileStalled < PIPELINED,
                    "all " + PIPELINED + " searches were run for a client that read nothing");

            readAllAnswers(hog);
            writing.get(30, TimeUnit.SECONDS);
            assertEquals(PIPELINED, handler.rootDseSearches.get());
            assertEquals(
                    0, handler.dispatchedWhileUnwritable.get(), "requests were run while the client was not reading");
            assertTrue(
                    handler.maxBufferedAtDispatch.get() <= LdapListener.HIGH_WATER_MARK,
                    "buffered " + handler.maxBufferedAtDispatch.get() + " bytes when a request was run");
        }
    }

    @Test
    void pendingOperationsPerConnectionStayWithinTheLimit() throws Exception {
        int limit = 4;
        int sent = 10;
        HoldingHandler handler = new HoldingHandler(limit);
        ListenerOptions options = options().withRequestLimits(64 * 1024, limit);
        try (LdapListener listener = LdapListener.start(options, handler);
                RawClient raw = new RawClient(listener.address())) {
            byte[][] requests = new byte[sent][];
            for (int i = 0; i < sent; i++) {
                requests[i] = Fixtures.baseSearch(i + 1, "ou=held", Fixtures.objectClassPresent());
            }
            raw.send(Fixtures.concat(requests));
            Operation[] held = new Operation[limit];
            for (int i = 0; i < limit; i++) {
                held[i] = handler.take();
            }
            // All four slots are taken: each completion lets exactly one more request in, in order.
            for (int i = 0; i < sent; i++) {
                Operation oldest = held[i % limit];
                handler.completed.incrementAndGet();
                oldest.complete(TestHandler.success(oldest));
                assertEquals(i + 1, raw.read().getMessageId());
                if (i + limit < sent) {
                    held[i % limit] = handler.take();
                    assertEquals(i + limit + 1, held[i % limit].request().getMessageId());
                }
            }
            assertEquals(0, handler.overLimit.get(), "more than " + limit + " operations were outstanding");
            assertEquals(limit, handler.maxOutstanding.get());
        }
    }

    @Test
    void anAbandonSentBehindHeldRequestsStillCancelsAnOutstandingOne() throws Exception {
        int limit = 4;
        HoldingHandler handler = new HoldingHandler(limit);
        ListenerOptions options = options().withRequestLimits(64 * 1024, limit);
        try (LdapListener listener = LdapListener.start(options, handler);
                RawClient raw = new RawClient(listener.address())) {
            raw.send(searches(1, 2 * limit));
            Operation[] outstanding = new Operation[limit];
            for (int i = 0; i < limit; i++) {
                outstanding[i] = handler.take();
            }
            // Reading is paused at the limit with four requests held; the Abandon comes behind them.
            raw.send(Fixtures.hex("30 06  02 01 63  50 01 02")); // abandon message 2, as message 99
            Operation next = handler.take();
            assertTrue(outstanding[1].isAbandoned(), "the abandon reached the outstanding operation");
            assertEquals(limit + 1, next.request().getMessageId(), "its slot went to the oldest held request");
        }
    }

    @Test
    void anUnbindSentBehindHeldRequestsClosesTheConnection() throws Exception {
        int limit = 4;
        HoldingHandler handler = new HoldingHandler(limit);
        ListenerOptions options = options().withRequestLimits(64 * 1024, limit);
        try (LdapListener listener = LdapListener.start(options, handler);
                RawClient raw = new RawClient(listener.address())) {
            raw.send(searches(1, 2 * limit));
            Operation[] outstanding = new Operation[limit];
            for (int i = 0; i < limit; i++) {
                outstanding[i] = handler.take();
            }
            raw.send(Fixtures.UNBIND);
            assertTrue(raw.closedByServer(), "the server closed the connection on the unbind");
            for (Operation op : outstanding) {
                assertTrue(op.isAbandoned(), "outstanding operations end with the connection");
            }
        }
    }

    private static byte[] searches(int firstId, int count) {
        byte[][] each = new byte[count][];
        for (int i = 0; i < count; i++) {
            each[i] = Fixtures.baseSearch(firstId + i, "ou=held", Fixtures.objectClassPresent());
        }
        return Fixtures.concat(each);
    }

    private static byte[] pipelinedRootDseSearches() {
        byte[][] each = new byte[PIPELINED][];
        for (int i = 0; i < PIPELINED; i++) {
            each[i] = Fixtures.baseSearch(i + 1, "", Fixtures.objectClassPresent());
        }
        return Fixtures.concat(each);
    }

    private static void write(Socket socket, byte[] bytes) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads an entry then a done for each search, in order, checking each message ID. */
    private static void readAllAnswers(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        LdapMessageEnvelope envelope = new LdapMessageEnvelope();
        for (int id = 1; id <= PIPELINED; id++) {
            assertEquals(PROTOCOL_OP_ENTRY, readOne(in, envelope, id));
            assertEquals(PROTOCOL_OP_DONE, readOne(in, envelope, id));
        }
    }

    private static byte readOne(DataInputStream in, LdapMessageEnvelope envelope, int expectedId) throws IOException {
        int tag = in.readUnsignedByte();
        int first = in.readUnsignedByte();
        int length = first;
        int lengthOctets = 0;
        if (first >= 0x80) {
            lengthOctets = first & 0x7F;
            length = 0;
            for (int i = 0; i < lengthOctets; i++) {
                length = (length << 8) | in.readUnsignedByte();
            }
        }
        byte[] value = new byte[length];
        in.readFully(value);
        byte[] pdu = Fixtures.tlv(tag, value);
        assertTrue(envelope.read(Unpooled.wrappedBuffer(pdu)), "not an LDAPMessage");
        assertEquals(expectedId, envelope.messageId());
        return (byte) envelope.protocolOpTag();
    }

    /**
     * Answers every search with one entry and done, recording for the root DSE searches whether the
     * connection was writable and how many response bytes it held when the request was run.
     */
    private static final class RootDseHandler implements RequestHandler {
        final AtomicInteger rootDseSearches = new AtomicInteger();
        final AtomicInteger dispatchedWhileUnwritable = new AtomicInteger();
        final AtomicLong maxBufferedAtDispatch = new AtomicLong();
        final CountDownLatch sawUnwritable = new CountDownLatch(1);

        @Override
        public void handle(Operation op) {
            if (!(op.request() instanceof SearchRequest search)) {
                op.complete(TestHandler.success(op));
                return;
            }
            boolean rootDse = search.getBase().isEmpty();
            if (rootDse) {
                rootDseSearches.incrementAndGet();
                if (!op.isWritable()) {
                    dispatchedWhileUnwritable.incrementAndGet();
                }
                maxBufferedAtDispatch.accumulateAndGet(buffered(op), Math::max);
            }
            op.send(TestHandler.entry(op, "cn=answer", ANSWER_VALUE));
            op.complete(TestHandler.success(op));
            if (rootDse && !op.isWritable()) {
                sawUnwritable.countDown();
            }
        }

        private static long buffered(Operation op) {
            ChannelOutboundBuffer buffer =
                    ((ChannelOperation) op).channel().unsafe().outboundBuffer();
            return buffer == null ? 0 : buffer.totalPendingWriteBytes();
        }
    }

    /** Holds every search until the test completes it; checks the outstanding count on each arrival. */
    private static final class HoldingHandler implements RequestHandler {
        private final int limit;
        private final BlockingQueue<Operation> arrived = new LinkedBlockingQueue<>();
        private final AtomicInteger dispatched = new AtomicInteger();
        final AtomicInteger completed = new AtomicInteger();
        final AtomicInteger overLimit = new AtomicInteger();
        final AtomicInteger maxOutstanding = new AtomicInteger();

        HoldingHandler(int limit) {
            this.limit = limit;
        }

        @Override
        public void handle(Operation op) {
            int outstanding = dispatched.incrementAndGet() - completed.get();
            maxOutstanding.accumulateAndGet(outstanding, Math::max);
            if (outstanding > limit) {
                overLimit.incrementAndGet();
            }
            arrived.add(op);
        }

        Operation take() throws InterruptedException {
            Operation op = arrived.poll(10, TimeUnit.SECONDS);
            assertNotNull(op, "no request arrived");
            return op;
        }
    }
}
