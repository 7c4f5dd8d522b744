package dev.larch.server.maintenance;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.bulk.SortedIndexRecords;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IndexRecordCursor;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.ReadTxn;

/**
 * Compares one index with the records its entries give it, in one walk of each in the same order
 * (key, then ID): the expected records sorted by the entry pass ({@link SortedIndexRecords}) and the
 * index's own ({@link IndexRecordCursor}). An expected record the index lacks is missing; an index
 * record no entry expects is extra (its entry is gone, or none of its values gives that key); a key
 * under the wrong ID is both. Each costs one sequential step, where looking every expected record
 * up cost a B-tree descent and proved only "present", leaving extras to a record count.
 *
 * <p>Not thread-safe: one per index and thread, in that thread's transaction.
 */
final class IndexComparison implements SortedIndexRecords.Sink {
    /** Index records between two updates of the shared count walked. */
    private static final int PUBLISH_EVERY = 1 << 16;

    private final Directory directory;
    private final ReadTxn txn;
    private final IndexRef index;
    private final VerifyReport report;
    private final IndexRecordCursor held;
    private final AtomicLong done;
    private boolean hasHeld;
    private long heldRecords;

    private IndexComparison(Directory directory, ReadTxn txn, IndexRef index, VerifyReport report, AtomicLong done) {
        this.directory = directory;
        this.txn = txn;
        this.index = index;
        this.report = report;
        this.done = done;
        this.held = txn.indexRecords(index);
        this.hasHeld = advance();
    }

    /**
     * Compares {@code index} (slot {@code slot} of the expected records' {@code parts}) with its
     * expected records, reporting each disagreement to {@code report}.
     *
     * @param done counts the index records walked, for progress
     * @return the records the index holds
     */
    static long compare(
            Directory directory,
            ReadTxn txn,
            IndexRef index,
            int slot,
            List<SortedIndexRecords> parts,
            VerifyReport report,
            AtomicLong done)
            throws IOException {
        IndexComparison comparison = new IndexComparison(directory, txn, index, report, done);
        try {
            SortedIndexRecords.drain(parts, slot, comparison);
            comparison.finish();
            done.addAndGet(comparison.heldRecords % PUBLISH_EVERY);
            return comparison.heldRecords;
        } finally {
            comparison.held.close();
        }
    }

    @Override
    public void accept(byte[] key, int keyLength, long id) {
        while (hasHeld) {
            int c = Arrays.compareUnsigned(held.keyArray(), 0, held.keyLength(), key, 0, keyLength);
            if (c == 0) {
                c = Long.compare(held.id(), id);
            }
            if (c > 0) {
                break;
            }
            if (c < 0) {
                extra(held.id());
            }
            hasHeld = advance();
            if (c == 0) {
                return;
            }
        }
        missing(id);
    }

    /** The index records after the last expected one: all extra. */
    private void finish() {
        while (hasHeld) {
            extra(held.id());
            hasHeld = advance();
        }
    }

    private boolean advance() {
        if (!held.next()) {
            return false;
        }
        if (++heldRecords % PUBLISH_EVERY == 0) {
            done.addAndGet(PUBLISH_EVERY);
        }
        return true;
    }

    private void missing(long id) {
        if (!report.listing()) {
            report.problem(describe(index) + " lacks a key of entry " + id);
            return;
        }
        String name;
        try {
            StoredEntry entry = directory.load(txn, id);
            name = entry == null ? "" : " (" + entry.dn() + ")";
        } catch (RuntimeException e) {
            name = "";
        }
        report.problem(describe(index) + " lacks a key of entry " + id + name);
    }

    private void extra(long id) {
        StoredEntry entry;
        try {
            entry = directory.load(txn, id);
        } catch (RuntimeException e) {
            return; // reported when the entry itself was checked: it gave no keys
        }
        if (entry == null) {
            report.problem(describe(index) + " names entry " + id + ", which does not exist");
        } else if (!report.listing()) {
            report.problem(describe(index) + " holds a key for entry " + id + " that none of its values gives");
        } else {
            report.problem(describe(index) + " holds a key for entry " + id + " (" + entry.dn()
                    + ") that none of its values gives");
        }
    }

    static String describe(IndexRef ref) {
        return "the " + ref.kind().name().toLowerCase(Locale.ROOT) + " index of " + ref.attributeOid();
    }
}
