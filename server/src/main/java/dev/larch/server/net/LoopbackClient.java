package dev.larch.server.net;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.util.ReferenceCountUtil;

/**
 * The client end of one {@link LoopbackLoad} connection: keeps up to {@code window} requests from
 * the shared {@link Feed} unanswered, counts what comes back, and closes its connection once the feed
 * is dry and every request it sent was answered. Runs on the connection's event loop; the counters
 * may be read from any thread once {@link #closed()} completed.
 */
final class LoopbackClient extends ChannelInboundHandlerAdapter {
    private static final int SEARCH_RESULT_ENTRY = 0x64;
    private static final int SEARCH_RESULT_REFERENCE = 0x73;
    private static final int INTERMEDIATE_RESPONSE = 0x79;
    private static final int ENUMERATED = 0x0A;
    /** success, timeLimitExceeded, sizeLimitExceeded: a read answered as asked. */
    private static final int SUCCESS = 0;

    private static final int TIME_LIMIT_EXCEEDED = 3;
    private static final int SIZE_LIMIT_EXCEEDED = 4;

    /**
     * The requests, handed out round robin to every connection of one drive until the time is up or
     * the most to send were sent. Thread-safe.
     */
    static final class Feed {
        private final List<byte[]> ops;
        private final long maxSends;
        private final long deadline;
        private final AtomicLong next = new AtomicLong();

        /**
         * @param ops requests without their envelope ({@link #withoutEnvelope})
         * @param deadline {@link System#nanoTime()} after which nothing more is handed out
         */
        Feed(List<byte[]> ops, long maxSends, long deadline) {
            this.ops = List.copyOf(ops);
            this.maxSends = maxSends;
            this.deadline = deadline;
        }

        /** The next request, or null once the time is up or enough were sent. */
        byte[] next() {
            if (System.nanoTime() - deadline >= 0) {
                return null;
            }
            long n = next.getAndIncrement();
            return n < maxSends ? ops.get((int) (n % ops.size())) : null;
        }

        long deadline() {
            return deadline;
        }
    }

