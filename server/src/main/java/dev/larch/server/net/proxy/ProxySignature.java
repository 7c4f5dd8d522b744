package dev.larch.server.net.proxy;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.haproxy.HAProxyProtocolException;
import io.netty.util.ReferenceCountUtil;

/**
 * Fails a connection as soon as its first bytes cannot begin a PROXY header: neither the v2 signature
 * nor v1's {@code "PROXY "}. Netty's decoder waits for 13 bytes and then reads anything that is not v2
 * as a v1 line of up to 107 bytes; a balancer that sends LDAP without a header (its first byte is
 * 0x30) would wait for the timeout. Passes every byte on unchanged and leaves the pipeline once a
 * signature is complete. One per connection.
 */
final class ProxySignature extends ChannelInboundHandlerAdapter {
    private static final byte[] V1 = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] V2 = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    /** Bytes of the connection checked so far. */
    private int seen;

    private boolean maybeV1 = true;
    private boolean maybeV2 = true;
    private boolean failed;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (failed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (!(msg instanceof ByteBuf bytes)) {
            ctx.fireChannelRead(msg);
            return;
        }
        for (int i = bytes.readerIndex(); i < bytes.writerIndex() && !complete(); i++, seen++) {
            byte b = bytes.getByte(i);
            maybeV1 &= seen < V1.length && V1[seen] == b;
            maybeV2 &= seen < V2.length && V2[seen] == b;
            if (!maybeV1 && !maybeV2) {
                failed = true;
                bytes.release();
                ctx.fireExceptionCaught(new HAProxyProtocolException(
                        "no PROXY protocol signature: byte " + seen + " is 0x" + Integer.toHexString(b & 0xFF)));
                return;
            }
        }
        boolean complete = complete();
        ctx.fireChannelRead(msg);
        if (complete && !ctx.isRemoved()) {
            ctx.pipeline().remove(this);
        }
    }

    private boolean complete() {
        return (maybeV1 && seen == V1.length) || (maybeV2 && seen == V2.length);
    }
}
