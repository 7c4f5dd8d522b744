package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;

import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.SeekOp;

/**
 * One attribute index: the tree {@code <kind tag>:<attribute OID>} ({@link IndexRef#treeName()}),
 * index key ({@link IndexKeys}, stored cut and never empty) → the IDs of the entries with a value
 * giving that key, as sorted 8-byte duplicates ({@link EntryIds}).
 *
 * <p>Counts its lookups by search planning ({@link #ids}, {@link #idsInRange}) for monitoring;
 * maintenance and verification reads are not counted.
 *
 * <p>Thread-safety: safe to share; the transactions passed in are the callers'.
 */
final class AttributeIndex {
    private final IndexRef ref;
    private final Tree tree;
    private final LongAdder lookups = new LongAdder();

    AttributeIndex(IndexRef ref, Tree tree) {
        this.ref = ref;
        this.tree = tree;
    }

    IndexRef ref() {
        return ref;
    }

    Tree tree() {
        return tree;
    }

    /** Lookups by search planning since the store opened. */
    long lookups() {
        return lookups.sum();
    }

    /** Starts counting lookups from zero again. */
    void forgetLookups() {
        lookups.reset();
    }

    /** Adds ({@code key}, {@code id}); adding a pair already held changes nothing. */
    void add(WriteTxn txn, byte[] key, long id) {
        // Without MDB_NODUPDATA, which only makes LMDB report the pair as held: a plain put of a held
        // pair leaves the tree as it was (Tree#put), and a put without flags costs no flag stream.
        tree.put(txn.txn, IndexKeys.stored(txn.keyBuffer(), key), EntryIds.write(txn.idBuffer(), id));
    }

    /** Removes ({@code key}, {@code id}) if held. */
    void delete(WriteTxn txn, byte[] key, long id) {
        tree.delete(txn.txn, IndexKeys.stored(txn.keyBuffer(), key), EntryIds.write(txn.idBuffer(), id));
    }

    /** How many IDs the index holds under exactly {@code key}. */
    long count(ReadTxn txn, byte[] key) {
        Cursor<ByteBuffer> c = txn.borrowCursor(tree);
        try {
            return c.get(IndexKeys.stored(txn.keyBuffer(), key), GetOp.MDB_SET_KEY) ? c.count() : 0;
        } finally {
            txn.giveBack(c);
        }
    }

    /**
     * The IDs under exactly {@code key}, or null when there are more than {@code limit}: such a key
     * narrows too little to be worth reading, and the planner treats it as unindexed.
     */
    IdSet ids(ReadTxn txn, byte[] key, int limit) {
        lookups.increment();
        Cursor<ByteBuffer> c = txn.borrowCursor(tree);
        try {
            return ids(txn, c, key, limit);
        } finally {
            txn.giveBack(c);
        }
    }

    /** As {@link #ids(ReadTxn, byte[], int)}, through a cursor of this index the caller keeps. */
    static IdSet ids(ReadTxn txn, Cursor<ByteBuffer> c, byte[] key, int limit) {
        if (!c.get(IndexKeys.stored(txn.keyBuffer(), key), GetOp.MDB_SET_KEY)) {
            return IdSet.EMPTY;
        }
        long n = c.count();
        if (n > limit) {
            return null;
        }
        long[] ids = new long[(int) n];
        int i = 0;
        do {
            ids[i++] = EntryIds.read(c.val());
        } while (i < n && c.seek(SeekOp.MDB_NEXT_DUP));
        return new IdSet(ids, i);
    }

    /**
     * The IDs under every key in [{@code from}, {@code to}] (either bound null for open), or null
     * when more than {@code limit} were seen. With {@code prefixOnly}, {@code from} is a prefix and
     * the scan stops at the first key not starting with it. Bounds compare as stored keys do, cut
     * to {@link IndexKeys#MAX_KEY_BYTES}.
     */
    IdSet idsInRange(ReadTxn txn, byte[] from, byte[] to, boolean prefixOnly, int limit) {
        lookups.increment();
        ByteBuffer start = from == null ? null : IndexKeys.stored(txn.keyBuffer(), from);
        ByteBuffer prefix = prefixOnly && from != null ? IndexKeys.cut(from) : null;
        KeyRange range = new KeyRange(start, false, prefix, to == null ? null : IndexKeys.cut(to));
        IdSet.Builder out = new IdSet.Builder();
        try (RangeCursor c = tree.range(txn.txn, range)) {
            while (c.next()) {
                if (out.size() >= limit) {
                    return null;
                }
                out.add(EntryIds.read(c.value()));
            }
        }
        return out.build();
    }

    /** Records (key, ID pairs) in the index. */
    long records(ReadTxn txn) {
        return tree.records(txn.txn);
    }

    /** Visits the records whose key starts with {@code prefix} (cut as stored keys are) in key order, the key copied. */
    void forEachWithPrefix(ReadTxn txn, byte[] prefix, ReadTxn.RecordVisitor visitor) {
        KeyRange range = new KeyRange(IndexKeys.stored(txn.keyBuffer(), prefix), false, IndexKeys.cut(prefix), null);
        IdsInRange.visitAll(tree.range(txn.txn, range), visitor);
    }

    /** Visits every record in key order, the key copied. */
    void forEach(ReadTxn txn, ReadTxn.RecordVisitor visitor) {
        IdsInRange.visitAll(tree.range(txn.txn, KeyRange.all()), visitor);
    }
}
