package dev.larch.server.monitor;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;

import dev.larch.server.commit.WriteQueue;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.StoreClosedException;
import dev.larch.server.store.StoreStatistics;
import dev.larch.server.work.WorkerPool;

/**
 * Everything monitoring shows about one running server: its {@link ServerMetrics} and the gauges read
 * when asked (the store's LMDB numbers, queue depths, JVM memory). Thread-safe; every reading is taken
 * at the moment it is asked for.
 *
 * @param version the server version, as the root DSE shows it
 * @param started when the server started serving
 * @param suffix the naming context, as configured
 * @param accepting whether the LDAP listener accepts connections; false before it is bound
 */
public record MonitoredServer(
        ServerMetrics metrics,
        LmdbStore store,
        WorkerPool workers,
        WriteQueue writes,
        String version,
        Instant started,
        String suffix,
        BooleanSupplier accepting) {

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
