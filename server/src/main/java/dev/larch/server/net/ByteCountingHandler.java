package dev.larch.server.net;

import dev.larch.server.protocol.ByteCounts;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * Counts the bytes passing between the socket (or TLS) and the LDAP codec and passes everything on
 * unchanged. Stateless, so one instance serves every channel.
 */
@ChannelHandler.Sharable
final class ByteCountingHandler extends ChannelDuplexHandler {
    private final ByteCounts counts;

    ByteCountingHandler(ByteCounts counts) {
        this.counts = counts;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            counts.received(buf.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf buf) {
            counts.sent(buf.readableBytes());
        }
        ctx.write(msg, promise);
    }
}
