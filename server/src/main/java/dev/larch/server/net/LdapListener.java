package dev.larch.server.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import dev.larch.server.net.proxy.ProxyProtocol;
import dev.larch.server.protocol.ByteCounts;
import dev.larch.server.protocol.RequestHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One LDAP listening socket and its connections.
 *
 * <pre>
 * LdapListener listener = LdapListener.start(options, handler);   // bound and accepting
 * InetSocketAddress where = listener.address();
 * ...
 * listener.stop(Duration.ofSeconds(10));                           // on SIGTERM
 * </pre>
 *
 * <p>Thread-safe; {@link #stop} is idempotent and may be called from any thread but not from an
 * event-loop thread of this listener (it blocks).
 */
public final class LdapListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LdapListener.class);
    private static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);
    private static final Duration NOTICE_GRACE = Duration.ofMillis(500);
    /**
     * A connection is unwritable once more than this many response bytes wait to be sent; it becomes
     * writable again below {@link #LOW_WATER_MARK}.
     */
    static final int HIGH_WATER_MARK = 256 * 1024;

    static final int LOW_WATER_MARK = 64 * 1024;

    /** The acceptor's loop; null when every loop accepts its own connections ({@link ListeningSockets}). */
    private final EventLoopGroup acceptGroup;

    private final EventLoopGroup ioGroup;
    private final ListeningSockets serverSockets;
    /** The LDAPS sockets, or null when there are none. */
    private final ListeningSockets ldapsSockets;

    private final ChannelGroup connections;
    private final InFlightOperations inFlight;
    private final ConnectionLimits limits;
    private final InetSocketAddress address;
    private boolean stopped;

    private LdapListener(
            EventLoopGroup acceptGroup,
            EventLoopGroup ioGroup,
            ListeningSockets serverSockets,
            ListeningSockets ldapsSockets,
            ChannelGroup connections,
            InFlightOperations inFlight,
            ConnectionLimits limits) {
        this.acceptGroup = acceptGroup;
        this.ioGroup = ioGroup;
        this.serverSockets = serverSockets;
        this.ldapsSockets = ldapsSockets;
        this.connections = connections;
        this.inFlight = inFlight;
        this.limits = limits;
        this.address = serverSockets.address();
    }

    /**
     * Binds {@code options.host():options.port()} and starts accepting; returns once the socket is
     * bound. Uses native epoll where available (a listening socket per event loop), NIO otherwise (one
     * acceptor thread).
     *
     * @throws IOException when the address cannot be bound (in use, no such interface, no permission)
     */
    public static LdapListener start(ListenerOptions options, RequestHandler handler) throws IOException {
        return start(options, TlsOptions.NONE, handler);
    }

    /**
     * As {@link #start(ListenerOptions, RequestHandler)}, with StartTLS on the plain port when
     * {@code tls} has a context, and a second socket on {@code tls.ldapsPort()} (same host, same event
     * loops and connection limits) that speaks TLS from the first byte when that port is not 0.
     *
     * @throws IOException when either address cannot be bound; then neither is
     */
    public static LdapListener start(ListenerOptions options, TlsOptions tls, RequestHandler handler)
            throws IOException {
        return start(options, tls, handler, null);
    }

    /**
     * As {@link #start(ListenerOptions, TlsOptions, RequestHandler)}, telling {@code bytes} of every
     * chunk of LDAP bytes read and written (null: nothing counted, no handler added).
     */
    public static LdapListener start(ListenerOptions options, TlsOptions tls, RequestHandler handler, ByteCounts bytes)
            throws IOException {
        return start(options, tls, handler, bytes, BeforeListening.NOTHING);
    }

    /**
     * As {@link #start(ListenerOptions, TlsOptions, RequestHandler, ByteCounts)}, running {@code before}
     * on the listener's event loops before any port is bound (the self-warm-up). A failure of {@code
     * before} is logged and the ports are bound anyway.
     */
    public static LdapListener start(
            ListenerOptions options, TlsOptions tls, RequestHandler handler, ByteCounts bytes, BeforeListening before)
            throws IOException {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(handler, "handler");
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelType =
                epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup acceptGroup = epoll ? null : new MultiThreadIoEventLoopGroup(1, io);
        EventLoopGroup ioGroup = new MultiThreadIoEventLoopGroup(options.eventLoops(), io);
        ChannelGroup connections = new DefaultChannelGroup("ldap-connections", GlobalEventExecutor.INSTANCE);
        InFlightOperations inFlight = new InFlightOperations();
        ConnectionLimits limits = new ConnectionLimits(options.maxConnections(), options.maxConnectionsPerAddress());
        PendingBytesBudget pendingBudget = new PendingBytesBudget(options.maxPendingBytesTotal());
        ProxyProtocol proxy = new ProxyProtocol(options.proxyProtocolFrom());
        try {
            probePorts(options, tls);
            runBefore(before, new LoopbackLoad(ioGroup, channelType, options));
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .channel(channelType)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.SO_KEEPALIVE, true)
                    .childOption(
                            ChannelOption.WRITE_BUFFER_WATER_MARK,
                            new WriteBufferWaterMark(LOW_WATER_MARK, HIGH_WATER_MARK))
                    .childHandler(new LdapChannelInitializer(
                            options,
                            handler,
                            LdapApiServiceFactory.getSingleton(),
                            inFlight,
                            connections,
                            limits,
                            tls,
                            false,
                            bytes,
                            pendingBudget,
                            proxy));
            ListeningSockets server =
                    ListeningSockets.bind(bootstrap, acceptGroup, ioGroup, options.host(), options.port());
            ListeningSockets ldaps = null;
            if (tls.ldapsPort() != 0) {
                try {
                    ServerBootstrap ldapsBootstrap = bootstrap
                            .clone()
                            .childHandler(new LdapChannelInitializer(
                                    options,
                                    handler,
                                    LdapApiServiceFactory.getSingleton(),
                                    inFlight,
                                    connections,
                                    limits,
                                    tls,
                                    true,
                                    bytes,
                                    pendingBudget,
                                    proxy));
                    ldaps = ListeningSockets.bind(
                            ldapsBootstrap, acceptGroup, ioGroup, options.host(), tls.ldapsPort());
                } catch (RuntimeException e) {
                    server.close();
                    throw new IOException(
                            "cannot listen on " + options.host() + ":" + tls.ldapsPort() + " (listen.ldaps-port): "
                                    + e.getMessage(),
                            e);
                }
            }
            LdapListener listener =
                    new LdapListener(acceptGroup, ioGroup, server, ldaps, connections, inFlight, limits);
            LOG.debug("listening on {} ({})", listener.address, epoll ? "epoll" : "nio");
            return listener;
        } catch (Exception e) {
            if (acceptGroup != null) {
                acceptGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            }
            ioGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            if (e instanceof IOException io2) {
                throw io2;
            }
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": " + e, e);
        }
    }

    /**
     * Fails at once, not after a warm-up of many seconds, when a port the listener will bind is
     * taken. The ports are bound for real only afterwards, so this is a courtesy, not a guarantee.
     */
    private static void probePorts(ListenerOptions options, TlsOptions tls) throws IOException {
        probe(options.host(), options.port());
        if (tls.ldapsPort() != 0) {
            try {
                probe(options.host(), tls.ldapsPort());
            } catch (IOException e) {
                throw new IOException(
                        "cannot listen on " + options.host() + ":" + tls.ldapsPort() + " (listen.ldaps-port): "
                                + e.getMessage(),
                        e);
            }
        }
    }

    /** Binds and at once closes {@code host:port} (with SO_REUSEADDR, as the listener binds); 0 is any port. */
    private static void probe(String host, int port) throws IOException {
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(host, port));
        }
    }

    /** Runs {@code before}; whatever goes wrong in it, the listener still opens its ports. */
    private static void runBefore(BeforeListening before, LoopbackLoad loopback) {
        try {
            before.run(loopback);
        } catch (RuntimeException e) {
            LOG.warn("before listening: {}; opening the port anyway", e.toString(), e);
        }
    }

    /**
     * The event loops connections run on, for other client-side work of the server (replication
     * sessions) that should cost no thread of its own; they stop when the listener closes.
     */
    public EventLoopGroup ioGroup() {
        return ioGroup;
    }

    /** The bound address (with the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return address;
    }

    /** The bound LDAPS address, or null when the listener has no LDAPS port. */
    public InetSocketAddress ldapsAddress() {
        return ldapsSockets == null ? null : ldapsSockets.address();
    }

    /** Whether the listening socket is open and accepting connections (false once {@link #stop} began). */
    public boolean isAccepting() {
        return serverSockets.isActive();
    }

    /** Connections open now (admitted within the limits and not yet closed). */
    public int openConnections() {
        return limits.open();
    }

    /**
     * Connections refused since the listener started because they were over {@code listen.max-connections}
     * or {@code listen.max-connections-per-address}; each got a Notice of Disconnection (busy).
     */
    public long refusedConnections() {
        return limits.refused();
    }

    /**
     * Stops: closes the listening socket first, then waits up to {@code grace} for operations in
     * flight to complete (new requests on open connections get unavailable meanwhile), then sends each
     * connection a Notice of Disconnection (unavailable), closes them all and shuts the event loops down.
     * Returns when everything is closed. Later calls return at once.
     */
    public synchronized void stop(Duration grace) {
        if (stopped) {
            return;
        }
        stopped = true;
        long deadline = System.nanoTime() + Math.max(0, grace.toNanos());
        serverSockets.close();
        if (ldapsSockets != null) {
            ldapsSockets.close();
        }
        inFlight.startDraining();
        for (Channel connection : connections) {
            connection.pipeline().fireUserEventTriggered(ShutdownNotice.DRAINING);
        }
        if (!inFlight.awaitIdle(deadline)) {
            LOG.warn(
                    "{} operation(s) still running after {} ms; closing their connections",
                    inFlight.count(),
                    grace.toMillis());
        }
        for (Channel connection : connections) {
            connection.pipeline().fireUserEventTriggered(ShutdownNotice.INSTANCE);
        }
        connections.newCloseFuture().awaitUninterruptibly(NOTICE_GRACE.toMillis());
        connections.close().awaitUninterruptibly(NOTICE_GRACE.toMillis());
        if (acceptGroup != null) {
            acceptGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
        ioGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (acceptGroup != null) {
            acceptGroup.terminationFuture().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        ioGroup.terminationFuture().awaitUninterruptibly(2, TimeUnit.SECONDS);
        LOG.debug("listener on {} stopped", address);
    }

    /** {@link #stop(Duration)} with a five-second grace. */
    @Override
    public void close() {
        stop(DEFAULT_GRACE);
    }
}
