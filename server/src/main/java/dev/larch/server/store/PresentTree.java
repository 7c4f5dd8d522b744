package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.function.Function;

import org.lmdbjava.Cursor;
import org.lmdbjava.Env;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;

/**
 * The {@code present} tree: the entries a replication consumer was told are present by its
 * provider during one refresh (RFC 4533 section 3.4, the present phase), held here rather than in
 * Java memory so that a million UUIDs cost disk pages, not heap.
 *
 * <p>Key: the replica ID (2 bytes, big-endian) then the entry's UUID (16 raw bytes); value: one
 * byte, 1. One replica's marks are a key range, cleared by walking it.
 *
 * <p>Added without a store format version: a store without this tree gets it when opened for
 * writing, and nothing else reads it (a read-only open does not open it).
 *
 * <p>Thread-safety: immutable; the transactions passed in are the callers'.
 */
final class PresentTree {
    static final String NAME = "present";
    private static final int RID_BYTES = 2;
    private static final int KEY_BYTES = RID_BYTES + LoggedChange.UUID_BYTES;

    private final Tree tree;

    private PresentTree(Tree tree) {
        this.tree = tree;
    }

    static PresentTree open(
            Env<ByteBuffer> env, boolean create, Function<LmdbException, RuntimeException> writeFailure) {
        return new PresentTree(Tree.open(env, NAME, create, false, writeFailure));
    }

    /** Marks {@code uuid} present for replica {@code rid}; marking it again changes nothing. */
    void mark(WriteTxn txn, int rid, byte[] uuid) {
        ByteBuffer value = txn.idBuffer();
        value.clear();
        value.put((byte) 1).flip();
        tree.put(txn.txn, key(txn, rid, uuid), value);
    }

    /** Whether {@code uuid} is marked present for replica {@code rid}. */
    boolean contains(ReadTxn txn, int rid, byte[] uuid) {
        return tree.get(txn.txn, key(txn, rid, uuid)) != null;
    }

    /**
     * Removes every mark of replica {@code rid}, walking its key range with one cursor.
     *
     * @return how many marks were removed
     */
    long clear(WriteTxn txn, int rid) {
        ByteBuffer prefix = ByteBuffer.allocateDirect(RID_BYTES);
        prefix.putShort((short) rid).flip();
        long removed = 0;
        try (Cursor<ByteBuffer> c = tree.cursor(txn.txn)) {
            // Sought again after each delete: where a cursor stands after one is LMDB's subtlety.
            while (c.get(prefix, GetOp.MDB_SET_RANGE) && KeyRange.startsWith(c.key(), prefix)) {
                c.delete();
                removed++;
            }
        } catch (LmdbException e) {
            throw txn.store.translateWriteFailure(e);
        }
        return removed;
    }

    /** How many UUIDs are marked present for replica {@code rid}: a walk of its key range. */
    long count(ReadTxn txn, int rid) {
        ByteBuffer prefix = ByteBuffer.allocateDirect(RID_BYTES);
        prefix.putShort((short) rid).flip();
        long count = 0;
        try (RangeCursor c = tree.range(txn.txn, KeyRange.prefix(prefix))) {
            while (c.next()) {
                count++;
            }
        }
        return count;
    }

    Tree tree() {
        return tree;
    }

    private static ByteBuffer key(ReadTxn txn, int rid, byte[] uuid) {
        if (uuid.length != LoggedChange.UUID_BYTES) {
            throw new IllegalArgumentException("a UUID has " + LoggedChange.UUID_BYTES + " bytes, got " + uuid.length);
        }
        ByteBuffer key = txn.keyBuffer();
        key.clear();
        key.putShort((short) rid).put(uuid).flip();
        if (key.remaining() != KEY_BYTES) {
            throw new IllegalStateException("present key of " + key.remaining() + " bytes");
        }
        return key;
    }
}
