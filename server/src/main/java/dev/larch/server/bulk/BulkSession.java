package dev.larch.server.bulk;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import dev.larch.config.IndexKind;
import dev.larch.server.store.BulkLoad;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
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
 * <p>A replica's first refresh into an empty store takes the same path in a running server
 * ({@link #startIn}, {@link #enlistUntilCommit}): its transactions are the writer's, which may roll
 * one back and run it again, so their records reach the runs only once they committed.
 *
 * <p>Not thread-safe: used by one writer thread only.
 */
public final class BulkSession implements AutoCloseable {
    private final LmdbStore store;
    private final SortedRuns runs;
    private final IndexRecordSink sink;
    private long indexRecords;
    /** Why records of a committed transaction never reached the runs; null while none were lost. */
    private RuntimeException lost;

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
        try (WriteTxn txn = store.write()) {
            BulkSession session = startIn(txn, store, memoryBound);
            if (session != null) {
                txn.commit();
            }
            return session;
        }
    }

    /**
     * {@link #start} in {@code txn}: the indexes are marked unbuilt in it, so the marks commit with
     * it; null when the store as {@code txn} sees it holds an entry or an index record.
     */
    public static BulkSession startIn(WriteTxn txn, LmdbStore store, long memoryBound) {
        if (txn.entryCount() != 0) {
            return null;
        }
        for (IndexRef ref : store.indexes().refs()) {
            if (!BulkLoad.isEmpty(txn, ref)) {
                return null;
            }
        }
        BulkLoad.markIndexesUnbuilt(txn);
        return new BulkSession(store, memoryBound);
    }

    /** Makes {@code txn} append entries and divert index records to this session's runs. */
    public void enlist(WriteTxn txn) {
        txn.bulkLoad(sink);
    }

    /**
     * Makes {@code txn} append entries and hold its index records until the top-level transaction
     * committed, then hand them to this session's runs: a transaction rolled back leaves none behind.
     * Held records cost about their key's size each, a batch of entries' worth.
     */
    public void enlistUntilCommit(WriteTxn txn) {
        HeldRecords held = new HeldRecords();
        txn.bulkLoad(held);
        txn.onCommit(held::release);
    }

    /**
     * One transaction's index records, until it committed. The keys are held as given: each entry's
     * index keys are arrays of their own, never a buffer reused for the next.
     */
    private final class HeldRecords implements WriteTxn.BulkIndexSink {
        private final List<Held> records = new ArrayList<>();

        @Override
        public void add(String attributeOid, IndexKind kind, byte[] storedKey, long id) {
            records.add(new Held(attributeOid, kind, storedKey, id));
        }

        void release() {
            try {
                for (Held r : records) {
                    sink.add(r.attributeOid(), r.kind(), r.storedKey(), r.id());
                }
            } catch (RuntimeException e) {
                // The entries are committed: an index now lacks some of them, which finish() must not build.
                lost = e;
                throw e;
            }
        }
    }

    private record Held(String attributeOid, IndexKind kind, byte[] storedKey, long id) {}

    /**
     * Fills every index from the runs and marks it built; call once, after the last entry's
     * transaction committed.
     *
     * @return the index records written
     * @throws IOException when records of a committed transaction could not be kept ({@link
     *     #enlistUntilCommit}) or the runs cannot be read
     */
    public long finish() throws IOException {
        if (lost != null) {
            throw new IOException("index records of committed entries were lost: " + lost.getMessage(), lost);
        }
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
