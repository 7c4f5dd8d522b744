package dev.larch.server.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import dev.larch.server.net.proxy.ProxyProtocol;
import dev.larch.server.protocol.ByteCounts;
import dev.larch.server.protocol.RequestHandler;
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
 * <p>The client ends are plain JDK sockets, each on a thread of its own ({@link LoopbackClient}): a
 * Netty client in this JVM would run the same Netty code as the server side with other handlers and
 * buffers, and the JIT would compile that code for the mixture, then again for the server alone once
 * real clients came. The pipeline behind the listening socket has no TLS and connection limits of its
 * own; what the requests pass through beyond it is the {@link RequestHandler} given to {@link #drive}.
 *
 * <p>Bounds: {@code connections} threads, {@code connections × window} requests in flight at once;
 * responses are read, counted and dropped as they arrive, never kept. Not thread-safe: one {@link
 * #drive} at a time.
 */
public final class LoopbackLoad {
    /** How long the connections get to answer what is in flight after the time is up. */
    private static final Duration DRAIN = Duration.ofSeconds(5);
    /** How often {@link #drive} asks whether the load has done enough. */
    private static final Duration POLL = Duration.ofMillis(250);

    private final EventLoopGroup group;
    private final Class<? extends ServerChannel> serverType;
    private final ListenerOptions options;

    LoopbackLoad(EventLoopGroup group, Class<? extends ServerChannel> serverType, ListenerOptions options) {
        this.group = group;
        this.serverType = serverType;
        this.options = options;
    }

    /**
     * The listener's event loops, for other work that starts before the ports open (a replica's sessions
     * with its providers).
     */
    public EventLoopGroup ioGroup() {
        return group;
    }

    /** The event loops the server ends of the connections run on. */
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
     * were sent, or {@code enough} says so; then waits up to five seconds for the answers in flight
     * and closes everything. Returns at once, doing nothing, when {@code requests} is empty.
     *
     * @param handler what serves the requests behind the connection pipeline
     * @param bytes told of the bytes the server ends read and write, as the listener's byte counter
     *     is; null for no byte counter in the pipeline
     * @param requests whole encoded LDAPMessages (any message ID: each is renumbered as it is sent);
     *     each a request that needs no bind
     * @param maxSends the most requests sent in all, at least 1
     * @param connections at least 1
     * @param window unanswered requests per connection, at least 1
     * @param enough asked on the calling thread four times a second while requests are sent: true
     *     ends the load early
     * @throws IllegalArgumentException when a request is not one LDAPMessage
     * @throws UncheckedIOException when a loopback connection cannot be opened
     */
    public Result drive(
            RequestHandler handler,
            ByteCounts bytes,
            List<byte[]> requests,
            long maxSends,
            Duration duration,
            int connections,
            int window,
            BooleanSupplier enough) {
        Objects.requireNonNull(handler, "handler");
        Objects.requireNonNull(enough, "enough");
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
                bytes,
                new PendingBytesBudget(options.maxPendingBytesTotal()),
                // Its own connections, never a balancer's, whatever listen.proxy-protocol-from says.
                ProxyProtocol.OFF);
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
        List<Thread> threads = new ArrayList<>();
        try {
            InetSocketAddress serverAddress = (InetSocketAddress) server.localAddress();
            for (int i = 0; i < connections; i++) {
                Socket socket = new Socket();
                LoopbackClient client = new LoopbackClient(socket, feed, window);
                clients.add(client);
                // Bound first, so that the server side knows the client end before it is accepted.
                socket.bind(new InetSocketAddress(loopback, 0));
                ownPorts.add(socket.getLocalPort());
                socket.setTcpNoDelay(true);
                socket.connect(serverAddress);
            }
            for (int i = 0; i < clients.size(); i++) {
                threads.add(Thread.ofPlatform()
                        .name("larch-warm-up-client-" + i)
                        .daemon()
                        .start(clients.get(i)));
            }
            while (!feed.isDry()) {
                // An interrupt ends the load too: the server is being stopped.
                if (enough.getAsBoolean() || !sleep(POLL)) {
                    feed.stop();
                    break;
                }
            }
            long drainUntil = System.nanoTime() + DRAIN.toNanos();
            for (int i = 0; i < threads.size(); i++) {
                long left = drainUntil - System.nanoTime();
                if (!join(threads.get(i), Math.max(0, TimeUnit.NANOSECONDS.toMillis(left)))) {
                    clients.get(i).close();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a loopback connection for the warm-up: " + e, e);
        } finally {
            for (LoopbackClient client : clients) {
                client.close();
            }
            for (Thread thread : threads) {
                join(thread, DRAIN.toMillis());
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

    /** Sleeps for {@code time}; false, keeping the interrupt for the caller, when interrupted. */
    private static boolean sleep(Duration time) {
        try {
            Thread.sleep(time);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Waits up to {@code millis} (0: not at all) for {@code thread} to end; true when it did. */
    private static boolean join(Thread thread, long millis) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return millis == 0 ? !thread.isAlive() : thread.join(Duration.ofMillis(millis));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
