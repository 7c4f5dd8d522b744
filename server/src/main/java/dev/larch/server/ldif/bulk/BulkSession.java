package dev.larch.server.ldif.bulk;

import java.io.IOException;
import java.util.List;

import dev.larch.server.store.BulkLoad;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;

/**
 * The fast path of {@code ./larch import} into a store that holds no entry: entries are appended
 * in ID order while their index records go to sorted runs, and each index is filled from its runs
 * by appending once every entry is in ({@link IndexBuilder}).
 *
 * <p>Lifecycle: {@link #start}, then {@link #enlist} every write transaction that inserts entries,
 * then {@link #finish} once they are committed; on any failure {@link #abandon}; {@link #close} in
 * every case. While the load runs the indexes are marked unbuilt, so a process killed in the middle
 * leaves a store whose indexes are rebuilt from the entries it holds when next opened; {@link
 * #abandon} leaves it empty instead.
 *
 * <p>Memory and files: see {@link SortedRuns}; the run files live in a directory created in the
 * data directory and removed by {@link #close}.
 *
 * <p>Not thread-safe: used by the import's writer thread only.
 */
public final class BulkSession implements AutoCloseable {
    private final LmdbStore store;
    private final SortedRuns runs;
    private final IndexRecordSink sink;
    private long indexRecords;

    private BulkSession(LmdbStore store, long memoryBound) {
        this.store = store;
        List<IndexRef> indexes = store.indexes().refs();
        this.runs = new SortedRuns(indexes.size(), memoryBound, store.directory());
        this.sink = new IndexRecordSink(indexes, runs);
    }

    /**
     * Begins a bulk load, or returns null when the store holds an entry or an index record (an
     * import into it takes the ordinary path).
     *
     * @param memoryBound bytes of index records held in memory before they are spilled to disk
     */
    public static BulkSession start(LmdbStore store, long memoryBound) {
        try (ReadTxn txn = store.read()) {
            if (txn.entryCount() != 0) {
                return null;
            }
            for (IndexRef ref : store.indexes().refs()) {
                if (!BulkLoad.isEmpty(txn, ref)) {
                    return null;
                }
            }
        }
        BulkSession session = new BulkSession(store, memoryBound);
        try (WriteTxn txn = store.write()) {
            BulkLoad.markIndexesUnbuilt(txn);
            txn.commit();
        }
        return session;
    }

    /** Makes {@code txn} append entries and divert index records to this session's runs. */
    public void enlist(WriteTxn txn) {
        txn.bulkLoad(sink);
    }

    /**
     * Fills every index from the runs and marks it built; call once, after the last entry's
     * transaction committed.
     *
     * @return the index records written
     */
    public long finish() throws IOException {
        indexRecords = new IndexBuilder(store).buildAll(sink, runs);
        return indexRecords;
    }

    /** Removes every entry and index record written so far, in one transaction: the store is empty again. */
    public void abandon() {
        try (WriteTxn txn = store.write()) {
            BulkLoad.emptyAll(txn);
            txn.commit();
        }
    }

    /** How many times index records were spilled to run files (0 when they all fitted in memory). */
    public int spills() {
        return runs.spills();
    }

    /** Index records written by {@link #finish}. */
    public long indexRecords() {
        return indexRecords;
    }

    /** Removes the run files and their directory. */
    @Override
    public void close() throws IOException {
        runs.close();
    }
}
