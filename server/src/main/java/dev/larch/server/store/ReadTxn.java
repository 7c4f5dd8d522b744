package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import dev.larch.config.IndexKind;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.GetOp;
import org.lmdbjava.SeekOp;
import org.lmdbjava.Txn;

/**
 * A consistent read view of the store. Buffers it returns point into the memory map and are valid
 * only until the transaction closes.
 *
 * <p>Not thread-safe: one thread at a time (it may move between threads, see {@link LmdbStore}).
 */
public class ReadTxn implements AutoCloseable {
    /** Returned by ID lookups that find nothing; no entry has ID 0. */
    public static final long NOT_FOUND = -1L;

    final LmdbStore store;
    final Txn<ByteBuffer> txn;
    private boolean closed;
    /**
     * Direct buffers for keys and IDs handed to LMDB, one pair per thread: LMDB copies what a put
     * is given and a lookup only reads it, and every use ends within one method call, so nothing
     * outlives the call that filled them. Allocating them per key (or per transaction, that is
     * per search) costs a direct allocation and a cleaner registration each time.
     */
    private static final ThreadLocal<ByteBuffer[]> BUFFERS = ThreadLocal.withInitial(
            () -> new ByteBuffer[] {ByteBuffer.allocateDirect(Keys.MAX_KEY_BYTES), ByteBuffer.allocateDirect(8)});

    final ByteBuffer keyBuffer() {
        return BUFFERS.get()[0];
    }

    final ByteBuffer idBuffer() {
        return BUFFERS.get()[1];
    }

    ReadTxn(LmdbStore store, Txn<ByteBuffer> txn) {
        this.store = store;
        this.txn = txn;
    }

    /** The serialized entry with this ID, or null. */
    public ByteBuffer entry(long id) {
        return store.entriesDbi().get(txn, Keys.id(idBuffer(), id));
    }

    /** The ID of the child of {@code parentId} with this normalized RDN, or {@link #NOT_FOUND}. */
    public long childId(long parentId, byte[] normalizedRdn) {
        if (normalizedRdn.length + 8 > Keys.MAX_KEY_BYTES) {
            return NOT_FOUND;
        }
        ByteBuffer v = store.dnDbi().get(txn, Keys.child(keyBuffer(), parentId, normalizedRdn));
        return v == null ? NOT_FOUND : Keys.readId(v);
    }

    /** Whether {@code parentId} has at least one child. */
    public boolean hasChildren(long parentId) {
        try (IdCursor c = children(parentId)) {
            return c.next() != NOT_FOUND;
        }
    }

    /** Streams the IDs of the children of {@code parentId}, in normalized-RDN order. */
    public IdCursor children(long parentId) {
        ByteBuffer prefix = ByteBuffer.allocateDirect(8);
        prefix.putLong(0, parentId);
        return new PrefixCursor(store.dnDbi().openCursor(txn), prefix, PrefixCursor.Yield.VALUE);
    }

    /**
     * Streams the IDs of the children of {@code parentId} whose normalized RDN sorts after {@code
     * normalizedRdn}, in normalized-RDN order: where a walk of the children stopped, resumed in a
     * later transaction whether or not that child still exists.
     */
    public IdCursor childrenAfter(long parentId, byte[] normalizedRdn) {
        ByteBuffer prefix = ByteBuffer.allocateDirect(8);
        prefix.putLong(0, parentId);
        ByteBuffer after = ByteBuffer.allocateDirect(8 + normalizedRdn.length);
        after.putLong(parentId).put(normalizedRdn).flip();
        return new PrefixCursor(store.dnDbi().openCursor(txn), prefix, PrefixCursor.Yield.VALUE, after);
    }

    /** Streams every entry ID in ascending order. */
    public IdCursor allEntries() {
        return new PrefixCursor(
                store.entriesDbi().openCursor(txn), ByteBuffer.allocateDirect(0), PrefixCursor.Yield.KEY);
    }

    public long entryCount() {
        return store.entriesDbi().stat(txn).entries;
    }

    /** How many entries an index holds under exactly {@code key}. */
    public long count(String attributeOid, IndexKind kind, byte[] key) {
        try (Cursor<ByteBuffer> c = store.index(attributeOid, kind).openCursor(txn)) {
            return c.get(Keys.indexKey(keyBuffer(), key), GetOp.MDB_SET_KEY) ? c.count() : 0;
        }
    }

