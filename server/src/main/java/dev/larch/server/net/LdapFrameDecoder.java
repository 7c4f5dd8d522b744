package dev.larch.server.net;

import java.util.ArrayDeque;
import java.util.List;

import dev.larch.server.protocol.Session;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Splits the inbound byte stream into whole LDAPMessage PDUs (RFC 4511 §4.1.1): reads the SEQUENCE tag
 * and definite length at {@code readerIndex()}, waits until the whole PDU is there and emits it as one
 * retained slice. A PDU longer than the limit is refused as soon as its length is known, before its
 * value is buffered. After any framing error the rest of the stream is discarded and an
 * {@link InboundError.Disconnect} goes downstream.
 *
 * <p>The limit depends on the session: while it is anonymous (before a successful bind, or after a
 * bind back to anonymous) the smaller anonymous limit applies, so that a client that has not
 * authenticated cannot make the server buffer large PDUs.
 *
 * <p>While the connection's {@link ReadGate} is shut, requests are held, not emitted: whole frames are
 * copied aside in order and emitted, before anything read later, once the gate opens. Abandon and
 * Unbind requests are the exception: they are emitted at once, ahead of the held requests, so a client
 * at its pending-operation limit can still cancel an operation or leave (RFC 4511 §4.11, §4.3). The
 * decoder keeps reading while shut until the held frames and the partial frame together reach
 * {@value #HOLD_BUDGET_BYTES} bytes (each held frame counting {@value #HELD_FRAME_OVERHEAD} more);
 * then it {@linkplain ReadGate#stopReading() stops reading} altogether, so memory stays bounded. An
 * Abandon sent behind that much is read when the gate opens.
 *
 * <p>Stateful: one instance per channel.
 */
final class LdapFrameDecoder extends ByteToMessageDecoder {

    /** What one connection may hold while its gate is shut, in bytes. */
    static final int HOLD_BUDGET_BYTES = 64 * 1024;

    /** What a held frame costs beyond its bytes (the buffer object), so tiny frames are bounded too. */
    static final int HELD_FRAME_OVERHEAD = 64;

    private enum State {
        READ_FRAME,
        DISCARD
    }

    private final int maxPduBytes;
    private final int maxPduBytesAnonymous;
    /** Null when the limit does not depend on the bind state. */
    private final Session session;
    /** Null when reading is never paused. */
    private final ReadGate gate;

    private final BerHeader header = new BerHeader();
    private final LdapMessageEnvelope envelope = new LdapMessageEnvelope();
    /** Frames read while the gate was shut, oldest first; each is a copy this decoder owns. */
    private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();

    private int heldBytes;
    private State state = State.READ_FRAME;

    /** One limit for every PDU, never paused. */
    LdapFrameDecoder(int maxPduBytes) {
        this(maxPduBytes, maxPduBytes, null, null);
    }

    /**
     * @param maxPduBytes          the limit once {@code session} is bound
     * @param maxPduBytesAnonymous the limit while {@code session} is anonymous, at most {@code maxPduBytes}
     */
    LdapFrameDecoder(int maxPduBytes, int maxPduBytesAnonymous, Session session, ReadGate gate) {
        this.maxPduBytes = maxPduBytes;
        this.maxPduBytesAnonymous = Math.min(maxPduBytes, maxPduBytesAnonymous);
        this.session = session;
        this.gate = gate;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        switch (state) {
            case READ_FRAME -> readFrame(ctx, in, out);
            case DISCARD -> in.skipBytes(in.readableBytes());
        }
    }

    /**
     * Hands on the frames held while the gate was shut, before anything newer; then decodes what was
     * read. Held frames stop flowing as soon as one of them shuts the gate again.
     */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        while (!held.isEmpty() && gate.isOpen()) {
            ByteBuf frame = held.poll();
            heldBytes -= frame.readableBytes() + HELD_FRAME_OVERHEAD;
            ctx.fireChannelRead(frame);
        }
        super.channelRead(ctx, msg);
    }

    /** While shut and within the budget, asks for more bytes: auto-read is off then. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        if (gate != null && !gate.isOpen() && !gate.isStopped()) {
            ctx.read();
        }
    }

    /**
     * Bytes read and not yet handed on: the partial or whole PDUs left in the cumulation, and the
     * frames held while the gate was shut. Called by the handlers behind this one, on the event loop;
     * while this decoder hands a frame on, the bytes read after that frame.
     */
    int bufferedBytes() {
        int bytes = actualReadableBytes();
        for (ByteBuf frame : held) {
            bytes += frame.readableBytes();
        }
        return bytes;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseHeld();
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        releaseHeld();
    }

    private void releaseHeld() {
        ByteBuf frame;
        while ((frame = held.poll()) != null) {
            frame.release();
        }
        heldBytes = 0;
    }

    private void readFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        // Frames held earlier go first: even with the gate open again, newer ones wait behind them.
        boolean holding = gate != null && (!gate.isOpen() || !held.isEmpty());
        switch (header.read(in, in.readerIndex(), in.writerIndex())) {
            case INCOMPLETE -> {
                return;
            }
            case HIGH_TAG_NUMBER -> {
                fail(in, out, "malformed PDU: not an LDAPMessage");
                return;
            }
            case INDEFINITE_LENGTH -> {
                fail(in, out, "malformed PDU: indefinite length");
                return;
            }
            case LENGTH_TOO_LONG -> {
                fail(in, out, tooLarge());
                return;
            }
            case COMPLETE -> {
                // framed below
            }
        }
        if (header.tag() != BerTags.SEQUENCE) {
            fail(in, out, "malformed PDU: not an LDAPMessage");
            return;
        }
        long length = header.elementLength();
        if (length > currentLimit()) {
            fail(in, out, tooLarge());
            return;
        }
        if (in.readableBytes() < length) {
            if (holding && heldBytes + in.readableBytes() >= HOLD_BUDGET_BYTES) {
                gate.stopReading();
            }
            return;
        }
        if (!holding || isAbandonOrUnbind(in, (int) length)) {
            out.add(in.readRetainedSlice((int) length));
            return;
        }
        hold(ctx, in, (int) length);
    }

    /** Copies the frame at the reader index aside, or stops reading when that would pass the budget. */
    private void hold(ChannelHandlerContext ctx, ByteBuf in, int length) {
        int cost = length + HELD_FRAME_OVERHEAD;
        if (heldBytes + cost > HOLD_BUDGET_BYTES) {
            gate.stopReading();
            return;
        }
        ByteBuf copy = ctx.alloc().buffer(length);
        copy.writeBytes(in, length);
        held.add(copy);
        heldBytes += cost;
    }

    private boolean isAbandonOrUnbind(ByteBuf in, int length) {
        if (!envelope.read(in.slice(in.readerIndex(), length))) {
            return false; // malformed: held like any request, and refused in order once the gate opens
        }
        int op = envelope.protocolOpTag();
        return op == BerTags.ABANDON_REQUEST || op == BerTags.UNBIND_REQUEST;
    }

    private boolean anonymous() {
        return session != null && session.isAnonymous();
    }

    private int currentLimit() {
        return anonymous() ? maxPduBytesAnonymous : maxPduBytes;
    }

    private String tooLarge() {
        if (anonymous() && maxPduBytesAnonymous < maxPduBytes) {
            return "PDU exceeds the maximum size of " + maxPduBytesAnonymous + " bytes before a successful bind";
        }
        return "PDU exceeds the maximum size of " + maxPduBytes + " bytes";
    }

    private void fail(ByteBuf in, List<Object> out, String reason) {
        state = State.DISCARD;
        in.skipBytes(in.readableBytes());
        out.add(InboundError.Disconnect.protocolError(reason));
    }
}
