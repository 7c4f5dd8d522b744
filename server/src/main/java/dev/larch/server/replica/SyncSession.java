package dev.larch.server.replica;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.config.ReplicationConsumer;
import dev.larch.server.net.LdapMessageEncoder;
import dev.larch.server.sync.SyncRequestControlFactory;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer side of content synchronization (RFC 4533) for one provider: connects, optionally
 * negotiates TLS (ldaps:// or StartTLS), binds, runs the sync search and hands what the provider sends, as
 * {@link ReplicaChange} batches, to a {@link ReplicaSink}, at most one batch outstanding and reading
 * paused meanwhile ({@link SyncConnection}). After any failure (the connection lost, a bind refused, bad
 * input from the provider, a batch the sink refused) it logs one line, closes the connection and
 * reconnects after a back-off that doubles up to the configured bound, forever, with the cookie the sink
 * has stored then.
 *
 * <p>No thread of its own: everything runs on one event loop of the group handed in. {@link #start()},
 * {@link #close()} and {@link #status()} may be called from any thread.
 */
public final class SyncSession implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SyncSession.class);

    /** How long a TCP connect may take. */
    static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    /** The largest message accepted from a provider: an entry with large values, well beyond any sane one. */
    static final int MAX_PDU_BYTES = 64 << 20;

    private final ReplicationConsumer consumer;
    private final String suffix;
    private final int serverId;
    private final ReplicaSink sink;
    private final SslContext tls;
    private final EventLoop loop;
    private final Class<? extends SocketChannel> channelClass;
    private final LdapApiService codec;

    // Confined to the event loop.
    private final Backoff backoff;
    private Channel channel;
    private CompletableFuture<Void> lastApply = CompletableFuture.completedFuture(null);
    private boolean started;

    // Read by status() from any thread.
    private volatile boolean closed;
    private volatile SyncSessionStatus.State state = SyncSessionStatus.State.CONNECTING;
    private volatile String lastCookie;
    private final AtomicLong changesReceived = new AtomicLong();
    private volatile String lastError;
    private volatile Instant lastErrorAt;
    private final AtomicLong connects = new AtomicLong();

    /**
     * @param consumer the provider and how to follow it
     * @param suffix the search base: this server's suffix
     * @param serverId this server's ID, in the cookie of a first refresh
     * @param sink where changes go
     * @param group the event loops (NIO or epoll) the connection runs on; one of them is used
     * @param tls the client TLS context ({@code tls.ca-certificates}, see {@code ProviderTrust}); required
     *     when the consumer uses ldaps:// or StartTLS, else ignored
     * @throws IllegalArgumentException when TLS is configured and {@code tls} is null
     */
    public SyncSession(
            ReplicationConsumer consumer,
            String suffix,
            int serverId,
            ReplicaSink sink,
            EventLoopGroup group,
            SslContext tls) {
        if (consumer.tls() && tls == null) {
            throw new IllegalArgumentException(
                    consumer.key(consumer.ldaps() ? "provider-url" : "start-tls")
                            + " asks for TLS: tls.ca-certificates must name the authorities its provider's certificate chains to");
        }
        this.consumer = consumer;
        this.suffix = suffix;
        this.serverId = serverId;
        this.sink = sink;
        this.tls = tls;
        this.loop = group.next();
        this.channelClass = group instanceof IoEventLoopGroup io && io.isIoType(EpollIoHandler.class)
                ? EpollSocketChannel.class
                : NioSocketChannel.class;
        this.codec = LdapApiServiceFactory.getSingleton();
        SyncRequestControlFactory.install(codec);
        this.backoff = new Backoff(consumer.retrySeconds(), consumer.maxRetrySeconds());
    }

    /** Connects for the first time; idempotent. Failures are retried, never thrown. */
    public void start() {
        loop.execute(() -> {
            if (!started && !closed) {
                started = true;
                connect();
            }
        });
    }

    /** Stops for good: closes the connection, cancels any pending reconnect; never reconnects after. */
    @Override
    public void close() {
        closed = true;
        state = SyncSessionStatus.State.CLOSED;
        loop.execute(() -> {
            if (channel != null) {
                channel.close();
            }
        });
    }

    /** What the session is doing now. */
    public SyncSessionStatus status() {
        return new SyncSessionStatus(
                consumer.providerUrl(),
                consumer.rid(),
                state,
                lastCookie,
                changesReceived.get(),
                lastError,
                lastErrorAt,
                connects.get());
    }

    private void connect() {
        if (closed) {
            return;
        }
        state = SyncSessionStatus.State.CONNECTING;
        SyncConnection connection = new SyncConnection(this, consumer, suffix, serverId, sink);
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(channelClass)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (consumer.ldaps()) {
                            ch.pipeline().addLast("tls", tlsHandler(ch));
                        }
                        ch.pipeline()
                                .addLast("decoder", new ProviderMessageDecoder(codec, MAX_PDU_BYTES))
                                .addLast("encoder", new LdapMessageEncoder(codec))
                                .addLast("sync", connection);
                    }
                });
        ChannelFuture future = bootstrap.connect(consumer.host(), consumer.port());
        channel = future.channel();
        future.addListener(f -> {
            if (!f.isSuccess()) {
                connection.fail("cannot connect: " + SyncConnection.oneLine(f.cause()));
            }
        });
    }

    /** A TLS handler for the provider's host and port, which the engine checks the certificate against. */
    SslHandler tlsHandler(Channel ch) {
        return tls.newHandler(ch.alloc(), consumer.host(), consumer.port());
    }

    /** The TCP connection is up. */
    void connected() {
        connects.incrementAndGet();
    }

    void state(SyncSessionStatus.State now) {
        if (!closed) {
            state = now;
        }
    }

    void received(ReplicaChange change) {
        changesReceived.incrementAndGet();
        if (change.cookie() != null) {
            lastCookie = change.cookie().format();
        }
    }

    void applying(CompletableFuture<Void> apply) {
        lastApply = apply;
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * The connection ended; reconnects after the back-off, once the last batch handed to the sink has
     * completed (so the cookie then stored covers it).
     *
     * @param error the one-line reason, or null when the end was expected (a search the provider ended)
     * @param progressed whether the connection reached the persist stage or completed a refresh
     */
    void ended(String error, boolean progressed) {
        if (progressed) {
            backoff.reset();
        }
        if (closed) {
            return;
        }
        long delay = backoff.nextDelaySeconds();
        if (error != null) {
            lastError = error;
            lastErrorAt = Instant.now();
            LOG.warn(
                    "replication from {} (rid {}): {}; reconnecting in {} s",
                    consumer.providerUrl(),
                    consumer.rid(),
                    error,
                    delay);
        } else {
            LOG.info(
                    "replication from {} (rid {}): the provider ended the sync search; reconnecting in {} s",
                    consumer.providerUrl(),
                    consumer.rid(),
                    delay);
        }
        state = SyncSessionStatus.State.RETRYING;
        lastApply.handle((ok, failed) -> null).thenRun(() -> loop.schedule(this::connect, delay, TimeUnit.SECONDS));
    }

    EventLoop loop() {
        return loop;
    }
}
