package dev.larch.server.fuzz;

import io.netty.buffer.ByteBuf;

/** Copies the readable bytes of a buffer for a failure message, without moving its indices. */
final class ByteBufBytes {
    private ByteBufBytes() {}

    static byte[] of(ByteBuf buf, int max) {
        byte[] out = new byte[Math.min(max, buf.readableBytes())];
        buf.getBytes(buf.readerIndex(), out);
        return out;
    }
}