    /**
     * The IDs under exactly {@code key}, or null when there are more than {@code limit}: such a key
     * narrows too little to be worth reading, and the planner treats it as unindexed.
     */
    public IdSet ids(String attributeOid, IndexKind kind, byte[] key, int limit) {
        try (Cursor<ByteBuffer> c = store.lookup(attributeOid, kind).openCursor(txn)) {
            if (!c.get(Keys.indexKey(keyBuffer(), key), GetOp.MDB_SET_KEY)) {
                return IdSet.EMPTY;
            }
            long n = c.count();
            if (n > limit) {
                return null;
            }
            long[] ids = new long[(int) n];
            int i = 0;
            do {
                ids[i++] = Keys.readId(c.val());
            } while (i < n && c.seek(SeekOp.MDB_NEXT_DUP));
            return new IdSet(ids, i);
        }
    }

    /**
     * The IDs under every key in [{@code from}, {@code to}] (either bound null for open), or null
     * when more than {@code limit} were seen. With {@code prefixOnly}, {@code from} is a prefix and
     * the scan stops at the first key not starting with it.
     */
    public IdSet idsInRange(
            String attributeOid, IndexKind kind, byte[] from, byte[] to, boolean prefixOnly, int limit) {
        Dbi<ByteBuffer> dbi = store.lookup(attributeOid, kind);
        IdSet.Builder out = new IdSet.Builder();
        try (Cursor<ByteBuffer> c = dbi.openCursor(txn)) {
            boolean more = from == null ? c.first() : c.get(Keys.indexKey(keyBuffer(), from), GetOp.MDB_SET_RANGE);
            byte[] prefix = prefixOnly ? from : null;
            while (more) {
                ByteBuffer key = c.key();
                if (prefix != null && !startsWith(key, prefix)) {
                    break;
                }
                if (to != null && compare(key, to) > 0) {
                    break;
                }
                if (out.size() >= limit) {
                    return null;
                }
                out.add(Keys.readId(c.val()));
                more = c.seek(SeekOp.MDB_NEXT);
            }
        }
        return out.build();
    }

    /** A probe for single index records in this transaction; close it before the transaction. */
    public IndexProbe indexProbe() {
        return new IndexProbe();
    }

    /**
     * Answers whether an index holds a (key, ID) record, keeping one cursor open per index for its
     * life: a check of every record of a store opens no cursor per record. Not thread-safe.
     */
    public final class IndexProbe implements AutoCloseable {
        private final Map<LmdbStore.IndexRef, Cursor<ByteBuffer>> cursors = new HashMap<>();

        private IndexProbe() {}

        /** Whether {@code index} holds ({@code key}, {@code id}); {@code key} is cut as stored keys are. */
        public boolean has(LmdbStore.IndexRef index, byte[] key, long id) {
            Cursor<ByteBuffer> c = cursors.computeIfAbsent(
                    index, ref -> store.index(ref.attributeOid(), ref.kind()).openCursor(txn));
            return c.get(Keys.indexKey(keyBuffer(), key), Keys.id(idBuffer(), id), SeekOp.MDB_GET_BOTH);
        }

        @Override
        public void close() {
            cursors.values().forEach(Cursor::close);
            cursors.clear();
        }
    }

    /** Records (key, ID pairs) in one index. */
    public long indexRecordCount(String attributeOid, IndexKind kind) {
        return store.index(attributeOid, kind).stat(txn).entries;
    }

    /** Records in the DN index: one per entry in a sound store. */
    public long dnRecordCount() {
        return store.dnDbi().stat(txn).entries;
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
        forEachRecord(store.index(attributeOid, kind), visitor);
    }

    /** Visits every record of the DN index in key order. */
    public void forEachDnRecord(RecordVisitor visitor) {
        forEachRecord(store.dnDbi(), visitor);
    }

    private void forEachRecord(Dbi<ByteBuffer> dbi, RecordVisitor visitor) {
        try (Cursor<ByteBuffer> c = dbi.openCursor(txn)) {
            for (boolean more = c.first(); more; more = c.seek(SeekOp.MDB_NEXT)) {
                visitor.visit(Keys.bytes(c.key()), Keys.readId(c.val()));
            }
        }
    }

    private static boolean startsWith(ByteBuffer key, byte[] prefix) {
        int n = Math.min(prefix.length, Keys.MAX_KEY_BYTES);
        if (key.remaining() < n) {
            return false;
        }
        int p = key.position();
        for (int i = 0; i < n; i++) {
            if (key.get(p + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** Unsigned lexicographic comparison, LMDB's default key order. */
    private static int compare(ByteBuffer key, byte[] bound) {
        int p = key.position();
        int n = Math.min(key.remaining(), Math.min(bound.length, Keys.MAX_KEY_BYTES));
        for (int i = 0; i < n; i++) {
            int d = Byte.toUnsignedInt(key.get(p + i)) - Byte.toUnsignedInt(bound[i]);
            if (d != 0) {
                return d;
            }
        }
        return key.remaining() - Math.min(bound.length, Keys.MAX_KEY_BYTES);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            txn.close();
        } finally {
            store.transactionClosed();
        }
    }
}
