package dev.larch.server.net;

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
 * authenticated cannot make the server buffer large PDUs. While the connection's {@link ReadGate} is
 * shut, no frame is emitted; the bytes stay buffered until it opens.
 *
 * <p>Stateful: one instance per channel.
 */
final class LdapFrameDecoder extends ByteToMessageDecoder {

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
            case READ_FRAME -> readFrame(in, out);
            case DISCARD -> in.skipBytes(in.readableBytes());
        }
    }

    private void readFrame(ByteBuf in, List<Object> out) {
        if (gate != null && !gate.isOpen()) {
            return;
        }
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
        if (header.tag() != BerHeader.SEQUENCE) {
            fail(in, out, "malformed PDU: not an LDAPMessage");
            return;
        }
        long length = header.elementLength();
        if (length > currentLimit()) {
            fail(in, out, tooLarge());
            return;
        }
        if (in.readableBytes() < length) {
            return;
        }
        out.add(in.readRetainedSlice((int) length));
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
