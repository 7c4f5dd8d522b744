package dev.larch.server.monitor;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

import dev.larch.server.read.sync.SyncProgress;
import dev.larch.server.replica.SyncSessionStatus;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.StoreStatistics;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * The Prometheus view of a {@link MonitoredServer}: the numbers {@code cn=Monitor} shows, as counters
 * and gauges read when scraped (callbacks, nothing sampled in between), and the latency histogram per
 * operation type. Every metric name starts with {@code larch_}.
 */
final class PrometheusMetrics {
    private PrometheusMetrics() {}

    /** A new registry holding the metrics of {@code server}; the caller serves it. */
    static PrometheusRegistry of(MonitoredServer server, SchemaManager schema) {
        PrometheusRegistry registry = new PrometheusRegistry();
        ServerMetrics m = server.metrics();

        Info info = Info.builder()
                .name("larch_info")
                .help("The Larch server; its version in the label")
                .labelNames("version")
                .register(registry);
        info.setLabelValues(server.version());
        gauge(
                registry,
                "larch_start_time_seconds",
                "When the server started, in seconds since the epoch",
                Unit.SECONDS,
                cb -> cb.call(server.started().toEpochMilli() / 1000.0));
        gauge(
                registry,
                "larch_ready",
                "1 when the store is open and the LDAP listener accepts, else 0",
                null,
                cb -> cb.call(server.ready() ? 1.0 : 0.0));

        counter(registry, "larch_connections", "Connections accepted", cb -> cb.call((double) m.connectionsTotal()));
        gauge(
                registry,
                "larch_open_connections",
                "Connections open now",
                null,
                cb -> cb.call((double) m.connectionsCurrent()));
        CounterWithCallback.builder()
                .name("larch_operations_initiated")
                .help("Operations received, by type")
                .labelNames("operation")
                .callback(cb -> {
                    for (OperationType type : OperationType.all()) {
                        cb.call((double) m.initiatedCount(type), type.label());
                    }
                })
                .register(registry);
        CounterWithCallback.builder()
                .name("larch_operations_completed")
                .help("Operations ended (answered or abandoned), by type")
                .labelNames("operation")
                .callback(cb -> {
                    for (OperationType type : OperationType.all()) {
                        cb.call((double) m.completedCount(type), type.label());
                    }
                })
                .register(registry);
        counter(
                registry,
                "larch_operations_abandoned",
                "Operations that ended without a response",
                cb -> cb.call((double) m.abandoned()));
        CounterWithCallback.builder()
                .name("larch_results")
                .help("Final responses sent, by result code")
                .labelNames("code", "result")
                .callback(cb -> {
                    for (Map.Entry<Integer, Long> e : m.results().entrySet()) {
                        cb.call((double) e.getValue(), Integer.toString(e.getKey()), ResultNames.of(e.getKey()));
                    }
                })
                .register(registry);
        counter(registry, "larch_entries_sent", "Search result entries sent", cb -> cb.call((double) m.entriesSent()));
        CounterWithCallback.builder()
                .name("larch_received_bytes")
                .help("LDAP bytes received (after TLS decryption)")
                .unit(Unit.BYTES)
                .callback(cb -> cb.call((double) m.bytesReceived()))
                .register(registry);
        CounterWithCallback.builder()
                .name("larch_sent_bytes")
                .help("LDAP bytes sent (before TLS encryption)")
                .unit(Unit.BYTES)
                .callback(cb -> cb.call((double) m.bytesSent()))
                .register(registry);
        registry.register(m.latency());
        counter(
                registry,
                "larch_write_transactions",
                "Write transactions committed, each with one sync; group commit puts several writes in one",
                cb -> cb.call((double) server.writeTransactions()));
        counter(
                registry,
                "larch_write_operations",
                "Writes committed (client and server-initiated)",
                cb -> cb.call((double) server.writeOperations()));

        gauge(
                registry,
                "larch_worker_queue_tasks",
                "Tasks waiting for a worker thread",
                null,
                cb -> cb.call((double) server.workerQueueDepth()));
        gauge(
                registry,
                "larch_write_queue_tasks",
                "Writes waiting for the writer thread",
                null,
                cb -> cb.call((double) server.writeQueueDepth()));
        CounterWithCallback.builder()
                .name("larch_index_lookups")
                .help("Index lookups by search planning, per attribute index")
                .labelNames("attribute", "kind")
                .callback(cb -> {
                    Map<IndexRef, Long> lookups = server.indexLookups();
                    for (IndexRef ref : server.store().indexes().refs()) {
                        AttributeType type = schema.getAttributeType(ref.attributeOid());
                        cb.call(
                                (double) lookups.getOrDefault(ref, 0L),
                                type == null ? ref.attributeOid() : type.getName(),
                                ref.kind().name().toLowerCase(Locale.ROOT));
                    }
                })
                .register(registry);

        replication(registry, server);
        lmdb(registry, server);
        jvm(registry);
        return registry;
    }

