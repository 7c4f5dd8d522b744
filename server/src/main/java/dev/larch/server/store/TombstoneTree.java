package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.function.Function;

import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;

/**
 * The {@code tombstones} tree: the UUIDs of entries deleted while their delete is still in the
 * change log, so that a replicated add or modify of such an entry, arriving after its delete (two
 * providers, each with half of the story), does not bring it back: a delete wins over every
 * concurrent change of its entry (see docs/operations.md, replication).
 *
 * <p>Key: the UUID (16 raw bytes); value: the CSN of the delete ({@value LoggedChange#CSN_BYTES}
 * ASCII bytes). A record lives as long as its delete's change log record: trimming the log
 * ({@link ChangeLogTree#trim}) removes it, emptying the log empties this tree.
 *
 * <p>Added without a store format version, as {@link PresentTree}.
 *
 * <p>Thread-safety: immutable; the transactions passed in are the callers'.
 */
final class TombstoneTree {
    static final String NAME = "tombstones";

    private final Tree tree;

    private TombstoneTree(Tree tree) {
        this.tree = tree;
    }

    static TombstoneTree open(
            Env<ByteBuffer> env, boolean create, Function<LmdbException, RuntimeException> writeFailure) {
        return new TombstoneTree(Tree.open(env, NAME, create, false, writeFailure));
    }

    void put(WriteTxn txn, byte[] uuid, byte[] csn) {
        tree.put(txn.txn, key(txn, uuid), txn.entryValue(csn));
    }

    /** The CSN of the delete of {@code uuid}, or null when none is remembered. */
    byte[] get(ReadTxn txn, byte[] uuid) {
        ByteBuffer value = tree.get(txn.txn, key(txn, uuid));
        if (value == null) {
            return null;
        }
        byte[] csn = new byte[value.remaining()];
        value.get(value.position(), csn);
        return csn;
    }

    /** Forgets the delete of {@code uuid} when it is the one stamped {@code csn}. */
    void forget(WriteTxn txn, byte[] uuid, ByteBuffer csn) {
        ByteBuffer value = tree.get(txn.txn, key(txn, uuid));
        if (value != null && KeyRange.compare(value, csn) == 0) {
            tree.delete(txn.txn, key(txn, uuid));
        }
    }

    void empty(WriteTxn txn) {
        tree.empty(txn.txn);
    }

    Tree tree() {
        return tree;
    }

    private static ByteBuffer key(ReadTxn txn, byte[] uuid) {
        if (uuid.length != LoggedChange.UUID_BYTES) {
            throw new IllegalArgumentException("a UUID has " + LoggedChange.UUID_BYTES + " bytes, got " + uuid.length);
        }
        ByteBuffer key = txn.keyBuffer();
        key.clear();
        key.put(uuid).flip();
        return key;
    }
}
