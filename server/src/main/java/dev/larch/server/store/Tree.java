package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.function.Function;

import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/**
 * The storage primitive every tree of the store is written in: one named LMDB database of byte
 * keys, ordered unsigned-lexicographically, to byte values (sorted duplicates when opened so). It
 * knows nothing of what its keys mean; the classes named after the trees ({@link EntryTree},
 * {@link DnTree}, {@link AttributeIndex}, {@link MetaTree}, {@link AttributeNumbers}) own their
 * key formats and are its only users.
 *
 * <p>Every operation runs in the caller's transaction. A write that LMDB refuses is thrown as
 * {@link LmdbStore#translateWriteFailure} words it ({@link StoreFullException} and so on), so no
 * tree repeats that mapping. Buffers handed back point into the memory map and are valid only
 * until the transaction ends.
 *
 * <p>Thread-safety: the handle is immutable and may be shared; transactions are not.
 */
final class Tree {
    /** LMDB's default maximum key size in bytes; no tree stores a longer key. */
    static final int MAX_KEY_BYTES = 511;

    private final Dbi<ByteBuffer> dbi;
    private final Function<LmdbException, RuntimeException> writeFailure;

    private Tree(Dbi<ByteBuffer> dbi, Function<LmdbException, RuntimeException> writeFailure) {
        this.dbi = dbi;
        this.writeFailure = writeFailure;
    }

    /**
     * Opens the tree {@code name}, creating it unless {@code create} is false.
     *
     * @param duplicates whether a key holds several fixed-size values, kept sorted
     * @param writeFailure how a failed write is reported to the caller
     * @throws LmdbException when it does not exist and is not to be created
     */
    static Tree open(
            Env<ByteBuffer> env,
            String name,
            boolean create,
            boolean duplicates,
            Function<LmdbException, RuntimeException> writeFailure) {
        DbiFlags[] flags;
        if (duplicates) {
            flags = create
                    ? new DbiFlags[] {DbiFlags.MDB_CREATE, DbiFlags.MDB_DUPSORT, DbiFlags.MDB_DUPFIXED}
                    : new DbiFlags[0];
        } else {
            flags = create ? new DbiFlags[] {DbiFlags.MDB_CREATE} : new DbiFlags[0];
        }
        return new Tree(env.openDbi(name, flags), writeFailure);
    }

    /**
     * Opens the duplicate-sorted tree {@code rawName} inside {@code txn} and drops it: {@code
     * Env.openDbi(name)} would begin a write transaction of its own, which waits forever for this
     * one (LMDB has one writer).
     */
    static void drop(Env<ByteBuffer> env, Txn<ByteBuffer> txn, byte[] rawName) {
        Dbi<ByteBuffer> stale = env.openDbi(txn, rawName, null, false, DbiFlags.MDB_DUPSORT, DbiFlags.MDB_DUPFIXED);
        stale.drop(txn, true);
    }

    /** The value under {@code key} (the first one with duplicates), or null. */
    ByteBuffer get(Txn<ByteBuffer> txn, ByteBuffer key) {
        return dbi.get(txn, key);
    }

    /**
     * Stores {@code value} under {@code key}: replaces it, or with duplicates adds it (flags may refine);
     * with duplicates, adding a (key, value) pair already held changes nothing.
     */
    void put(Txn<ByteBuffer> txn, ByteBuffer key, ByteBuffer value, PutFlags... flags) {
        try {
            // No flags are handed on as null: lmdbjava 0.9 folds the flags through a stream on every put,
            // which was 15% of the writer's CPU in a replica's refresh (JFR); null folds to 0 without one.
            dbi.put(txn, key, value, flags.length == 0 ? null : flags);
        } catch (LmdbException e) {
            throw writeFailure.apply(e);
        }
    }

    /** Removes every record, keeping the tree (LMDB {@code mdb_drop} without deleting it). */
    void empty(Txn<ByteBuffer> txn) {
        try {
            dbi.drop(txn, false);
        } catch (LmdbException e) {
            throw writeFailure.apply(e);
        }
    }

    /** Removes {@code key} and all its values; false when it was absent. */
    boolean delete(Txn<ByteBuffer> txn, ByteBuffer key) {
        try {
            return dbi.delete(txn, key);
        } catch (LmdbException e) {
            throw writeFailure.apply(e);
        }
    }

    /** Removes one value of a key with duplicates; false when that pair was absent. */
    boolean delete(Txn<ByteBuffer> txn, ByteBuffer key, ByteBuffer value) {
        try {
            return dbi.delete(txn, key, value);
        } catch (LmdbException e) {
            throw writeFailure.apply(e);
        }
    }

    /** A cursor over the records in {@code range}, in key order; close it before {@code txn}. */
    RangeCursor range(Txn<ByteBuffer> txn, KeyRange range) {
        return new RangeCursor(dbi.openCursor(txn), range);
    }

    /**
     * A raw cursor for the operations on duplicates ranges do not express (a key's value count, a
     * (key, value) probe); close it before {@code txn}.
     */
    Cursor<ByteBuffer> cursor(Txn<ByteBuffer> txn) {
        return dbi.openCursor(txn);
    }

    /** Records (key, value pairs) in the tree as {@code txn} sees it. */
    long records(Txn<ByteBuffer> txn) {
        return dbi.stat(txn).entries;
    }
}
