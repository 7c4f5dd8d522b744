package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.BooleanSupplier;

import dev.larch.config.IndexKind;
import org.lmdbjava.Cursor;
import org.lmdbjava.Txn;

/**
 * A consistent read view of the store: the transaction callers hold, with one method per read
 * they make, each answered by the tree that owns the data ({@link EntryTree}, {@link DnTree},
 * {@link AttributeIndex}). Buffers it returns point into the memory map and are valid only until
 * the transaction closes.
 *
 * <p>Not thread-safe: one thread at a time (it may move between threads, see {@link LmdbStore}).
 */
public class ReadTxn implements AutoCloseable {
    /** Returned by ID lookups that find nothing; no entry has ID 0. */
    public static final long NOT_FOUND = -1L;

    final LmdbStore store;
    final Txn<ByteBuffer> txn;
    private boolean closed;
    /** {@link #stillOpen()}: one per transaction, however many entries ask it. */
    private final BooleanSupplier open = this::isOpen;
    /**
     * Direct buffers for keys and IDs handed to LMDB, one pair per thread: LMDB copies what a put
     * is given and a lookup only reads it, and every use ends within one method call, so nothing
     * outlives the call that filled them. Allocating them per key (or per transaction, that is
     * per search) costs a direct allocation and a cleaner registration each time.
     */
    private static final ThreadLocal<ByteBuffer[]> BUFFERS = ThreadLocal.withInitial(() ->
            new ByteBuffer[] {ByteBuffer.allocateDirect(Tree.MAX_KEY_BYTES), ByteBuffer.allocateDirect(EntryIds.BYTES)
            });

    /** This thread's buffer for one key of at most {@link Tree#MAX_KEY_BYTES}. */
    final ByteBuffer keyBuffer() {
        return BUFFERS.get()[0];
    }

    /** This thread's buffer for one stored ID. */
    final ByteBuffer idBuffer() {
        return BUFFERS.get()[1];
    }

    /**
     * A cursor over {@code tree} in this transaction, kept by this thread for its next lookup when
     * this is a read ({@link CursorShelf}); hand it to {@link #giveBack} before this transaction
     * closes, never close it.
     */
    final Cursor<ByteBuffer> borrowCursor(Tree tree) {
        return store.cursors().borrow(tree, txn);
    }

    /** Ends the use of a cursor {@link #borrowCursor} gave on this thread. */
    final void giveBack(Cursor<ByteBuffer> cursor) {
        store.cursors().giveBack(cursor);
    }

    /**
     * The rename count of this snapshot, read when the transaction begins: read later, it would
     * move the buffer a caller holds from its last read (LMDB hands every read of a transaction back
     * in the same buffer object).
     */
    private final long renames;

    ReadTxn(LmdbStore store, Txn<ByteBuffer> txn) {
        this.store = store;
        this.txn = txn;
        this.renames = store.snapshotRenames().of(this, store.meta());
    }

    /**
     * The generation a cache of DN-derived data (DNs rebuilt from the parent chain, ancestor IDs)
     * must have been filled at to be valid in this transaction: the number of renames the store had
     * committed in this snapshot ({@link MetaTree}). Between two renames no entry's DN or parent
     * changes, so data cached at generation g holds for every transaction of generation g; a reader
     * that began before a rename keeps seeing old DNs, one that began after it the new ones. A
     * negative result means "use no such cache": a write transaction that renamed an entry sees a
     * state no other transaction has seen yet and may never commit.
     */
    public long renameGeneration() {
        return renames;
    }

    /**
     * Whether the buffers this transaction returned still point at the state it reads: it reads
     * only (a write transaction's later writes may change what an earlier read returned) and has not
     * ended. Asked when data is read in place, in the transaction's memory, rather than copied out.
     */
    public boolean readsInPlace() {
        return !closed && txn.isReadOnly();
    }

    /**
     * Tells whether this transaction is still open: for data left in its memory, which a read must
     * not touch once it has ended. The same object each call.
     */
    public BooleanSupplier stillOpen() {
        return open;
    }

    private boolean isOpen() {
        return !closed;
    }

    /** The serialized entry with this ID, or null. */
    public ByteBuffer entry(long id) {
        return store.entries().get(this, id);
    }

    /** The ID of the child of {@code parentId} with this normalized RDN, or {@link #NOT_FOUND}. */
    public long childId(long parentId, byte[] normalizedRdn) {
        return store.dn().childId(this, parentId, normalizedRdn);
    }

    /** Whether {@code parentId} has at least one child. */
    public boolean hasChildren(long parentId) {
        return store.dn().hasChildren(this, parentId);
    }

    /** Streams the IDs of the children of {@code parentId}, in normalized-RDN order. */
    public IdCursor children(long parentId) {
        return store.dn().children(this, parentId);
    }

    /**
     * Visits the children of {@code parentId} in normalized-RDN order, with their normalized RDNs as
     * the DN index holds them, until the visitor returns false. Reads no entry.
     */
    public void forEachChild(long parentId, ChildVisitor visitor) {
        store.dn().forEachChild(this, parentId, visitor);
    }

    /**
     * Streams the IDs of the children of {@code parentId} whose normalized RDN sorts after {@code
     * normalizedRdn}, in normalized-RDN order: where a walk of the children stopped, resumed in a
     * later transaction whether or not that child still exists.
     */
    public IdCursor childrenAfter(long parentId, byte[] normalizedRdn) {
        return store.dn().childrenAfter(this, parentId, normalizedRdn);
    }

    /** Streams every entry ID in ascending order. */
    public IdCursor allEntries() {
        return store.entries().ids(this);
    }

    public long entryCount() {
        return store.entries().count(this);
    }

