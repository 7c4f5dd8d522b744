package dev.larch.server.monitor;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.MemoryUsage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.read.sync.SyncProgress;
import dev.larch.server.replica.SyncSessionStatus;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.StoreStatistics;
import dev.larch.server.sync.SyncRequest;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * The {@code cn=Monitor} subtree as of now, laid out as OpenLDAP's back-monitor lays out its own
 * ({@code cn=Connections}, {@code cn=Operations}, {@code cn=Statistics}, {@code cn=Time},
 * {@code cn=Databases}) plus Larch's {@code cn=Result Codes}, {@code cn=Queues}, {@code cn=Replication}
 * (the change log, and one {@code cn=Consumer <connection ID>} per refreshAndPersist consumer),
 * {@code cn=Indexes} and {@code cn=JVM}. Counters are {@code monitorCounter} values (operations:
 * {@code monitorOpInitiated} and {@code monitorOpCompleted}), times {@code monitorTimestamp}, other
 * facts {@code monitoredInfo}.
 *
 * <p>Built afresh for each search (about a hundred small entries plus one per index and LMDB
 * database), never stored: the entries exist only in the answer. Thread-safe.
 */
final class MonitorTree {
    /** The subtree's root, as OpenLDAP spells it. */
    static final String ROOT = "cn=Monitor";

    private static final DateTimeFormatter GENERALIZED_TIME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private final MonitoredServer server;
    private final SchemaNormalizer schema;
    private final Clock clock;

    MonitorTree(MonitoredServer server, SchemaNormalizer schema, Clock clock) {
        this.server = server;
        this.schema = schema;
        this.clock = clock;
    }

    /** One entry of the tree with its DN parsed for scope tests. */
    record Node(Dn dn, StoredEntry entry) {}

    /** Every entry, each parent before its children. */
    List<Node> build() {
        Builder b = new Builder();
        ServerMetrics m = server.metrics();
        b.entry(ROOT, "monitorServer")
                .text(
                        "description",
                        "Larch's monitoring entries; counters are operational attributes: ask for them"
                                + " by name or with +")
                .text("monitoredInfo", "Larch " + server.version());

        b.container("Connections", "connections");
        b.counter("cn=Total,cn=Connections", m.connectionsTotal());
        b.counter("cn=Current,cn=Connections", m.connectionsCurrent());

        long initiated = 0;
        long completed = 0;
        for (OperationType type : OperationType.all()) {
            initiated += m.initiatedCount(type);
            completed += m.completedCount(type);
        }
        b.container("Operations", "operations; those still running are initiated but not completed")
                .number("monitorOpInitiated", initiated)
                .number("monitorOpCompleted", completed);
        for (OperationType type : OperationType.all()) {
            b.entry("cn=" + type.rdn() + ",cn=Operations," + ROOT, "monitorOperation")
                    .number("monitorOpInitiated", m.initiatedCount(type))
                    .number("monitorOpCompleted", m.completedCount(type));
        }

        b.container("Result Codes", "final responses sent, by result code (monitoredInfo: the code)");
        for (Map.Entry<Integer, Long> e : m.results().entrySet()) {
            b.entry("cn=" + ResultNames.of(e.getKey()) + ",cn=Result Codes," + ROOT, "monitorCounterObject")
                    .number("monitorCounter", e.getValue())
                    .text("monitoredInfo", Integer.toString(e.getKey()));
        }

        b.container("Statistics", "statistics");
        b.counter("cn=Bytes,cn=Statistics", m.bytesSent()).text("description", "LDAP bytes sent");
        b.counter("cn=Bytes Received,cn=Statistics", m.bytesReceived()).text("description", "LDAP bytes received");
        b.counter("cn=Entries,cn=Statistics", m.entriesSent()).text("description", "search result entries sent");
        b.counter("cn=Abandoned,cn=Statistics", m.abandoned())
                .text("description", "operations that ended without a response (abandoned, connection closed)");
        b.counter("cn=Write Transactions,cn=Statistics", server.writeTransactions())
                .text("description", "write transactions committed, each with one sync (group commit shares one)");
        b.counter("cn=Write Operations,cn=Statistics", server.writeOperations())
                .text("description", "writes committed (client and server-initiated)");

        b.container("Queues", "work waiting for a thread");
        b.counter("cn=Worker Queue,cn=Queues", server.workerQueueDepth())
                .text("description", "tasks waiting for a worker thread");
        b.counter("cn=Write Queue,cn=Queues", server.writeQueueDepth())
                .text("description", "writes waiting for the writer thread");

        Instant now = clock.instant();
        b.container("Time", "time");
        b.entry("cn=Start,cn=Time," + ROOT, "monitoredObject")
                .text("monitorTimestamp", GENERALIZED_TIME.format(server.started()));
        b.entry("cn=Current,cn=Time," + ROOT, "monitoredObject").text("monitorTimestamp", GENERALIZED_TIME.format(now));
        b.entry("cn=Uptime,cn=Time," + ROOT, "monitoredObject")
                .text(
                        "monitoredInfo",
                        Long.toString(Duration.between(server.started(), now).toSeconds()));

        replication(b);
        databases(b);
        indexes(b);
        jvm(b);
        return b.nodes();
    }