    /** Aggregates only: a label per consumer (its connection ID) would grow without bound. */
    private static void replication(PrometheusRegistry registry, MonitoredServer server) {
        gauge(registry, "larch_changelog_records", "Changes in the change log (content synchronization)", null, cb -> {
            MonitoredServer.ChangeLogState log = server.changeLog();
            if (log != null) {
                cb.call((double) log.records());
            }
        });
        GaugeWithCallback.builder()
                .name("larch_sync_consumers")
                .help("RefreshAndPersist sync consumers connected, by phase (refresh, persist)")
                .labelNames("phase")
                .callback(cb -> {
                    Map<SyncProgress.Phase, Integer> byPhase = new EnumMap<>(SyncProgress.Phase.class);
                    for (SyncProgress consumer : server.syncConsumers()) {
                        byPhase.merge(consumer.phase(), 1, Integer::sum);
                    }
                    for (SyncProgress.Phase phase : List.of(SyncProgress.Phase.REFRESH, SyncProgress.Phase.PERSIST)) {
                        cb.call(byPhase.getOrDefault(phase, 0), phase.name().toLowerCase(Locale.ROOT));
                    }
                })
                .register(registry);
        counter(
                registry,
                "larch_sync_entries_sent",
                "Entries and change notices sent by sync searches (RFC 4533), either mode",
                cb -> cb.call((double) server.syncEntriesSent()));
        providers(registry, server);
    }

    /** The providers this server replicates from: a label per replica ID, which configuration bounds. */
    private static void providers(PrometheusRegistry registry, MonitoredServer server) {
        registry.register(server.replication().lagHistogram());
        CounterWithCallback.builder()
                .name("larch_replication_changes_applied")
                .help("Entries and deletes from a provider committed here, by replica ID")
                .labelNames("rid")
                .callback(cb -> {
                    for (SyncSessionStatus p : server.replicas()) {
                        cb.call((double) server.replication().applied(p.rid()), Integer.toString(p.rid()));
                    }
                })
                .register(registry);
        GaugeWithCallback.builder()
                .name("larch_replication_state")
                .help("1 for the state each replica's sync session is in, 0 for the others, by replica ID")
                .labelNames("rid", "state")
                .callback(cb -> {
                    for (SyncSessionStatus p : server.replicas()) {
                        for (SyncSessionStatus.State state : SyncSessionStatus.State.values()) {
                            cb.call(
                                    p.state() == state ? 1.0 : 0.0,
                                    Integer.toString(p.rid()),
                                    state.name().toLowerCase(Locale.ROOT));
                        }
                    }
                })
                .register(registry);
    }

    private static void lmdb(PrometheusRegistry registry, MonitoredServer server) {
        StoreGauge stats = new StoreGauge(server);
        stats.register(
                registry, "larch_lmdb_map_size_bytes", "LMDB map size", Unit.BYTES, StoreStatistics::mapSizeBytes);
        stats.register(
                registry, "larch_lmdb_page_size_bytes", "LMDB page size", Unit.BYTES, StoreStatistics::pageSizeBytes);
        stats.register(registry, "larch_lmdb_pages_used", "LMDB pages in use", null, StoreStatistics::pagesUsed);
        stats.register(
                registry,
                "larch_lmdb_last_transaction_id",
                "ID of the last committed LMDB write transaction",
                null,
                StoreStatistics::lastTransactionId);
        stats.register(
                registry, "larch_lmdb_readers_used", "LMDB reader slots in use", null, StoreStatistics::readersInUse);
        stats.register(
                registry, "larch_lmdb_readers_max", "LMDB reader slots in all", null, StoreStatistics::maxReaders);
        GaugeWithCallback.builder()
                .name("larch_lmdb_records")
                .help("Records per LMDB database")
                .labelNames("database")
                .callback(cb -> {
                    StoreStatistics s = server.storeStatistics();
                    if (s != null) {
                        s.recordsByDatabase().forEach((name, n) -> cb.call((double) n, name));
                    }
                })
                .register(registry);
    }

