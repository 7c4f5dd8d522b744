package dev.larch.server.net;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

import dev.larch.server.net.proxy.ClientAddress;
import dev.larch.server.net.proxy.ProxyProtocol;
import dev.larch.server.protocol.ByteCounts;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * Builds each connection's pipeline, fresh handlers per channel: [TLS, on the LDAPS port; StartTLS
 * adds it later on the plain port] → [byte counter] → {@link ReadGate} → flush consolidation → [idle timeout] → {@link LdapFrameDecoder} →
 * {@link LdapMessageDecoder} → {@link LdapMessageEncoder} → {@link LdapDispatcher}. Shared by all
 * accepted channels.
 *
 * <p>A connection beyond the {@link ConnectionLimits} gets only an encoder: it is sent a Notice of
 * Disconnection (busy, naming the limit) and closed, and nothing it sends is read.
 *
 * <p>A connection from a load balancer ({@link ProxyProtocol}) first gets only the handlers that read
 * its PROXY header; the client it names ({@link ClientAddress}) is then admitted, counted and given
 * its session as any other, and the pipeline above is built behind them. Every other connection's
 * client is its TCP peer.
 *
 * <p>Public for {@link #standalone}, which benchmarks use to run the whole connection path on an
 * embedded channel; servers get their pipelines from {@link LdapListener}.
 */
public final class LdapChannelInitializer extends ChannelInitializer<Channel> {

    /** Flush at least every this many writes while a search streams outside a read. */
    private static final int FLUSH_EVERY = 64;

    private final ListenerOptions options;
    private final RequestHandler handler;
    private final LdapApiService codec;
    private final InFlightOperations inFlight;
    private final ChannelGroup connections;
    private final ConnectionLimits limits;
    private final TlsOptions tls;
    /** True for the LDAPS port: TLS from the first byte. */
    private final boolean implicitTls;
    /** Counts the LDAP bytes in and out; null for no counting (and no handler for it). */
    private final ByteCountingHandler byteCounter;
    /** The request bytes all connections of the listener hold; shared by both its ports. */
    private final PendingBytesBudget pendingBudget;
    /** Which peers are load balancers that send a PROXY header first. */
    private final ProxyProtocol proxy;

    LdapChannelInitializer(
            ListenerOptions options,
            RequestHandler handler,
            LdapApiService codec,
            InFlightOperations inFlight,
            ChannelGroup connections,
            ConnectionLimits limits,
            TlsOptions tls,
            boolean implicitTls,
            ByteCounts bytes,
            PendingBytesBudget pendingBudget,
            ProxyProtocol proxy) {
        this.pendingBudget = pendingBudget;
        this.proxy = proxy;
        this.byteCounter = bytes == null ? null : new ByteCountingHandler(bytes);
        this.tls = tls;
        this.implicitTls = implicitTls;
        this.options = options;
        this.handler = handler;
        this.codec = codec;
        this.inFlight = inFlight;
        this.connections = connections;
        this.limits = limits;
    }

    /**
     * The pipeline of a channel that belongs to no listener (an {@code EmbeddedChannel}): the same
     * handlers, but nothing waits for its operations at shutdown.
     */
    public static LdapChannelInitializer standalone(ListenerOptions options, RequestHandler handler) {
        return new LdapChannelInitializer(
                options,
                handler,
                LdapApiServiceFactory.getSingleton(),
                new InFlightOperations(),
                new DefaultChannelGroup(ImmediateEventExecutor.INSTANCE),
                ConnectionLimits.unlimited(),
                TlsOptions.NONE,
                false,
                null,
                new PendingBytesBudget(options.maxPendingBytesTotal()),
                ProxyProtocol.OFF);
    }

    @Override
    protected void initChannel(Channel channel) {
        connections.add(channel);
        if (proxy.expectsHeaderFrom(channel.remoteAddress())) {
            // Admitted (and counted) only once the header names the client the limits are about.
            proxy.install(channel.pipeline(), () -> admit(channel));
        } else {
            admit(channel);
        }
    }

    /** Admits the connection's client within the limits and builds its LDAP pipeline, or refuses it. */
    private void admit(Channel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        SocketAddress client = ClientAddress.of(channel);
        ConnectionLimits.Refusal refusal = limits.admit(client);
        if (refusal != null) {
            channel.config().setAutoRead(false);
            pipeline.addLast("encode", new LdapMessageEncoder(codec));
            pipeline.addLast("refuse", new RefuseConnection(refusal.message()));
            return;
        }
        channel.closeFuture().addListener(f -> limits.release(client));
        Session session = LdapDispatcher.newSession(client);
        ReadGate gate = new ReadGate();
        if (implicitTls) {
            pipeline.addLast(StartTls.HANDLER_NAME, tls.newHandler(channel.alloc(), false));
        }
        if (byteCounter != null) {
            // Behind TLS (StartTLS puts its handler first): the LDAP bytes, the same with TLS or without.
            pipeline.addLast("bytes", byteCounter);
        }
        pipeline.addLast("gate", gate);
        pipeline.addLast("flush", new FlushConsolidationHandler(FLUSH_EVERY, true));
        if (options.idleTimeoutSeconds() > 0) {
            pipeline.addLast("idle", new IdleTimeout(options.idleTimeoutSeconds(), TimeUnit.SECONDS));
        }
        pipeline.addLast(
                "frame",
                new LdapFrameDecoder(options.maxPduBytes(), options.effectiveMaxPduBytesAnonymous(), session, gate));
        pipeline.addLast(
                "decode",
                new LdapMessageDecoder(
                        codec, options.maxPduBytes(), options.maxFilterDepth(), options.maxFilterElements()));
        pipeline.addLast("encode", new LdapMessageEncoder(codec));
        pipeline.addLast(
                "dispatch",
                new LdapDispatcher(
                        handler,
                        inFlight,
                        session,
                        gate,
                        options.maxPendingOperations(),
                        tls,
                        new PendingBytes(
                                options.maxPendingBytes(), options.maxPendingBytesAnonymous(), pendingBudget)));
    }

    /** Tells a connection over the limits why it is refused, then closes it. */
    private static final class RefuseConnection extends ChannelInboundHandlerAdapter {
        private final String message;

        RefuseConnection(String message) {
            this.message = message;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(ProtocolResponses.noticeOfDisconnection(ResultCodeEnum.BUSY, message))
                    .addListener(ChannelFutureListener.CLOSE);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