    private void replication(Builder b) {
        b.container("Replication", "content synchronization (RFC 4533): the change log and the consumers");
        b.counter("cn=Entries Sent,cn=Replication", server.syncEntriesSent())
                .text("description", "entries and change notices sent by sync searches since start, either mode");
        MonitoredServer.ChangeLogState log = server.changeLog();
        if (log != null) { // null: closing, the store can no longer be read
            Attributes context = b.entry("cn=Context CSN,cn=Replication," + ROOT, "monitoredObject")
                    .text("description", "the store's contextCSN: the newest change of each server ID");
            log.contextCsns().forEach(csn -> context.text("contextCSN", csn));
            b.counter("cn=Change Log,cn=Replication", log.records())
                    .text("description", "changes in the change log, which refreshes from a cookie read");
            Attributes oldest = b.entry("cn=Oldest Change,cn=Replication," + ROOT, "monitoredObject")
                    .text("description", "the CSN of the oldest change in the log; none when it is empty");
            if (log.oldest() != null) {
                oldest.text("monitoredInfo", log.oldest());
            }
            Attributes floor = b.entry("cn=Change Log Floor,cn=Replication," + ROOT, "monitoredObject")
                    .text(
                            "description",
                            "the CSN of the newest change no longer in the log (trimmed or replaced by an"
                                    + " import); a cookie below it is answered with a full refresh");
            if (log.floor() != null) {
                floor.text("monitoredInfo", log.floor());
            }
        }
        providers(b);
        for (SyncProgress consumer : server.syncConsumers()) {
            Attributes c = b.entry(
                            "cn=Consumer " + consumer.connection() + ",cn=Replication," + ROOT, "monitoredObject")
                    .number("monitorConnectionNumber", consumer.connection())
                    .text("larchSyncMode", modeName(consumer.mode()))
                    .text("larchSyncPhase", consumer.phase().name().toLowerCase(Locale.ROOT))
                    .number("monitorCounter", consumer.entriesSent());
            if (!consumer.identity().isEmpty()) {
                c.text("monitorConnectionAuthzDN", consumer.identity());
            }
            if (!consumer.sentUpTo().isEmpty()) {
                c.text("larchSyncSentUpTo", consumer.sentUpTo());
            }
        }
    }

    /** The providers this server replicates from, one entry per replica ID. */
    private void providers(Builder b) {
        for (SyncSessionStatus p : server.replicas()) {
            Attributes e = b.entry("cn=Provider " + p.rid() + ",cn=Replication," + ROOT, "monitoredObject")
                    .text("labeledURI", p.providerUrl())
                    .text("larchReplicaState", p.state().name().toLowerCase(Locale.ROOT))
                    .number("monitorCounter", p.changesReceived())
                    .number("larchReplicaConnects", p.connects())
                    .number("larchReplicaChangesApplied", server.replication().applied(p.rid()));
            long p50 = server.replication().recentLagMicros(p.rid(), 0.50);
            if (p50 >= 0) {
                e.text("larchReplicaLagP50", seconds(p50));
                e.text("larchReplicaLagP99", seconds(server.replication().recentLagMicros(p.rid(), 0.99)));
            }
            if (p.lastCookie() != null) {
                e.text("larchReplicaCookie", p.lastCookie());
            }
            if (p.lastError() != null) {
                e.text("larchReplicaLastError", p.lastError());
                e.text("larchReplicaLastErrorTime", GENERALIZED_TIME.format(p.lastErrorAt()));
            }
        }
    }

    /** Microseconds as seconds with three decimals ("0.012"). */
    private static String seconds(long micros) {
        return String.format(Locale.ROOT, "%.3f", micros / 1_000_000.0);
    }

    /** RFC 4533's name of a mode. */
    private static String modeName(SyncRequest.Mode mode) {
        return mode == SyncRequest.Mode.REFRESH_ONLY ? "refreshOnly" : "refreshAndPersist";
    }

