package dev.larch.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import dev.larch.config.LarchConfig;
import dev.larch.config.RateQuotas;
import dev.larch.config.ReplicationConsumer;
import dev.larch.schema.LarchSchema;
import dev.larch.schema.SchemaLoadException;
import dev.larch.server.access.AccessControl;
import dev.larch.server.access.AccessFile;
import dev.larch.server.access.AciParser;
import dev.larch.server.access.AciSchema;
import dev.larch.server.accesslog.AccessLogFormat;
import dev.larch.server.accesslog.AccessLogOutput;
import dev.larch.server.accesslog.AccessLogSwitch;
import dev.larch.server.accesslog.AccessLoggingHandler;
import dev.larch.server.accesslog.AuditLoggingHandler;
import dev.larch.server.auth.AdminCredentials;
import dev.larch.server.auth.ConfiguredCredentials;
import dev.larch.server.auth.HashCostLimits;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.auth.PasswordHasher;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.monitor.Monitoring;
import dev.larch.server.net.BeforeListening;
import dev.larch.server.net.LdapListener;
import dev.larch.server.net.ListenerOptions;
import dev.larch.server.net.TlsOptions;
import dev.larch.server.protocol.ByteCounts;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.quota.RateLimitingHandler;
import dev.larch.server.read.CurrentSearchLimits;
import dev.larch.server.reload.LiveSettings;
import dev.larch.server.replica.Replicas;
import dev.larch.server.route.OperationRouter;
import dev.larch.server.search.ControlFilterLimits;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.StaleReaderSweeper;
import dev.larch.server.tls.ProviderTrust;
import dev.larch.server.tls.ReloadableSslContext;
import dev.larch.server.tls.ServerTlsContext;
import dev.larch.server.tracing.OperationTracing;
import dev.larch.server.warmup.SelfWarmUp;
import dev.larch.server.work.WorkerPool;
import dev.larch.server.write.InitialSuffix;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Larch server: the data directory locked, the store open, the listener accepting.
 * {@link #close()} stops accepting, lets in-flight operations finish and closes the store.
 */
public final class LarchServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LarchServer.class);
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(10);
    /** How long close() waits for queued writes, then for open transactions, before giving up. */
    private static final Duration STORE_DRAIN = Duration.ofSeconds(30);

    private static final Duration READER_CHECK_PERIOD = Duration.ofSeconds(60);

    private final DataDirectoryLock lock;
    private final StoredDirectory open;
    private final WriteQueue writes;
    private final StaleReaderSweeper readerSweeper;
    private final WorkerPool workers;
    private final LdapListener listener;
    private final Monitoring monitoring;
    private final AccessLogOutput accessLogOutput;
    /** Null while tracing is off. */
    private final OperationTracing tracing;

    private final Optional<String> generatedAdminPassword;
    /** Which TLS implementation serves connections; null without TLS. */
    private final String tlsProvider;

    private final LiveSettings live;
    /** The providers this server replicates from; stopped first on close. */
    private final Replicas replicas;

    private boolean closed;

    private LarchServer(
            DataDirectoryLock lock,
            StoredDirectory open,
            WriteQueue writes,
            WorkerPool workers,
            LdapListener listener,
            Monitoring monitoring,
            AccessLogOutput accessLogOutput,
            OperationTracing tracing,
            Optional<String> generatedAdminPassword,
            String tlsProvider,
            Replicas replicas,
            LiveSettings live) {
        this.replicas = replicas;
        this.monitoring = monitoring;
        this.tlsProvider = tlsProvider;
        this.live = live;
        this.lock = lock;
        this.open = open;
        this.writes = writes;
        this.readerSweeper = new StaleReaderSweeper(open.store(), READER_CHECK_PERIOD);
        this.workers = workers;
        this.listener = listener;
        this.accessLogOutput = accessLogOutput;
        this.tracing = tracing;
        this.generatedAdminPassword = generatedAdminPassword;
    }

    /**
     * Starts a server for {@code config}.
     *
     * @param env the process environment (for {@code LARCH_ADMIN_PASSWORD})
     * @throws IllegalStateException when the data directory is held by another process
     * @throws dev.larch.server.tls.TlsSetupException when a configured TLS file cannot be used
     */
    public static LarchServer start(LarchConfig config, Map<String, String> env)
            throws IOException, SchemaLoadException {
        return start(config, env, OperationTracing.open(config.tracing()));
    }

    /**
     * As {@link #start(LarchConfig, Map)} with the given tracing (tests hand in one that exports to
     * memory); the server owns and closes it.
     *
     * @param tracing null for none
     */
    public static LarchServer start(LarchConfig config, Map<String, String> env, OperationTracing tracing)
            throws IOException, SchemaLoadException {
        SchemaManager schema = LarchSchema.load(config.schemaFiles());
        // Before the data directory is touched: a wrong TLS file stops the start with one line.
        ServerTlsContext tls = config.tls().configured() ? ServerTlsContext.load(config.tls()) : null;
        DataDirectoryLock lock = DataDirectoryLock.acquire(config.storage().dataDir(), "start the server");
        StoredDirectory open = null;
        WriteQueue writes = null;
        WorkerPool workers = null;
        LdapListener listener = null;
        Monitoring monitoring = null;
        AccessLogOutput accessLogOutput = null;
        Replicas replicas = null;
        try {
            open = StoredDirectory.open(config, schema, true);
            // A replica starts empty: its suffix, like every entry, comes from its providers.
            Optional<String> suffixCreated = config.storage().createSuffix()
                            && config.replication().consumers().isEmpty()
                    ? InitialSuffix.createIfEmpty(open.directory(), open.checker())
                    : Optional.empty();
            AdminCredentials admin = AdminCredentials.resolve(
                    config.security().adminPassword(),
                    env,
                    config.storage().dataDir(),
                    AdminCredentials.slowHasher(config.security().passwordScheme(), config.passwords()));
            var schemaNormalizer = open.directory().schemaNormalizer();
            var credentials = new ConfiguredCredentials(
                    schemaNormalizer.dn("cn=admin," + config.suffix()),
                    admin.verifierHash(),
                    config.security().allowCleartextPasswords(),
                    new PasswordHasher(config.security().passwordScheme(), config.passwords()),
                    HashCostLimits.of(config.security().maxPasswordIterations(), config.passwords()));
            writes = new WriteQueue(open.store(), config.storage().groupCommitMaxOperations());
            workers = new WorkerPool(
                    "larch-worker",
                    config.limits().effectiveWorkerThreads(),
                    config.limits().workerQueue());
            AciSchema aciSchema = new AciSchema(schema);
            AccessControl access = AccessControl.open(
                    open.directory(), aciSchema, AccessFile.load(config.access().file(), new AciParser(aciSchema)));
            CurrentSearchLimits searchLimits = new CurrentSearchLimits(CurrentSearchLimits.of(config.limits()));
            OperationRouter router = RequestHandlers.over(
                    open, schema, config, credentials, writes, workers, Version.get(), access, searchLimits);
            RequestHandler handler = router;
            if (config.logging().auditLogFile() != null) {
                // Next to the handlers: every write a client made, whatever the quotas and counters did.
                handler = new AuditLoggingHandler(handler, PasswordAttributes.of(schema));
            }
            monitoring = Monitoring.create(
                    config.metrics(),
                    open.store(),
                    open.directory().schemaNormalizer(),
                    access,
                    workers,
                    writes,
                    router.syncSearches(),
                    Version.get(),
                    config.suffix());
            // cn=Monitor inside the quotas (its searches pay for their rate), counting outside them.
            handler = monitoring.subtree(handler);
            // JSON lines or a file need their own appender; plain text on standard output needs none.
            accessLogOutput = AccessLogOutput.install(config.logging());
            AccessLogSwitch accessLog = decorated(
                    handler,
                    config,
                    schema,
                    config.rateQuotas(),
                    monitoring::counting,
                    tracing,
                    config.logging().accessLog());
            // The self-warm-up's requests run the same decorators, built a second time: its counters
            // and (switched off) access log are its own, so nothing of it shows. No rate quota: one
            // would refuse the warm-up's searches, and a refusal compiles nothing worth having.
            Monitoring.Unseen unseen = monitoring.unseen();
            RequestHandler warmUpHandler =
                    decorated(handler, config, schema, RateQuotas.OFF, unseen::counting, null, false);
            handler = accessLog;
            ReloadableSslContext tlsContext = tls == null ? null : new ReloadableSslContext(tls.context());
            var l = config.listen();
            // Filters inside controls are held to the search filter's bounds.
            ControlFilterLimits.set(l.maxFilterDepth(), l.maxFilterElements());
            ListenerOptions options = new ListenerOptions(
                    l.host(),
                    l.port(),
                    l.ioThreads(),
                    l.maxPduBytes(),
                    l.idleTimeoutSeconds(),
                    l.maxFilterDepth(),
                    l.maxPduBytesAnonymous(),
                    l.maxPendingOperations(),
                    l.maxConnections(),
                    l.maxConnectionsPerAddress(),
                    l.maxFilterElements(),
                    l.maxPendingSize(),
                    l.maxPendingSizeAnonymous(),
                    l.maxPendingSizeTotal(),
                    l.proxyProtocolFrom());
            TlsOptions tlsOptions = tls == null
                    ? TlsOptions.NONE
                    : new TlsOptions(
                            tlsContext,
                            config.tls().handshakeTimeoutSeconds() * 1000L,
                            config.tls().ldapsPort());
            // Warms up first: the ports open (and the server says it listens) only after it. A replica's
            // sessions start before it, on the same event loops: they are not clients, and a restarted
            // replica catches up while the request path is compiled instead of after.
            SelfWarmUp warmUp = new SelfWarmUp(config.warmUp(), open.directory(), warmUpHandler, unseen.byteCounts());
            ReplicaStart startReplicas = new ReplicaStart(config, open, writes, providerTls(config), monitoring);
            AtomicReference<Replicas> started = new AtomicReference<>();
            BeforeListening before = loopback -> {
                started.set(startReplicas.on(loopback.ioGroup()));
                warmUp.run(loopback);
            };
            try {
                listener = listen(options, tlsOptions, handler, monitoring.byteCounts(), before);
            } finally {
                replicas = started.get();
            }
            if (replicas == null) {
                replicas = startReplicas.on(listener.ioGroup()); // the listener ran nothing before binding
            }
            monitoring.serve(listener::isAccepting, l.host());
            monitoring.replicas(replicas::statuses);
            LarchServer server = new LarchServer(
                    lock,
                    open,
                    writes,
                    workers,
                    listener,
                    monitoring,
                    accessLogOutput,
                    tracing,
                    admin.generatedPassword(),
                    tls == null ? null : tls.provider(),
                    replicas,
                    new LiveSettings(searchLimits, accessLog, access, tlsContext));
            server.logSummary(config);
            suffixCreated.ifPresent(InitialSuffix::log);
            return server;
        } catch (IOException | RuntimeException e) {
            if (replicas != null) {
                replicas.close();
            }
            if (monitoring != null) {
                monitoring.close();
            }
            if (listener != null) {
                listener.close();
            }
            if (accessLogOutput != null) {
                accessLogOutput.close();
            }
            if (tracing != null) {
                tracing.close();
            }
            if (workers != null) {
                workers.close();
            }
            if (writes != null) {
                writes.close();
            }
            if (open != null) {
                open.close();
            }
            lock.close();
            throw e;
        }
    }

    /**
     * {@code inner} with the decorators every request passes outside {@code cn=Monitor}, from the
     * inside out: the rate {@code quotas} (none when off); {@code counting}, outside them so that requests refused for their
     * rate are counted too; tracing, only when on (otherwise no span, lookup or allocation per
     * operation); the access log, always in place so that a reload can turn it on or off, outside the
     * rest so that refused requests are logged too.
     *
     * @param tracing null for none
     * @param accessLogOn whether the access log writes at first
     */
    private static AccessLogSwitch decorated(
            RequestHandler inner,
            LarchConfig config,
            SchemaManager schema,
            RateQuotas quotas,
            UnaryOperator<RequestHandler> counting,
            OperationTracing tracing,
            boolean accessLogOn) {
        RequestHandler handler = RateLimitingHandler.around(inner, quotas);
        handler = counting.apply(handler);
        if (tracing != null) {
            handler = tracing.around(handler, PasswordAttributes.of(schema));
        }
        return new AccessLogSwitch(
                handler,
                new AccessLoggingHandler(
                        handler,
                        PasswordAttributes.of(schema),
                        AccessLogFormat.of(config.logging().accessLogFormat())),
                accessLogOn);
    }

    /**
     * The TLS context consumers check their providers with, from {@code tls.ca-certificates}; null when
     * no provider is reached over TLS (a session that needs one refuses to start without it).
     */
    private static SslContext providerTls(LarchConfig config) {
        boolean needed = config.replication().consumers().stream().anyMatch(ReplicationConsumer::tls);
        return needed && config.tls().caCertificates() != null
                ? ProviderTrust.context(config.tls().caCertificates())
                : null;
    }

    /** Starts the listener; a failure to bind names the address (the port may come from --port). */
    private static LdapListener listen(
            ListenerOptions options, TlsOptions tls, RequestHandler handler, ByteCounts bytes, BeforeListening before)
            throws IOException {
        try {
            return LdapListener.start(options, tls, handler, bytes, before);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().contains("(listen.ldaps-port)")) {
                throw e;
            }
            String reason = e.getMessage() == null
                    ? e.toString()
                    : e.getMessage().replaceFirst("^bind\\(\\.\\.\\) failed with error\\(-?\\d+\\): ", "");
            throw new IOException("cannot listen on " + options.host() + ":" + options.port() + ": " + reason, e);
        }
    }

    private void logSummary(LarchConfig config) {
        long entries;
        try (ReadTxn txn = open.store().read()) {
            entries = txn.entryCount();
        }
        InetSocketAddress at = listener.address();
        LOG.info(
                "Larch {} serving {} from {} ({} entries, {} bytes on disk) on ldap://{}:{}; access log {}",
                Version.get(),
                config.suffix(),
                config.storage().dataDir().toAbsolutePath().normalize(),
                entries,
                open.store().sizeOnDisk(),
                at.getHostString(),
                at.getPort(),
                AccessLogOutput.describe(config.logging()));
        LOG.info(
                "tracing {}",
                config.tracing().enabled()
                        ? "to " + config.tracing().otlpEndpoint() + " (OTLP/HTTP, sample ratio "
                                + config.tracing().sampleRatio() + ")"
                        : "off (no tracing.otlp-endpoint)");
        InetSocketAddress ldaps = listener.ldapsAddress();
        if (tlsProvider == null) {
            LOG.info("TLS off (no tls.certificate or tls.keystore): no StartTLS, no LDAPS");
        } else {
            LOG.info(
                    "TLS by {}: StartTLS on ldap://{}:{}{}; client certificates {}; password binds on clear"
                            + " connections {}",
                    tlsProvider,
                    at.getHostString(),
                    at.getPort(),
                    ldaps == null
                            ? ", no LDAPS"
                            : ", LDAPS on ldaps://" + ldaps.getHostString() + ":" + ldaps.getPort(),
                    config.tls().requestsClientCertificates() ? "requested (SASL EXTERNAL)" : "not requested",
                    config.tls().requireTlsForBinds() ? "only from loopback" : "allowed");
        }
    }

    /** Where the server accepts LDAPS connections, or null when it has no LDAPS port. */
    public InetSocketAddress ldapsAddress() {
        return listener.ldapsAddress();
    }

    /** Where the server accepts connections (the real port when the config asked for port 0). */
    public InetSocketAddress address() {
        return listener.address();
    }

    /** Where the Prometheus endpoint listens; null without {@code metrics.port}. */
    public InetSocketAddress metricsAddress() {
        return monitoring.endpointAddress();
    }

    /** The parts of this server a reload of the config may change ({@link dev.larch.server.reload.ConfigReload}). */
    public LiveSettings live() {
        return live;
    }

    /** The administrator password generated on this start, if this start generated one. */
    public Optional<String> generatedAdminPassword() {
        return generatedAdminPassword;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // No more replicated batches: the writer drains what was queued, cookie included, below.
        replicas.close();
        // Persistent searches wait for changes, not for the server: end them before draining.
        open.directory().stopObserving();
        listener.stop(SHUTDOWN_GRACE);
        // After the listener: /ready answers 503 from the moment the server stops accepting.
        monitoring.close();
        // No connection is left to log: flush and close the access log file, if any.
        if (accessLogOutput != null) {
            accessLogOutput.close();
        }
        // Every operation has ended: export the spans still queued.
        if (tracing != null) {
            tracing.close();
        }
        readerSweeper.close();
        workers.close();
        writes.close(STORE_DRAIN);
        // Never closes the environment under a live transaction (a JVM crash); if one outlives the
        // bound, the store stays open and so does the lock, both released when the process exits.
        if (!open.store().close(STORE_DRAIN)) {
            LOG.warn("Larch stopped without closing its store");
            return;
        }
        try {
            lock.close();
        } catch (IOException e) {
            LOG.warn("could not release the data directory lock: {}", e.getMessage());
        }
        LOG.info("Larch stopped");
    }

    /** What starting the replication sessions takes, gathered so it can run on the listener's event loops. */
    private record ReplicaStart(
            LarchConfig config,
            StoredDirectory open,
            WriteQueue writes,
            SslContext providerTls,
            Monitoring monitoring) {
        Replicas on(EventLoopGroup loops) {
            return Replicas.start(
                    config.replication(),
                    config.suffix(),
                    open.directory(),
                    open.checker(),
                    writes,
                    loops,
                    providerTls,
                    monitoring.replication(),
                    config.storage().importSortMemoryBytes());
        }
    }
}
