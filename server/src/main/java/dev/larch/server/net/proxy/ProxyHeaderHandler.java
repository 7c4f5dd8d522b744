package dev.larch.server.net.proxy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.util.NetUtil;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the decoded PROXY header of a balancer's connection and hands the connection on as the
 * client's: records the client address ({@link ClientAddress}), runs the continuation that builds the
 * LDAP pipeline behind this handler, lets that pipeline see the channel become active, and leaves.
 *
 * <p>Which address the header gives: a TCP source (IPv4 or IPv6) with its port; the balancer's own
 * for a {@code LOCAL} header (health checks), an {@code UNKNOWN} or {@code UNSPEC} one (the protocol
 * says to use the real connection's then) and a UNIX socket source (no IP to key on). A UDP source
 * cannot describe an LDAP connection: it is refused as a bad header.
 *
 * <p>The connection is closed, with a warning naming the balancer, when the header is bad (any
 * decoder failure), missing, or not complete within the timeout; until then the channel's activation
 * is held back, so nothing behind sees a connection whose client is unknown. One per connection.
 */
final class ProxyHeaderHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyHeaderHandler.class);

    private final long timeoutMillis;
    private final Runnable onClient;
    private ScheduledFuture<?> timeout;
    private boolean failed;

    ProxyHeaderHandler(long timeoutMillis, Runnable onClient) {
        this.timeoutMillis = timeoutMillis;
        this.onClient = onClient;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timeout = ctx.executor()
                .schedule(
                        () -> fail(ctx, "no complete PROXY header within " + timeoutMillis + " ms", null),
                        timeoutMillis,
                        TimeUnit.MILLISECONDS);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        timeout.cancel(false);
    }

    /** Held back until the client is known: the pipeline that would see it does not exist yet. */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {}

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        timeout.cancel(false);
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (failed || !(msg instanceof HAProxyMessage header)) {
            // Bytes the decoder hands on when it leaves after a failure: nobody reads them.
            ReferenceCountUtil.release(msg);
            return;
        }
        SocketAddress client;
        String protocol = header.proxiedProtocol().name();
        try {
            client = clientOf(header, ctx.channel().remoteAddress());
        } finally {
            header.release();
        }
        if (client == null) {
            fail(ctx, "a " + protocol + " PROXY header cannot describe an LDAP connection", null);
            return;
        }
        timeout.cancel(false);
        ClientAddress.set(ctx.channel(), client);
        onClient.run();
        if (ctx.channel().isActive()) {
            ctx.fireChannelActive();
        }
        ctx.pipeline().remove(this);
    }

    /**
     * Every failure of the header: the signature check's, the decoder's (which wraps anything thrown
     * while decoding in a {@link DecoderException}). Anything else is a fault here, passed on as well.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, cause.getMessage(), cause);
        if (!(cause instanceof DecoderException)) {
            ctx.fireExceptionCaught(cause);
        }
    }

    private void fail(ChannelHandlerContext ctx, String reason, Throwable cause) {
        if (!failed) {
            failed = true;
            LOG.warn(
                    "closed the connection from {}: it is in listen.proxy-protocol-from and did not start with a valid"
                            + " PROXY header: {}",
                    ctx.channel().remoteAddress(),
                    reason);
            LOG.debug("PROXY header failure", cause);
        }
        timeout.cancel(false);
        ctx.close();
    }

    /** The client a header names, {@code peer} where it names none; null for a header that cannot apply. */
    private static SocketAddress clientOf(HAProxyMessage header, SocketAddress peer) {
        if (header.command() == HAProxyCommand.LOCAL) {
            return peer;
        }
        return switch (header.proxiedProtocol()) {
            case TCP4, TCP6 -> new InetSocketAddress(ip(header.sourceAddress()), header.sourcePort());
            case UNKNOWN, UNIX_STREAM, UNIX_DGRAM -> peer;
            case UDP4, UDP6 -> null;
        };
    }

    /** The decoder checked the literal; no name is ever looked up. */
    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByAddress(NetUtil.createByteArrayFromIpAddressString(literal));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("not an IP literal: " + literal, e);
        }
    }
}
