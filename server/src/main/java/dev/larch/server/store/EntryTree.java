package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.function.Function;

import org.lmdbjava.Cursor;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * The {@code entries} tree: entry ID ({@link EntryIds}) → the entry serialized by {@code
 * dev.larch.server.entry.EntryCodec}. Every entry of the store has exactly one record here; its
 * IDs ascend in key order, so the last key is the highest ID stored.
 *
 * <p>Thread-safety: immutable; the transactions passed in are the callers'.
 */
final class EntryTree {
    static final String NAME = "entries";

    private final Tree tree;

    private EntryTree(Tree tree) {
        this.tree = tree;
    }

    static EntryTree open(Env<ByteBuffer> env, boolean create, Function<LmdbException, RuntimeException> writeFailure) {
        return new EntryTree(Tree.open(env, NAME, create, false, writeFailure));
    }

    /** The serialized entry with this ID, or null; valid until {@code txn} ends. */
    ByteBuffer get(ReadTxn txn, long id) {
        return tree.get(txn.txn, EntryIds.write(txn.idBuffer(), id));
    }

    /** Stores (adds or replaces) the entry {@code id}. */
    void put(WriteTxn txn, long id, byte[] serialized) {
        tree.put(txn.txn, EntryIds.write(txn.idBuffer(), id), txn.entryValue(serialized));
    }

    /** Removes the entry {@code id}, if present. */
    void delete(WriteTxn txn, long id) {
        tree.delete(txn.txn, EntryIds.write(txn.idBuffer(), id));
    }

    /** Streams every entry ID in ascending order. */
    IdCursor ids(ReadTxn txn) {
        return new IdsInRange(tree.range(txn.txn, KeyRange.all()), IdsInRange.Yield.KEY);
    }

    /** The IDs above {@code id}, ascending. */
    IdCursor idsAfter(ReadTxn txn, long id) {
        KeyRange range = new KeyRange(EntryIds.of(id), true, null, null);
        return new IdsInRange(tree.range(txn.txn, range), IdsInRange.Yield.KEY);
    }

    /** The entries above {@code id} with their serialized forms, ascending; above 0 is every entry. */
    EntryScan scanAfter(ReadTxn txn, long id) {
        KeyRange range = id <= 0 ? KeyRange.all() : new KeyRange(EntryIds.of(id), true, null, null);
        return new EntryScan(tree.range(txn.txn, range));
    }

    long count(ReadTxn txn) {
        return tree.records(txn.txn);
    }

    /** The highest ID stored, 0 when there is none. */
    long lastId(Txn<ByteBuffer> txn) {
        try (Cursor<ByteBuffer> c = tree.cursor(txn)) {
            return c.last() ? EntryIds.read(c.key()) : 0L;
        }
    }

    Tree tree() {
        return tree;
    }
}