    /**
     * The change log's records after {@code csn} (all of them when null), in CSN order: what changed
     * since a consumer's cookie. Close the cursor before this transaction.
     */
    public ChangeLogCursor changesAfter(byte[] csn) {
        return store.changeLog().after(this, csn);
    }

    /** The CSN of the oldest change in the log, or null when it is empty. */
    public byte[] oldestLoggedChange() {
        return store.changeLog().oldest(this);
    }

    /** How many changes the log holds. */
    public long changeLogSize() {
        return store.changeLog().size(this);
    }

    /**
     * The CSN of the newest change no longer in the log (trimmed, or made before an import replaced
     * the tree), or null when the log holds every change the store ever made.
     */
    public byte[] changeLogFloor() {
        return store.meta().changeLogFloor(this);
    }

    /** The store's contextCSN: the highest CSN of each server ID, in server ID order. */
    public List<byte[]> contextCsns() {
        return store.meta().contextCsns(this);
    }

    /** Whether a change stamped {@code csn} is in the log. */
    public boolean hasLoggedChange(byte[] csn) {
        return store.changeLog().contains(this, csn);
    }

    /**
     * The CSN of the delete of the entry {@code uuid} (16 raw bytes) while that delete is in the change
     * log, or null.
     */
    public byte[] tombstone(byte[] uuid) {
        return store.tombstones().get(this, uuid);
    }

    /** Whether {@code uuid} is marked present for replica {@code rid}. */
    public boolean isPresent(int rid, byte[] uuid) {
        return store.present().contains(this, rid, uuid);
    }

    /** How many UUIDs are marked present for replica {@code rid} (a walk of its marks). */
    public long presentCount(int rid) {
        return store.present().count(this, rid);
    }

    /** The sync cookie replica {@code rid} has reached, as stored; null when none is. */
    public String replicaCookie(int rid) {
        return store.meta().replicaCookie(this, rid);
    }

    /** Streams the IDs of the entries above {@code id}, in ascending order. */
    public IdCursor entriesAfter(long id) {
        return store.entries().idsAfter(this, id);
    }

    /**
     * Walks the entries above {@code id} (every entry when it is 0) in ascending ID order, each with its
     * serialized form; close it before this transaction.
     */
    public EntryScan entryScan(long id) {
        return store.entries().scanAfter(this, id);
    }

    /** How many entries an index holds under exactly {@code key}. */
    public long count(String attributeOid, IndexKind kind, byte[] key) {
        return store.indexes().get(attributeOid, kind).count(this, key);
    }

    /**
     * The IDs under exactly {@code key}, or null when there are more than {@code limit}: such a key
     * narrows too little to be worth reading, and the planner treats it as unindexed.
     */
    public IdSet ids(String attributeOid, IndexKind kind, byte[] key, int limit) {
        return store.indexes().get(attributeOid, kind).ids(this, key, limit);
    }

    /**
     * The IDs under every key in [{@code from}, {@code to}] (either bound null for open), or null
     * when more than {@code limit} were seen. With {@code prefixOnly}, {@code from} is a prefix and
     * the scan stops at the first key not starting with it.
     */
    public IdSet idsInRange(
            String attributeOid, IndexKind kind, byte[] from, byte[] to, boolean prefixOnly, int limit) {
        return store.indexes().get(attributeOid, kind).idsInRange(this, from, to, prefixOnly, limit);
    }

    /** Records (key, ID pairs) in one index. */
    public long indexRecordCount(String attributeOid, IndexKind kind) {
        return store.indexes().get(attributeOid, kind).records(this);
    }

    /** Records in the DN index: one per entry in a sound store. */
    public long dnRecordCount() {
        return store.dn().records(this);
    }

    /** What a walk over the children of one entry is told, one child at a time. */
    @FunctionalInterface
    public interface ChildVisitor {
        /**
         * @param normalizedRdn the child's normalized RDN (UTF-8), copied
         * @param id the child's entry ID
         * @return whether to go on to the next child
         */
        boolean visit(byte[] normalizedRdn, long id);
    }

    /** What a walk over every record of a database is told, one record at a time. */
    @FunctionalInterface
    public interface RecordVisitor {
        /**
         * @param key the record's key (the DN index's: parent ID then normalized RDN), copied
         * @param id the entry ID the record names
         */
        void visit(byte[] key, long id);
    }

    /** Visits every record of one index in key order. */
    public void forEachIndexRecord(String attributeOid, IndexKind kind, RecordVisitor visitor) {
        store.indexes().get(attributeOid, kind).forEach(this, visitor);
    }

    /**
     * Visits, in key order, the records of one index whose stored key starts with {@code prefix}
     * (compared as stored keys are, cut to {@link IndexKeys#MAX_KEY_BYTES}).
     */
    public void forEachIndexRecordWithPrefix(
            String attributeOid, IndexKind kind, byte[] prefix, RecordVisitor visitor) {
        store.indexes().get(attributeOid, kind).forEachWithPrefix(this, prefix, visitor);
    }

    /** A walk of every record of {@code index} in key order, then ID order; close it before this transaction. */
    public IndexRecordCursor indexRecords(IndexRef index) {
        return new IndexRecordCursor(store.indexes().get(index).tree().range(txn, KeyRange.all()));
    }

    /**
     * The ID of the snapshot this transaction reads: two read transactions with the same ID see the
     * same state of the store (no write committed between their starts).
     */
    public long snapshotId() {
        return txn.getId();
    }

    /** Visits every record of the DN index in key order. */
    public void forEachDnRecord(RecordVisitor visitor) {
        store.dn().forEach(this, visitor);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (txn.isReadOnly()) {
                store.readEnded(txn); // kept for the thread's next read
            } else {
                txn.close();
            }
        } finally {
            store.transactionClosed();
        }
    }
}
