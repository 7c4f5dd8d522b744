package dev.larch.server.monitor;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.larch.server.commit.WriteQueue;
import dev.larch.server.read.sync.SyncProgress;
import dev.larch.server.read.sync.SyncSearches;
import dev.larch.server.replica.ReplicationMetrics;
import dev.larch.server.replica.SyncSessionStatus;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.StoreClosedException;
import dev.larch.server.store.StoreStatistics;
import dev.larch.server.work.WorkerPool;

/**
 * Everything monitoring shows about one running server: its {@link ServerMetrics} and the gauges read
 * when asked (the store's LMDB numbers, queue depths, JVM memory). Thread-safe; every reading is taken
 * at the moment it is asked for.
 *
 * @param sync the content-synchronization searches; null when none are served
 * @param version the server version, as the root DSE shows it
 * @param started when the server started serving
 * @param suffix the naming context, as configured
 * @param accepting whether the LDAP listener accepts connections; false before it is bound
 * @param replicaStatuses what the sessions replicating from providers are doing; empty for none
 * @param replication what the replicas committed and their lag, per replica ID
 */
public record MonitoredServer(
        ServerMetrics metrics,
        LmdbStore store,
        WorkerPool workers,
        WriteQueue writes,
        SyncSearches sync,
        String version,
        Instant started,
        String suffix,
        BooleanSupplier accepting,
        Supplier<List<SyncSessionStatus>> replicaStatuses,
        ReplicationMetrics replication) {

    /** The store's LMDB numbers now, or null once the store is closing. */
    public StoreStatistics storeStatistics() {
        if (!store.isOpen()) {
            return null;
        }
        try {
            return store.statistics();
        } catch (StoreClosedException e) {
            return null;
        }
    }

    /**
     * The change log and the contextCSN now, read in one transaction; null once the store is
     * closing.
     */
    public ChangeLogState changeLog() {
        if (!store.isOpen()) {
            return null;
        }
        try (ReadTxn txn = store.read()) {
            List<String> context = new ArrayList<>();
            for (byte[] csn : txn.contextCsns()) {
                context.add(new String(csn, StandardCharsets.US_ASCII));
            }
            return new ChangeLogState(
                    txn.changeLogSize(), text(txn.oldestLoggedChange()), text(txn.changeLogFloor()), context);
        } catch (StoreClosedException e) {
            return null;
        }
    }

    private static String text(byte[] csn) {
        return csn == null ? null : new String(csn, StandardCharsets.US_ASCII);
    }

    /**
     * The change log as monitoring shows it.
     *
     * @param records how many changes it holds
     * @param oldest the CSN of the oldest, or null when it is empty
     * @param floor the CSN of the newest change no longer in it, or null when it holds every change
     * @param contextCsns the store's contextCSN, one CSN per server ID
     */
    public record ChangeLogState(long records, String oldest, String floor, List<String> contextCsns) {
        public ChangeLogState {
            contextCsns = List.copyOf(contextCsns);
        }
    }

    /** What each session replicating from a provider is doing now, in replica ID order. */
    public List<SyncSessionStatus> replicas() {
        return replicaStatuses.get();
    }

    /** The refreshAndPersist consumers connected now; none when no sync searches are served. */
    public List<SyncProgress> syncConsumers() {
        return sync == null ? List.of() : sync.consumers();
    }

    /** Entries every sync search sent since start (see {@link SyncSearches#entriesSent()}). */
    public long syncEntriesSent() {
        return sync == null ? 0 : sync.entriesSent();
    }

    /** Index lookups by search planning since start (see {@link LmdbStore#indexes()}). */
    public Map<IndexRef, Long> indexLookups() {
        return store.indexes().lookups();
    }

    /** Ready to serve: the store open and the listener accepting. */
    public boolean ready() {
        return store.isOpen() && accepting.getAsBoolean();
    }

    /** Tasks waiting for a worker thread. */
    public int workerQueueDepth() {
        return workers.queued();
    }

    /** Writes waiting for the writer thread. */
    public int writeQueueDepth() {
        return writes.queued();
    }

    /** Write transactions committed since start; several writes may share one (group commit). */
    public long writeTransactions() {
        return writes.transactionsCommitted();
    }

    /** Writes (client and server-initiated) committed since start. */
    public long writeOperations() {
        return writes.operationsCommitted();
    }

    /** The JVM's heap now. */
    public static MemoryUsage heap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    }

    /** The JVM's pool of direct buffers (Netty's and LMDB's key buffers); null if the JVM has none. */
    public static BufferPoolMXBean directBuffers() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if ("direct".equals(pool.getName())) {
                return pool;
            }
        }
        return null;
    }
}