    private void databases(Builder b) {
        b.container("Databases", "the LMDB store");
        String db = "cn=Database 0,cn=Databases," + ROOT;
        b.entry(db, "monitoredObject").text("monitoredInfo", "lmdb").text("namingContexts", server.suffix());
        StoreStatistics stats = server.storeStatistics();
        if (stats == null) {
            return; // closing: the numbers can no longer be read
        }
        b.counter("cn=Map Size,cn=Database 0,cn=Databases", stats.mapSizeBytes())
                .text("description", "bytes");
        b.counter("cn=Page Size,cn=Database 0,cn=Databases", stats.pageSizeBytes())
                .text("description", "bytes");
        b.counter("cn=Pages Used,cn=Database 0,cn=Databases", stats.pagesUsed());
        b.counter("cn=Last Transaction ID,cn=Database 0,cn=Databases", stats.lastTransactionId());
        b.counter("cn=Readers,cn=Database 0,cn=Databases", stats.readersInUse())
                .text("description", "reader slots in use");
        b.counter("cn=Max Readers,cn=Database 0,cn=Databases", stats.maxReaders());
        b.entry("cn=Records,cn=Database 0,cn=Databases," + ROOT, "monitorContainer")
                .text("description", "records per LMDB database");
        for (Map.Entry<String, Long> e : stats.recordsByDatabase().entrySet()) {
            b.counter("cn=" + Rdn.escapeValue(e.getKey()) + ",cn=Records,cn=Database 0,cn=Databases", e.getValue());
        }
    }

    private void indexes(Builder b) {
        b.container("Indexes", "index lookups by search planning since start, per attribute index");
        Map<IndexRef, Long> lookups = server.indexLookups();
        for (IndexRef ref : server.store().indexes().refs()) {
            AttributeType type = schema.schema().getAttributeType(ref.attributeOid());
            String name = type == null ? ref.attributeOid() : type.getName();
            String kind = ref.kind().name().toLowerCase(Locale.ROOT);
            b.counter("cn=" + Rdn.escapeValue(name + " " + kind) + ",cn=Indexes", lookups.getOrDefault(ref, 0L))
                    .text("monitoredInfo", kind + " index on " + name + " (" + ref.attributeOid() + ")");
        }
    }

    private static void jvm(Builder b) {
        b.container("JVM", "the Java virtual machine's memory, in bytes");
        MemoryUsage heap = MonitoredServer.heap();
        b.counter("cn=Heap Used,cn=JVM", heap.getUsed());
        b.counter("cn=Heap Committed,cn=JVM", heap.getCommitted());
        b.counter("cn=Heap Max,cn=JVM", heap.getMax());
        BufferPoolMXBean direct = MonitoredServer.directBuffers();
        if (direct != null) {
            b.counter("cn=Direct Memory Used,cn=JVM", direct.getMemoryUsed());
            b.counter("cn=Direct Memory Capacity,cn=JVM", direct.getTotalCapacity());
            b.counter("cn=Direct Buffers,cn=JVM", direct.getCount()).text("description", "buffers, not bytes");
        }
    }

    /** Adds entries in order; each parent must come before its children. */
    private final class Builder {
        private final List<Attributes> entries = new ArrayList<>();

        /** A child of the root holding others. */
        Attributes container(String cn, String what) {
            return entry("cn=" + cn + "," + ROOT, "monitorContainer")
                    .text("description", "This subsystem contains information about " + what + ".");
        }

        /** A leaf counter; {@code relative} is its DN above the root. */
        Attributes counter(String relative, long value) {
            return entry(relative + "," + ROOT, "monitorCounterObject").number("monitorCounter", value);
        }

        Attributes entry(String dn, String objectClass) {
            Dn parsed = schema.dn(dn);
            Attributes attributes = new Attributes(parsed, new DefaultEntry(schema.schema(), parsed));
            attributes.text("objectClass", objectClass);
            attributes.text("cn", parsed.getRdn().getAva().getValue().getString());
            entries.add(attributes);
            return attributes;
        }

        List<Node> nodes() {
            List<Node> nodes = new ArrayList<>(entries.size());
            for (Attributes a : entries) {
                // ID 0 under no parent: access control judges it like the root DSE, by the global rules.
                nodes.add(new Node(a.dn, EntryCodec.toStored(0, DnTree.NO_PARENT, a.entry)));
            }
            return nodes;
        }
    }

    /** The attributes of one entry under construction. */
    private static final class Attributes {
        private final Dn dn;
        private final Entry entry;

        Attributes(Dn dn, Entry entry) {
            this.dn = dn;
            this.entry = entry;
        }

        Attributes text(String attribute, String value) {
            try {
                entry.add(attribute, value);
            } catch (LdapException e) {
                throw new IllegalStateException("monitor entry " + entry.getDn() + ": " + attribute, e);
            }
            return this;
        }

        Attributes number(String attribute, long value) {
            return text(attribute, Long.toString(value));
        }
    }
}
