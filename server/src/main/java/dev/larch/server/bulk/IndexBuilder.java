package dev.larch.server.bulk;

import java.io.IOException;
import java.util.List;

import dev.larch.server.store.BulkLoad;
import dev.larch.server.store.IndexAppender;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of a bulk load: fills each (empty) index from its sorted runs by appending, in
 * transactions of at most {@link #RECORDS_PER_TXN} records, and marks it built in the transaction
 * that writes its last record.
 *
 * <p>Why that size: LMDB keeps a transaction's dirty pages in a list of at most 128k pages (512 MB
 * of 4 KB pages) and starts writing them out early beyond it; a few million index records fill a
 * few hundred MB of pages at most, so one commit per few million records keeps the commits rare
 * without ever reaching that bound.
 */
final class IndexBuilder {
    private static final Logger LOG = LoggerFactory.getLogger(IndexBuilder.class);
    static final long RECORDS_PER_TXN = 4_000_000;

    private final LmdbStore store;

    IndexBuilder(LmdbStore store) {
        this.store = store;
    }

    /**
     * Fills every index of {@code sink} from {@code runs}; returns the records written.
     *
     * @throws IllegalStateException when an index to fill is not empty
     */
    long buildAll(IndexRecordSink sink, SortedRuns runs) throws IOException {
        List<IndexRef> indexes = sink.indexes();
        long total = 0;
        for (int slot = 0; slot < indexes.size(); slot++) {
            long start = System.nanoTime();
            long n = build(indexes.get(slot), slot, runs);
            total += n;
            LOG.debug(
                    "filled the {} index in {} ms: {} records",
                    indexes.get(slot),
                    (System.nanoTime() - start) / 1_000_000,
                    n);
        }
        return total;
    }

    private long build(IndexRef ref, int slot, SortedRuns runs) throws IOException {
        try (var read = store.read()) {
            if (!BulkLoad.isEmpty(read, ref)) {
                throw new IllegalStateException(
                        "the " + ref + " index is not empty: a bulk load fills empty indexes only");
            }
        }
        Appending appending = new Appending(ref);
        try {
            long n = runs.merge(slot, appending::accept);
            appending.finish();
            return n;
        } finally {
            appending.close();
        }
    }

    /** The open transaction and appender of one index, renewed every {@link #RECORDS_PER_TXN} records. */
    private final class Appending implements AutoCloseable {
        private final IndexRef ref;
        private WriteTxn txn;
        private IndexAppender appender;
        private long inTxn;

        Appending(IndexRef ref) {
            this.ref = ref;
            open();
        }

        private void open() {
            txn = store.write();
            appender = BulkLoad.appendTo(txn, ref);
            inTxn = 0;
        }

        void accept(byte[] key, int length, long id, boolean sameKey) {
            if (inTxn == RECORDS_PER_TXN) {
                appender.close();
                txn.commit();
                txn.close();
                open();
            }
            appender.append(key, length, id, sameKey);
            inTxn++;
        }

        /** Marks the index built and commits the last transaction. */
        void finish() {
            appender.close();
            store.indexes().markBuilt(txn, ref);
            txn.commit();
        }

        @Override
        public void close() {
            appender.close();
            txn.close();
        }
    }
}
