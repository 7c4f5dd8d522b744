package dev.larch.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.schema.SchemaLoadException;
import dev.larch.server.access.AccessControl;
import dev.larch.server.access.AccessFile;
import dev.larch.server.access.AciParser;
import dev.larch.server.access.AciSchema;
import dev.larch.server.accesslog.AccessLoggingHandler;
import dev.larch.server.auth.AdminCredentials;
import dev.larch.server.auth.ConfiguredCredentials;
import dev.larch.server.net.LdapListener;
import dev.larch.server.net.ListenerOptions;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.quota.RateLimitingHandler;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.StaleReaderSweeper;
import dev.larch.server.work.WorkerPool;
import dev.larch.server.write.WriteQueue;
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
    private final Optional<String> generatedAdminPassword;
    private boolean closed;

    private LarchServer(
            DataDirectoryLock lock,
            StoredDirectory open,
            WriteQueue writes,
            WorkerPool workers,
            LdapListener listener,
            Optional<String> generatedAdminPassword) {
        this.lock = lock;
        this.open = open;
        this.writes = writes;
        this.readerSweeper = new StaleReaderSweeper(open.store(), READER_CHECK_PERIOD);
        this.workers = workers;
        this.listener = listener;
        this.generatedAdminPassword = generatedAdminPassword;
    }

    /**
     * Starts a server for {@code config}.
     *
     * @param env the process environment (for {@code LARCH_ADMIN_PASSWORD})
     * @throws IllegalStateException when the data directory is held by another process
     */
    public static LarchServer start(LarchConfig config, Map<String, String> env)
            throws IOException, SchemaLoadException {
        SchemaManager schema = LarchSchema.load(config.schemaFiles());
        DataDirectoryLock lock = DataDirectoryLock.acquire(config.storage().dataDir(), "start the server");
        StoredDirectory open = null;
        WriteQueue writes = null;
        WorkerPool workers = null;
        try {
            open = StoredDirectory.open(config, schema, true);
            AdminCredentials admin = AdminCredentials.resolve(
                    config.security().adminPassword(), env, config.storage().dataDir());
            var schemaNormalizer = open.directory().schemaNormalizer();
            var credentials = new ConfiguredCredentials(
                    schemaNormalizer.dn("cn=admin," + config.suffix()),
                    admin.verifierHash(),
                    config.security().allowCleartextPasswords(),
                    config.security().passwordScheme(),
                    config.security().maxPasswordIterations());
            writes = new WriteQueue(open.store());
            workers = new WorkerPool(
                    "larch-worker",
                    config.limits().effectiveWorkerThreads(),
                    config.limits().workerQueue());
            AciSchema aciSchema = new AciSchema(schema);
            AccessControl access = AccessControl.open(
                    open.directory(), aciSchema, AccessFile.load(config.access().file(), new AciParser(aciSchema)));
            RequestHandler handler = RequestHandlers.over(
                    open,
                    schema,
                    config.limits(),
                    config.security(),
                    credentials,
                    writes,
                    workers,
                    Version.get(),
                    access);
            // Inside the access log, so that requests refused for their rate are logged too.
            handler = RateLimitingHandler.around(handler, config.rateQuotas());
            if (config.logging().accessLog()) {
                handler = new AccessLoggingHandler(handler);
            }
            var l = config.listen();
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
                    l.maxFilterElements());
            LdapListener listener = listen(options, handler);
            LarchServer server = new LarchServer(lock, open, writes, workers, listener, admin.generatedPassword());
            server.logSummary(config);
            return server;
        } catch (IOException | RuntimeException e) {
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

    /** Starts the listener; a failure to bind names the address (the port may come from --port). */
    private static LdapListener listen(ListenerOptions options, RequestHandler handler) throws IOException {
        try {
            return LdapListener.start(options, handler);
        } catch (IOException e) {
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
                config.logging().accessLog() ? "on" : "off");
    }

    /** Where the server accepts connections (the real port when the config asked for port 0). */
    public InetSocketAddress address() {
        return listener.address();
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
        listener.stop(SHUTDOWN_GRACE);
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
}
