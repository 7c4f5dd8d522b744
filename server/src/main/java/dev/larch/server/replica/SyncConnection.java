package dev.larch.server.replica;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

import dev.larch.config.ReplicationConsumer;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.sync.SyncCookie;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import org.apache.directory.api.ldap.extras.controls.SynchronizationModeEnum;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncRequest.SyncRequestValueImpl;
import org.apache.directory.api.ldap.extras.extended.startTls.StartTlsRequestImpl;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.AliasDerefMode;
import org.apache.directory.api.ldap.model.message.BindRequestImpl;
import org.apache.directory.api.ldap.model.message.BindResponse;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection of a {@link SyncSession}: StartTLS when configured, the simple bind, then the sync
 * search, repeated for e-syncRefreshRequired and, in refreshOnly mode, every interval on the same
 * connection.
 *
 * <p>Back-pressure: changes are handed to the sink in batches (at {@value #BATCH_SIZE} changes or
 * {@value #BATCH_BYTES} bytes of values, whichever comes first, at every phase end or new cookie, and
 * when a read completes with a partial batch while none is in flight), at
 * most {@value #MAX_IN_FLIGHT} in flight, so that the sink can prepare one batch while it stores the
 * one before; while that many are, the channel's auto-read is off, and it is turned back on when one
 * of their futures completes. What is held is the batches in flight plus the one being filled (at most
 * {@value #BATCH_SIZE} changes or {@value #BATCH_BYTES} bytes of values, or what one read had already
 * delivered): a provider sending large entries (photos, certificates) fills batches of fewer of them,
 * so the heap a batch takes stays bounded whatever the entries weigh. The provider's search then
 * pauses as for any slow client.
 *
 * <p>Confined to its channel's event loop. Not sharable: one instance per connection.
 */
final class SyncConnection extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(SyncConnection.class);

    /** Changes per batch handed to the sink. */
    static final int BATCH_SIZE = 500;

    /**
     * Bytes of attribute values per batch handed to the sink, at most (one entry larger than this goes
     * alone): a batch's entries, decoded and then prepared, take several times this on the heap.
     */
    static final int BATCH_BYTES = 2 * 1024 * 1024;

    /** Batches handed to the sink and not yet applied, at most. */
    static final int MAX_IN_FLIGHT = 2;

    /** How long TLS, StartTLS and the bind may take together before the connection is given up. */
    static final int SETUP_TIMEOUT_SECONDS = 30;

    private enum Step {
        CONNECTING,
        STARTING_TLS,
        BINDING,
        SEARCHING,
        IDLE,
        ENDED
    }

    private final SyncSession session;
    private final ReplicationConsumer consumer;
    private final String suffix;
    private final int serverId;
    private final ReplicaSink sink;
    private final SyncResponseReader reader;

    private ChannelHandlerContext ctx;
    private Step step = Step.CONNECTING;
    private int messageId;
    private int searchId;
    /** e-syncRefreshRequired answers in a row: 1 → reload with the cookie, 2 → reload without. */
    private int reloads;

    private boolean progressed;
    private List<ReplicaChange> filling = new ArrayList<>();
    /** The bytes of attribute values in {@link #filling}. */
    private long fillingBytes;
    /** Batches handed to the sink whose futures have not completed, 0..{@link #MAX_IN_FLIGHT}. */
    private int inFlight;
    /** What to do once the last batch is applied and nothing is being filled; null for nothing. */
    private Runnable whenDrained;

    SyncConnection(SyncSession session, ReplicationConsumer consumer, String suffix, int serverId, ReplicaSink sink) {
        this.session = session;
        this.consumer = consumer;
        this.suffix = suffix;
        this.serverId = serverId;
        this.sink = sink;
        this.reader = new SyncResponseReader(consumer.rid());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        session.connected();
        if (session.isClosed()) {
            ctx.close();
            return;
        }
        // A provider that accepts and never answers must not hold the session forever.
        ctx.executor()
                .schedule(
                        () -> {
                            if (step == Step.CONNECTING || step == Step.STARTING_TLS || step == Step.BINDING) {
                                fail("no answer to TLS, StartTLS or the bind within " + SETUP_TIMEOUT_SECONDS + " s");
                            }
                        },
                        SETUP_TIMEOUT_SECONDS,
                        TimeUnit.SECONDS);
        SslHandler ldaps = ctx.pipeline().get(SslHandler.class);
        if (ldaps != null) {
            ldaps.handshakeFuture().addListener(f -> {
                if (f.isSuccess()) {
                    bind();
                } else {
                    fail("TLS with the provider failed: " + oneLine(rootCause(f.cause())));
                }
            });
        } else if (consumer.startTls()) {
            step = Step.STARTING_TLS;
            StartTlsRequestImpl request = new StartTlsRequestImpl();
            request.setMessageId(++messageId);
            ctx.writeAndFlush(request).addListener(this::failOnWriteError);
        } else {
            bind();
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (step == Step.ENDED || !(msg instanceof Message message)) {
            return;
        }
        try {
            switch (step) {
                case STARTING_TLS -> startTlsAnswered(message);
                case BINDING -> bindAnswered(message);
                case SEARCHING -> searchAnswered(message);
                case IDLE -> throw new ProviderProtocolException("an unsolicited " + message.getType());
                case CONNECTING, ENDED -> {
                    // nothing sent yet, or over
                }
            }
        } catch (ProviderProtocolException e) {
            fail(e.getMessage());
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // While a batch is in flight, its completion flushes what was filled meanwhile, in fuller batches.
        if (inFlight == 0 && !filling.isEmpty() && step != Step.ENDED) {
            flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable why = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (why instanceof ProviderProtocolException || why instanceof IOException || why instanceof SSLException) {
            fail(oneLine(why));
        } else {
            LOG.warn("replication from {}: unexpected failure", consumer.providerUrl(), why);
            fail("unexpected failure: " + oneLine(why));
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail(session.isClosed() ? null : "the provider closed the connection");
    }

    private void startTlsAnswered(Message message) {
        if (!(message instanceof ExtendedResponse response)) {
            throw new ProviderProtocolException("StartTLS was answered with a " + message.getType());
        }
        LdapResult result = response.getLdapResult();
        if (result.getResultCode() != ResultCodeEnum.SUCCESS) {
            throw new ProviderProtocolException("the provider refused StartTLS: " + describe(result));
        }
        step = Step.CONNECTING;
        SslHandler tls = session.tlsHandler(ctx.channel());
        ctx.pipeline().addFirst("tls", tls);
        tls.handshakeFuture().addListener(f -> {
            if (f.isSuccess()) {
                bind();
            } else {
                fail("TLS with the provider failed: " + oneLine(rootCause(f.cause())));
            }
        });
    }

    private void bind() {
        if (step == Step.ENDED) {
            return;
        }
        step = Step.BINDING;
        BindRequestImpl bind = new BindRequestImpl();
        bind.setMessageId(++messageId);
        bind.setVersion3(true);
        bind.setSimple(true);
        try {
            bind.setDn(new Dn(consumer.bindDn()));
        } catch (LdapException e) {
            fail("the bind DN " + consumer.bindDn() + " is not a DN");
            return;
        }
        bind.setCredentials(consumer.bindPassword().getBytes(StandardCharsets.UTF_8));
        ctx.writeAndFlush(bind).addListener(this::failOnWriteError);
    }

    private void bindAnswered(Message message) {
        if (!(message instanceof BindResponse response)) {
            throw new ProviderProtocolException("the bind was answered with a " + message.getType());
        }
        if (response.getLdapResult().getResultCode() != ResultCodeEnum.SUCCESS) {
            throw new ProviderProtocolException(
                    "the bind as " + consumer.bindDn() + " was refused: " + describe(response.getLdapResult()));
        }
        search(sink.storedCookie(), false);
    }

    /**
     * Sends a sync search from {@code cookie} (null: a full refresh, with a cookie naming only our rid and
     * server ID, as slapd's consumer sends) and queues the RefreshStarted it begins with.
     */
    private void search(SyncCookie cookie, boolean reloadHint) {
        if (cookie != null && cookie.rid() != consumer.rid()) {
            throw new ProviderProtocolException(
                    "the sink's stored cookie names replica " + cookie.rid() + ", not " + consumer.rid());
        }
        SyncCookie sent = cookie != null ? cookie : new SyncCookie(consumer.rid(), serverId, CsnVector.EMPTY);
        searchId = ++messageId;
        SearchRequestImpl search = searchRequest(searchId, suffix, consumer.mode(), sent, reloadHint);
        step = Step.SEARCHING;
        session.state(SyncSessionStatus.State.REFRESH);
        queue(new ReplicaChange.RefreshStarted(cookie), false);
        ctx.writeAndFlush(search).addListener(this::failOnWriteError);
    }

    /**
     * The sync search of the whole suffix (RFC 4533 section 3): scope sub, filter (objectClass=*), every
     * user and operational attribute, no limits, and a critical Sync Request control (section 2.2).
     *
     * @throws ProviderProtocolException when {@code suffix} is not a DN
     */
    static SearchRequestImpl searchRequest(
            int messageId, String suffix, ReplicationConsumer.Mode mode, SyncCookie cookie, boolean reloadHint) {
        SearchRequestImpl search = new SearchRequestImpl();
        search.setMessageId(messageId);
        try {
            search.setBase(new Dn(suffix));
            search.setFilter("(objectClass=*)");
        } catch (LdapException e) {
            throw new ProviderProtocolException("the suffix " + suffix + " is not a DN");
        }
        search.setScope(SearchScope.SUBTREE);
        search.setDerefAliases(AliasDerefMode.NEVER_DEREF_ALIASES);
        search.setSizeLimit(0);
        search.setTimeLimit(0);
        search.setTypesOnly(false);
        search.addAttributes("*", "+");
        SyncRequestValueImpl control = new SyncRequestValueImpl(true);
        control.setMode(
                mode == ReplicationConsumer.Mode.REFRESH_ONLY
                        ? SynchronizationModeEnum.REFRESH_ONLY
                        : SynchronizationModeEnum.REFRESH_AND_PERSIST);
        control.setCookie(cookie == null ? null : cookie.toBytes());
        control.setReloadHint(reloadHint);
        search.addControl(control);
        return search;
    }

    private void searchAnswered(Message message) {
        if (message.getMessageId() != searchId) {
            throw new ProviderProtocolException(
                    "a " + message.getType() + " for message " + message.getMessageId() + ", not the sync search");
        }
        switch (reader.read(message)) {
            case SyncResponseReader.Changes changes -> {
                for (ReplicaChange change : changes.changes()) {
                    if (change instanceof ReplicaChange.PhaseEnd end
                            && end.refreshDone()
                            && consumer.mode() == ReplicationConsumer.Mode.REFRESH_AND_PERSIST) {
                        progressed = true;
                        reloads = 0;
                        session.state(SyncSessionStatus.State.PERSIST);
                    }
                    queue(change, changes.boundary());
                }
            }
            case SyncResponseReader.Done done -> searchDone(done);
            case SyncResponseReader.Ignored ignored -> LOG.debug("sync search: ignored {}", ignored.what());
        }
    }

    private void searchDone(SyncResponseReader.Done done) {
        if (done.code() == ResultCodeEnum.E_SYNC_REFRESH_REQUIRED) {
            reloads++;
            if (reloads > 2) {
                throw new ProviderProtocolException("e-syncRefreshRequired even for a search without a cookie");
            }
            LOG.info(
                    "replication from {} (rid {}): e-syncRefreshRequired, reloading {}",
                    consumer.providerUrl(),
                    consumer.rid(),
                    reloads == 1 ? "from the stored cookie" : "in full");
            // Once what was queued is applied, so the stored cookie is current.
            step = Step.IDLE;
            afterDrained(() -> search(reloads == 1 ? sink.storedCookie() : null, true));
            return;
        }
        if (done.code() != ResultCodeEnum.SUCCESS) {
            throw new ProviderProtocolException("the provider ended the sync search: "
                    + done.code().getResultCode()
                    + " " + done.code().getMessage()
                    + (done.diagnostic() == null || done.diagnostic().isEmpty() ? "" : ": " + done.diagnostic()));
        }
        if (done.phaseEnd() != null) {
            queue(done.phaseEnd(), true);
        }
        step = Step.IDLE;
        reloads = 0;
        if (consumer.mode() == ReplicationConsumer.Mode.REFRESH_ONLY) {
            progressed = true;
            afterDrained(() -> {
                session.state(SyncSessionStatus.State.IDLE);
                ctx.executor()
                        .schedule(
                                () -> {
                                    if (step == Step.IDLE) {
                                        runSafely(() -> search(sink.storedCookie(), false));
                                    }
                                },
                                consumer.intervalSeconds(),
                                TimeUnit.SECONDS);
            });
        } else {
            afterDrained(() -> end(null));
        }
    }

    private void queue(ReplicaChange change, boolean boundary) {
        filling.add(change);
        fillingBytes += valueBytes(change);
        session.received(change);
        if (inFlight < MAX_IN_FLIGHT && (boundary || isFull())) {
            flush();
        }
    }

    private boolean isFull() {
        return filling.size() >= BATCH_SIZE || fillingBytes >= BATCH_BYTES;
    }

    /** The bytes of the attribute values an entry brings (their length as sent); 0 for other changes. */
    static long valueBytes(ReplicaChange change) {
        long n = 0;
        if (change instanceof ReplicaChange.Upsert upsert) {
            for (Attribute attribute : upsert.entry()) {
                for (Value value : attribute) {
                    n += value.length();
                }
            }
        }
        return n;
    }

    /** Hands the batch being filled to the sink; stops reading while {@link #MAX_IN_FLIGHT} are in flight. */
    private void flush() {
        List<ReplicaChange> batch = filling;
        filling = new ArrayList<>();
        fillingBytes = 0;
        inFlight++;
        if (inFlight >= MAX_IN_FLIGHT) {
            ctx.channel().config().setAutoRead(false);
        }
        CompletableFuture<Void> applied;
        try {
            applied = sink.apply(List.copyOf(batch));
        } catch (RuntimeException e) {
            applied = CompletableFuture.failedFuture(e);
        }
        session.applying(applied);
        applied.whenCompleteAsync((ok, failure) -> applied(failure), ctx.executor());
    }

    private void applied(Throwable failure) {
        inFlight--;
        if (step == Step.ENDED) {
            return;
        }
        if (failure != null) {
            Throwable why =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            fail("the store could not apply a batch: " + oneLine(why));
            return;
        }
        // Filled while batches were in flight: handed on when full, or when nothing else is in flight
        // (the read that filled it is over, so it is complete for now).
        if (!filling.isEmpty() && (inFlight == 0 || isFull())) {
            flush();
        }
        if (inFlight < MAX_IN_FLIGHT && !ctx.channel().config().isAutoRead()) {
            ctx.channel().config().setAutoRead(true);
            ctx.read();
        }
        if (inFlight == 0 && whenDrained != null) {
            Runnable next = whenDrained;
            whenDrained = null;
            runSafely(next);
        }
    }

    /** Runs {@code next} once every queued change is applied; flushes what is being filled first. */
    private void afterDrained(Runnable next) {
        if (inFlight == 0 && !filling.isEmpty()) {
            flush();
        }
        if (inFlight == 0) {
            runSafely(next);
        } else {
            whenDrained = next;
        }
    }

    private void runSafely(Runnable action) {
        try {
            action.run();
        } catch (ProviderProtocolException e) {
            fail(e.getMessage());
        }
    }

    private void failOnWriteError(Future<? super Void> write) {
        if (!write.isSuccess() && !(write.cause() instanceof ClosedChannelException)) {
            fail("cannot send to the provider: " + oneLine(write.cause()));
        }
    }

    /** Ends this connection after a failure: logged, counted and retried by the session. */
    void fail(String error) {
        end(error);
    }

    private void end(String error) {
        if (step == Step.ENDED) {
            return;
        }
        step = Step.ENDED;
        whenDrained = null;
        filling = new ArrayList<>();
        fillingBytes = 0;
        if (ctx != null) {
            ctx.close();
        }
        session.ended(error, progressed);
    }

    private static String describe(LdapResult result) {
        String diagnostic = result.getDiagnosticMessage();
        return result.getResultCode().getResultCode() + " "
                + result.getResultCode().getMessage()
                + (diagnostic == null || diagnostic.isEmpty() ? "" : ": " + diagnostic);
    }

    /** The innermost cause: TLS engines wrap the reason (an untrusted chain, a wrong name) in generic errors. */
    static Throwable rootCause(Throwable e) {
        Throwable root = e;
        // Bounded: a cause chain is short, and a cycle must not loop forever.
        for (int depth = 0; depth < 16 && root != null && root.getCause() != null; depth++) {
            root = root.getCause();
        }
        return root;
    }

    /** A throwable's message on one line, for a log line and the monitor. */
    static String oneLine(Throwable e) {
        if (e == null) {
            return "unknown cause";
        }
        String message = e.getMessage() == null || e.getMessage().isBlank()
                ? e.getClass().getSimpleName()
                : e.getMessage();
        message = message.replaceAll("\\s+", " ");
        return message.length() > 300 ? message.substring(0, 300) + "..." : message;
    }
}