    /** Cuts the byte stream into whole LDAPMessages; each goes on as a retained slice. */
    static final class Frames extends ByteToMessageDecoder {
        private final BerHeader header = new BerHeader();

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            while (true) {
                int start = in.readerIndex();
                BerHeader.Status status = header.read(in, start, in.writerIndex());
                if (status == BerHeader.Status.INCOMPLETE) {
                    return;
                }
                if (status != BerHeader.Status.COMPLETE) {
                    throw new CorruptedFrameException("response is not BER: " + status);
                }
                if (header.elementLength() > in.readableBytes()) {
                    return;
                }
                out.add(in.readRetainedSlice((int) header.elementLength()));
            }
        }
    }

    private final Feed feed;
    private final int window;
    private final BerHeader header = new BerHeader();
    private Channel channel;
    private ChannelFuture closed;
    private int nextId = 1;
    private int unanswered;
    private long sent;
    private long answered;
    private long entries;
    private long failed;

    LoopbackClient(Feed feed, int window) {
        this.feed = feed;
        this.window = window;
    }

    /**
     * The operation part of an encoded LDAPMessage: the bytes after its messageID (protocolOp and any
     * controls), so that it can be sent again under another message ID.
     *
     * @throws IllegalArgumentException when {@code message} is not one whole LDAPMessage
     */
    static byte[] withoutEnvelope(byte[] message) {
        ByteBuf buf = Unpooled.wrappedBuffer(message);
        BerHeader h = new BerHeader();
        if (h.readElement(buf, 0, message.length) != BerHeader.Status.COMPLETE
                || h.tag() != BerHeader.SEQUENCE
                || h.endIndex() != message.length) {
            throw new IllegalArgumentException("not one LDAPMessage");
        }
        int end = h.endIndex();
        if (h.readElement(buf, h.valueIndex(), end) != BerHeader.Status.COMPLETE || h.tag() != BerHeader.INTEGER) {
            throw new IllegalArgumentException("LDAPMessage without a messageID");
        }
        int opStart = h.endIndex();
        if (opStart >= end) {
            throw new IllegalArgumentException("LDAPMessage without a protocolOp");
        }
        byte[] op = new byte[end - opStart];
        System.arraycopy(message, opStart, op, 0, op.length);
        return op;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        closed = channel.closeFuture();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        for (int i = 0; i < window && sendNext(ctx); i++) {
            // fills the window
        }
        ctx.flush();
        closeIfDone(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            read(ctx, (ByteBuf) msg);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        closeIfDone(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private void read(ChannelHandlerContext ctx, ByteBuf pdu) {
        int end = pdu.writerIndex();
        int index = pdu.readerIndex();
        if (header.readElement(pdu, index, end) != BerHeader.Status.COMPLETE) {
            ctx.close();
            return;
        }
        // messageID, then the protocolOp
        if (header.readElement(pdu, header.valueIndex(), end) != BerHeader.Status.COMPLETE) {
            ctx.close();
            return;
        }
        boolean notice = header.valueLength() == 1 && pdu.getByte(header.valueIndex()) == 0;
        if (notice || header.readElement(pdu, header.endIndex(), end) != BerHeader.Status.COMPLETE) {
            // A Notice of Disconnection (message ID 0) or garbage: this connection is over.
            ctx.close();
            return;
        }
        int op = header.tag();
        if (op == SEARCH_RESULT_ENTRY) {
            entries++;
            return;
        }
        if (op == SEARCH_RESULT_REFERENCE || op == INTERMEDIATE_RESPONSE) {
            return;
        }
        answered++;
        unanswered--;
        int opEnd = header.endIndex();
        if (header.readElement(pdu, header.valueIndex(), opEnd) != BerHeader.Status.COMPLETE
                || header.tag() != ENUMERATED
                || !acceptable(pdu.getUnsignedByte(header.endIndex() - 1))) {
            failed++;
        }
        sendNext(ctx);
    }

    private static boolean acceptable(int resultCode) {
        return resultCode == SUCCESS || resultCode == SIZE_LIMIT_EXCEEDED || resultCode == TIME_LIMIT_EXCEEDED;
    }

    /** Writes the next request from the feed (not flushed); false when the feed is dry. */
    private boolean sendNext(ChannelHandlerContext ctx) {
        byte[] op = feed.next();
        if (op == null) {
            return false;
        }
        int id = nextId;
        nextId = nextId == Integer.MAX_VALUE ? 1 : nextId + 1;
        int idLength = id < 0x80 ? 1 : id < 0x8000 ? 2 : id < 0x800000 ? 3 : 4;
        int body = 2 + idLength + op.length;
        ByteBuf out = ctx.alloc().ioBuffer(6 + body);
        out.writeByte(BerHeader.SEQUENCE);
        writeLength(out, body);
        out.writeByte(BerHeader.INTEGER);
        out.writeByte(idLength);
        for (int shift = (idLength - 1) * 8; shift >= 0; shift -= 8) {
            out.writeByte(id >>> shift);
        }
        out.writeBytes(op);
        ctx.write(out, ctx.voidPromise());
        sent++;
        unanswered++;
        return true;
    }

    private static void writeLength(ByteBuf out, int length) {
        if (length < 0x80) {
            out.writeByte(length);
        } else if (length < 0x100) {
            out.writeByte(0x81).writeByte(length);
        } else if (length < 0x10000) {
            out.writeByte(0x82).writeShort(length);
        } else {
            out.writeByte(0x84).writeInt(length);
        }
    }

    private void closeIfDone(ChannelHandlerContext ctx) {
        if (unanswered == 0) {
            ctx.close();
        }
    }

    /** Completes once the connection closed. */
    ChannelFuture closed() {
        return closed;
    }

    /** Closes the connection now (from any thread); what is unanswered stays unanswered. */
    void close() {
        if (channel != null) {
            channel.close().awaitUninterruptibly();
        }
    }

    long sent() {
        return sent;
    }

    long answered() {
        return answered;
    }

    long entries() {
        return entries;
    }

    long failed() {
        return failed;
    }
}
