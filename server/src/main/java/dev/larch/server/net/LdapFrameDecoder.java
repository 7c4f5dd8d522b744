package dev.larch.server.net;

import java.util.List;

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
 * <p>Stateful: one instance per channel.
 */
final class LdapFrameDecoder extends ByteToMessageDecoder {

    private enum State {
        READ_FRAME,
        DISCARD
    }

    private final int maxPduBytes;
    private final BerHeader header = new BerHeader();
    private State state = State.READ_FRAME;

    LdapFrameDecoder(int maxPduBytes) {
        this.maxPduBytes = maxPduBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        switch (state) {
            case READ_FRAME -> readFrame(in, out);
            case DISCARD -> in.skipBytes(in.readableBytes());
        }
    }

    private void readFrame(ByteBuf in, List<Object> out) {
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
                fail(in, out, "PDU exceeds the maximum size of " + maxPduBytes + " bytes");
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
        if (length > maxPduBytes) {
            fail(in, out, "PDU exceeds the maximum size of " + maxPduBytes + " bytes");
            return;
        }
        if (in.readableBytes() < length) {
            return;
        }
        out.add(in.readRetainedSlice((int) length));
    }

    private void fail(ByteBuf in, List<Object> out, String reason) {
        state = State.DISCARD;
        in.skipBytes(in.readableBytes());
        out.add(InboundError.Disconnect.protocolError(reason));
    }
}
