package dev.larch.server.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.larch.server.protocol.RequestHandler;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;

/**
 * Request load over loopback connections that only this class can make: a listening socket on
 * 127.0.0.1 and an ephemeral port, which admits only connections whose client ends it opened itself,
 * in front of the same connection pipeline ({@link LdapChannelInitializer}) real clients get, on the
 * listener's event loops. Used by the self-warm-up before the real ports are bound.
 *
 * <p>The pipeline behind it has no byte counter, no TLS, and connection limits of its own; what the
 * requests pass through beyond the pipeline is the {@link RequestHandler} given to {@link #drive}.
 *
 * <p>Bounds: {@code connections × window} requests in flight at once; responses are read, counted
 * and released as they arrive, never kept. Not thread-safe: one {@link #drive} at a time.
 */
public final class LoopbackLoad {
    /** How long the connections get to answer what is in flight after the time is up. */
    private static final Duration DRAIN = Duration.ofSeconds(5);

    private final EventLoopGroup group;
    private final Class<? extends ServerChannel> serverType;
    private final Class<? extends Channel> clientType;
    private final ListenerOptions options;

    LoopbackLoad(
            EventLoopGroup group,
            Class<? extends ServerChannel> serverType,
            Class<? extends Channel> clientType,
            ListenerOptions options) {
        this.group = group;
        this.serverType = serverType;
        this.clientType = clientType;
        this.options = options;
    }

    /** The event loops the connections run on: as many connections keep every one of them busy. */
    public int eventLoops() {
        int n = 0;
        for (var ignored : group) {
            n++;
        }
        return Math.max(1, n);
    }

    /**
     * What one {@link #drive} did.
     *
     * @param sent requests sent
     * @param answered requests whose final response arrived
     * @param entries search result entries received
     * @param failed final responses with a result code other than success, sizeLimitExceeded or
     *     timeLimitExceeded, and requests left unanswered when the connections closed
     * @param connections loopback connections used
     * @param nanos from the first connection to the last one closed
     */
    public record Result(long sent, long answered, long entries, long failed, int connections, long nanos) {
        /** Nothing done (no request to send). */
        static final Result NONE = new Result(0, 0, 0, 0, 0, 0);
    }

    /**
     * Sends {@code requests} in turn, round robin over {@code connections} connections with up to
     * {@code window} unanswered on each, until {@code duration} is over or {@code maxSends} requests
     * were sent; then waits up to five seconds for the answers in flight and closes everything.
     * Returns at once, doing nothing, when {@code requests} is empty.
     *
     * @param handler what serves the requests behind the connection pipeline
     * @param requests whole encoded LDAPMessages (any message ID: each is renumbered as it is sent);
     *     each a request that needs no bind
     * @param maxSends the most requests sent in all, at least 1
     * @param connections at least 1
     * @param window unanswered requests per connection, at least 1
     * @throws IllegalArgumentException when a request is not one LDAPMessage
     */
    public Result drive(
            RequestHandler handler,
            List<byte[]> requests,
            long maxSends,
            Duration duration,
            int connections,
            int window) {
        Objects.requireNonNull(handler, "handler");
        if (requests.isEmpty()) {
            return Result.NONE;
        }
        if (maxSends < 1 || connections < 1 || window < 1) {
            throw new IllegalArgumentException("maxSends, connections and window must be at least 1");
        }
        List<byte[]> ops = new ArrayList<>(requests.size());
        for (byte[] request : requests) {
            ops.add(LoopbackClient.withoutEnvelope(request));
        }
        long start = System.nanoTime();
        LoopbackClient.Feed feed = new LoopbackClient.Feed(ops, maxSends, start + duration.toNanos());
        Set<Integer> ownPorts = ConcurrentHashMap.newKeySet();
        ChannelGroup serverSide = new DefaultChannelGroup("warm-up-server", GlobalEventExecutor.INSTANCE);
        LdapChannelInitializer pipeline = new LdapChannelInitializer(
                options,
                handler,
                LdapApiServiceFactory.getSingleton(),
                new InFlightOperations(),
                serverSide,
                ConnectionLimits.unlimited(),
                TlsOptions.NONE,
                false,
                null);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        Channel server = new ServerBootstrap()
                .group(group)
                .channel(serverType)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(LdapListener.LOW_WATER_MARK, LdapListener.HIGH_WATER_MARK))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        // Only the client ends opened below: anything else on this host is shut out.
                        if (!(channel.remoteAddress() instanceof InetSocketAddress remote)
                                || !remote.getAddress().isLoopbackAddress()
                                || !ownPorts.contains(remote.getPort())) {
                            channel.close();
                            return;
                        }
                        pipeline.initChannel(channel);
                    }
                })
                .bind(loopback, 0)
                .syncUninterruptibly()
                .channel();
        List<LoopbackClient> clients = new ArrayList<>();
        try {
            InetSocketAddress serverAddress = (InetSocketAddress) server.localAddress();
            Bootstrap bootstrap =
                    new Bootstrap().group(group).channel(clientType).option(ChannelOption.TCP_NODELAY, true);
            for (int i = 0; i < connections; i++) {
                LoopbackClient client = new LoopbackClient(feed, window);
                Channel channel = bootstrap
                        .clone()
                        .handler(new ChannelInitializer<Channel>() {
                            @Override
                            protected void initChannel(Channel ch) {
                                ch.pipeline()
                                        .addLast("frames", new LoopbackClient.Frames())
                                        .addLast("client", client);
                            }
                        })
                        .register()
                        .syncUninterruptibly()
                        .channel();
                clients.add(client);
                // Bound first, so that the server side knows the client end before it is accepted.
                channel.bind(new InetSocketAddress(loopback, 0)).syncUninterruptibly();
                ownPorts.add(((InetSocketAddress) channel.localAddress()).getPort());
                channel.connect(serverAddress).syncUninterruptibly();
            }
            long drainUntil = feed.deadline() + DRAIN.toNanos();
            for (LoopbackClient client : clients) {
                long left = drainUntil - System.nanoTime();
                if (!client.closed().awaitUninterruptibly(Math.max(0, TimeUnit.NANOSECONDS.toMillis(left)))) {
                    client.close();
                }
            }
        } finally {
            for (LoopbackClient client : clients) {
                client.close();
            }
            server.close().syncUninterruptibly();
            serverSide.close().awaitUninterruptibly(DRAIN.toMillis());
        }
        long sent = 0;
        long answered = 0;
        long entries = 0;
        long failed = 0;
        for (LoopbackClient client : clients) {
            sent += client.sent();
            answered += client.answered();
            entries += client.entries();
            failed += client.failed() + client.sent() - client.answered();
        }
        return new Result(sent, answered, entries, failed, clients.size(), System.nanoTime() - start);
    }
}