    private static void jvm(PrometheusRegistry registry) {
        gauge(
                registry,
                "larch_jvm_heap_used_bytes",
                "JVM heap in use",
                Unit.BYTES,
                cb -> cb.call((double) MonitoredServer.heap().getUsed()));
        gauge(
                registry,
                "larch_jvm_heap_committed_bytes",
                "JVM heap committed",
                Unit.BYTES,
                cb -> cb.call((double) MonitoredServer.heap().getCommitted()));
        gauge(
                registry,
                "larch_jvm_heap_max_bytes",
                "JVM heap limit (-1: none)",
                Unit.BYTES,
                cb -> cb.call((double) MonitoredServer.heap().getMax()));
        gauge(registry, "larch_jvm_direct_used_bytes", "JVM direct buffer memory in use", Unit.BYTES, cb -> {
            BufferPoolMXBean direct = MonitoredServer.directBuffers();
            if (direct != null) {
                cb.call((double) direct.getMemoryUsed());
            }
        });
        gauge(registry, "larch_jvm_direct_capacity_bytes", "JVM direct buffer capacity", Unit.BYTES, cb -> {
            BufferPoolMXBean direct = MonitoredServer.directBuffers();
            if (direct != null) {
                cb.call((double) direct.getTotalCapacity());
            }
        });
        gauge(registry, "larch_jvm_direct_buffers", "JVM direct buffers", null, cb -> {
            BufferPoolMXBean direct = MonitoredServer.directBuffers();
            if (direct != null) {
                cb.call((double) direct.getCount());
            }
        });
        // Time in collections tells a latency tail from GC pauses apart from other stalls; the
        // bench harness reads it to report GC time beside each run.
        CounterWithCallback.builder()
                .name("larch_jvm_gc_seconds")
                .help("Time the JVM spent in garbage collections, per collector")
                .unit(Unit.SECONDS)
                .labelNames("collector")
                .callback(cb -> {
                    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                        long millis = gc.getCollectionTime(); // -1: this collector does not tell
                        if (millis >= 0) {
                            cb.call(millis / 1000.0, gc.getName());
                        }
                    }
                })
                .register(registry);
    }

    private static void counter(
            PrometheusRegistry registry, String name, String help, Consumer<CounterWithCallback.Callback> callback) {
        CounterWithCallback.builder().name(name).help(help).callback(callback).register(registry);
    }

    private static void gauge(
            PrometheusRegistry registry,
            String name,
            String help,
            Unit unit,
            Consumer<GaugeWithCallback.Callback> callback) {
        GaugeWithCallback.Builder b =
                GaugeWithCallback.builder().name(name).help(help).callback(callback);
        if (unit != null) {
            b.unit(unit);
        }
        b.register(registry);
    }

    /**
     * The store's statistics, read once per scrape rather than once per gauge: a scrape reads every
     * gauge within a moment, and a reading younger than a second is reused.
     */
    private static final class StoreGauge {
        private static final long FRESH_NANOS = 1_000_000_000L;
        private final MonitoredServer server;
        private StoreStatistics last;
        private long readAt;

        StoreGauge(MonitoredServer server) {
            this.server = server;
        }

        synchronized StoreStatistics read() {
            long now = System.nanoTime();
            if (!server.store().isOpen()) {
                last = null; // closing: nothing more to show
            } else if (last == null || now - readAt > FRESH_NANOS) {
                last = server.storeStatistics();
                readAt = now;
            }
            return last;
        }

        void register(
                PrometheusRegistry registry,
                String name,
                String help,
                Unit unit,
                ToDoubleFunction<StoreStatistics> value) {
            gauge(registry, name, help, unit, cb -> {
                StoreStatistics s = read();
                if (s != null) {
                    cb.call(value.applyAsDouble(s));
                }
            });
        }
    }
}
