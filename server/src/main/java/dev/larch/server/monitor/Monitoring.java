package dev.larch.server.monitor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.larch.config.Metrics;
import dev.larch.server.access.AccessControl;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.protocol.ByteCounts;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.read.sync.SyncSearches;
import dev.larch.server.replica.ReplicationMetrics;
import dev.larch.server.replica.SyncSessionStatus;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.work.WorkerPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Monitoring as one server sets it up from {@code metrics.*}: the counters, the two decorators that
 * feed and show them, and the Prometheus endpoint. With {@code metrics.monitor = false} every method
 * hands back what it was given (or null), so the server does no work for monitoring at all.
 *
 * <p>Use during start: {@link #subtree} around the router, the rate quotas around that, {@link
 * #counting} around those; {@link #byteCounts()} to the listener; {@link #serve} once the listener is
 * up. Close with the server.
 */
public final class Monitoring implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Monitoring.class);

    private final Metrics settings;
    private final SchemaNormalizer schema;
    private final AccessControl access;
    /** Null when monitoring is off. */
    private final ServerMetrics metrics;
    /** Counted even when monitoring is off (a few adders per replica ID): nothing reads them then. */
    private final ReplicationMetrics replication = new ReplicationMetrics();

    private volatile BooleanSupplier accepting = () -> false;
    private volatile Supplier<List<SyncSessionStatus>> replicas = List::of;
    private MonitoredServer server;
    private MetricsEndpoint endpoint;

    private Monitoring(Metrics settings, SchemaNormalizer schema, AccessControl access) {
        this.settings = settings;
        this.schema = schema;
        this.access = access;
        this.metrics = settings.monitor() ? new ServerMetrics() : null;
    }

    /**
     * @param sync the content-synchronization searches, shown under {@code cn=Replication}; null when
     *     none are served
     * @param version the server version, shown in {@code cn=Monitor} and {@code larch_info}
     * @param suffix the naming context, shown under {@code cn=Databases}
     */
    public static Monitoring create(
            Metrics settings,
            LmdbStore store,
            SchemaNormalizer schema,
            AccessControl access,
            WorkerPool workers,
            WriteQueue writes,
            SyncSearches sync,
            String version,
            String suffix) {
        Monitoring m = new Monitoring(settings, schema, access);
        if (m.metrics != null) {
            m.server = new MonitoredServer(
                    m.metrics,
                    store,
                    workers,
                    writes,
                    sync,
                    version,
                    Instant.now(),
                    suffix,
                    () -> m.accepting.getAsBoolean(),
                    () -> m.replicas.get(),
                    m.replication);
        }
        return m;
    }

    /** {@code next} with {@code cn=Monitor} answered in front of it; {@code next} itself when off. */
    public RequestHandler subtree(RequestHandler next) {
        return metrics == null ? next : new MonitorSubtreeHandler(next, server, schema, access);
    }

    /** {@code next} with its operations and connections counted; {@code next} itself when off. */
    public RequestHandler counting(RequestHandler next) {
        return metrics == null ? next : new MonitoringHandler(next, metrics);
    }

    /**
     * Counting like {@link #counting} and {@link #byteCounts}, into counters of its own that nothing
     * shows: for the self-warm-up, whose requests should run the same counting code as clients' (so
     * that the JIT compiles it as clients will use it) without showing in {@code cn=Monitor} or
     * {@code /metrics}. Counts nothing when monitoring is off.
     */
    public Unseen unseen() {
        return new Unseen(metrics == null ? null : new ServerMetrics());
    }

    /**
     * Counting that nothing shows; see {@link #unseen()}.
     *
     * @param metrics null when monitoring is off
     */
    public record Unseen(ServerMetrics metrics) {
        /** {@code next} with its operations and connections counted; {@code next} itself when off. */
        public RequestHandler counting(RequestHandler next) {
            return metrics == null ? next : new MonitoringHandler(next, metrics);
        }

        /** Told of the bytes moved; null when off. */
        public ByteCounts byteCounts() {
            return metrics;
        }
    }

    /** What the listener tells of the bytes it moves; null when off (no counting handler at all). */
    public ByteCounts byteCounts() {
        return metrics;
    }

    /** Where the replicas of this server count the changes they commit and their lag. */
    public ReplicationMetrics replication() {
        return replication;
    }

    /** Shows what {@code statuses} says of the sessions replicating from providers, from now on. */
    public void replicas(Supplier<List<SyncSessionStatus>> statuses) {
        this.replicas = statuses;
    }

    /**
     * Starts the Prometheus endpoint when {@code metrics.port} is set.
     *
     * @param accepting whether the LDAP listener accepts connections (for {@code /ready})
     * @param listenHost {@code listen.host}, the endpoint's address unless {@code metrics.host} is set
     * @throws IOException when the endpoint's address cannot be bound
     */
    public void serve(BooleanSupplier accepting, String listenHost) throws IOException {
        this.accepting = accepting;
        if (metrics != null && settings.endpoint()) {
            endpoint = MetricsEndpoint.start(server, schema.schema(), settings, settings.hostOr(listenHost));
            InetSocketAddress at = endpoint.address();
            LOG.info(
                    "metrics on http://{}:{}/metrics (also /health, /ready); {}",
                    at.getHostString(),
                    at.getPort(),
                    settings.bearerTokenFile() == null
                            ? "no authentication (metrics.bearer-token-file): firewall it"
                            : "bearer token from " + settings.bearerTokenFile());
        }
    }

    /** Where the Prometheus endpoint listens; null when there is none. */
    public InetSocketAddress endpointAddress() {
        return endpoint == null ? null : endpoint.address();
    }

    /** Stops the endpoint, if any. */
    @Override
    public void close() {
        if (endpoint != null) {
            endpoint.close();
        }
    }
}
