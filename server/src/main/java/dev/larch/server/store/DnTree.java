package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.function.Function;

import org.lmdbjava.Cursor;
import org.lmdbjava.Env;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;
import org.lmdbjava.SeekOp;

/**
 * The {@code dn} tree: parent ID then normalized RDN → the child's ID. A naming context's root has
 * the parent {@link #NO_PARENT} and its whole normalized DN as "RDN". A prefix scan on a parent's ID
 * lists its children in normalized-RDN order, so this tree is also the one-level index.
 *
 * <p>Key: the parent ID as 8 bytes big-endian ({@link EntryIds}), then the normalized RDN's bytes;
 * at most {@link Tree#MAX_KEY_BYTES} in all (LMDB's limit). Value: the child's ID.
 *
 * <p>Thread-safety: immutable; the transactions passed in are the callers'.
 */
public final class DnTree {
    static final String NAME = "dn";
    /** The parent ID of a naming context's root entry. */
    public static final long NO_PARENT = 0L;
    /** The longest normalized RDN a key can hold. */
    static final int MAX_RDN_BYTES = Tree.MAX_KEY_BYTES - EntryIds.BYTES;

    private final Tree tree;

    private DnTree(Tree tree) {
        this.tree = tree;
    }

    static DnTree open(Env<ByteBuffer> env, boolean create, Function<LmdbException, RuntimeException> writeFailure) {
        return new DnTree(Tree.open(env, NAME, create, false, writeFailure));
    }

    /**
     * The key of a child, its parent's ID then its normalized RDN, in {@code reuse} (a direct buffer
     * of at least {@link Tree#MAX_KEY_BYTES}).
     *
     * @throws StoreException when the RDN is too long for a key
     */
    static ByteBuffer key(ByteBuffer reuse, long parentId, byte[] normalizedRdn) {
        if (normalizedRdn.length > MAX_RDN_BYTES) {
            throw new StoreException("RDN longer than " + MAX_RDN_BYTES + " bytes once normalized");
        }
        reuse.clear();
        reuse.putLong(parentId).put(normalizedRdn).flip();
        return reuse;
    }

    /** The key prefix all children of {@code parentId} share, in a new buffer. */
    static ByteBuffer childrenPrefix(long parentId) {
        return EntryIds.of(parentId);
    }

    /** The ID of the child of {@code parentId} with this normalized RDN, or {@link ReadTxn#NOT_FOUND}. */
    long childId(ReadTxn txn, long parentId, byte[] normalizedRdn) {
        if (normalizedRdn.length > MAX_RDN_BYTES) {
            return ReadTxn.NOT_FOUND; // could never have been stored
        }
        ByteBuffer v = tree.get(txn.txn, key(txn.keyBuffer(), parentId, normalizedRdn));
        return v == null ? ReadTxn.NOT_FOUND : EntryIds.read(v);
    }

    /** Records {@code id} as the child of {@code parentId} named {@code normalizedRdn}, replacing any. */
    void put(WriteTxn txn, long parentId, byte[] normalizedRdn, long id) {
        tree.put(txn.txn, key(txn.keyBuffer(), parentId, normalizedRdn), EntryIds.write(txn.idBuffer(), id));
    }

    /** Removes the child of {@code parentId} named {@code normalizedRdn}, if present. */
    void delete(WriteTxn txn, long parentId, byte[] normalizedRdn) {
        tree.delete(txn.txn, key(txn.keyBuffer(), parentId, normalizedRdn));
    }

    /** Streams the IDs of the children of {@code parentId}, in normalized-RDN order. */
    IdCursor children(ReadTxn txn, long parentId) {
        return new IdsInRange(tree.range(txn.txn, KeyRange.prefix(childrenPrefix(parentId))), IdsInRange.Yield.VALUE);
    }

    /**
     * Visits the children of {@code parentId} in normalized-RDN order, each normalized RDN copied,
     * until the visitor says stop.
     */
    void forEachChild(ReadTxn txn, long parentId, ReadTxn.ChildVisitor visitor) {
        try (Cursor<ByteBuffer> c = cursor(txn)) {
            forEachChild(c, childrenPrefix(parentId), visitor);
        }
    }

    private static void forEachChild(Cursor<ByteBuffer> c, ByteBuffer prefix, ReadTxn.ChildVisitor visitor) {
        boolean found = c.get(prefix, GetOp.MDB_SET_RANGE);
        while (found && KeyRange.startsWith(c.key(), prefix)) {
            ByteBuffer key = c.key();
            byte[] rdn = new byte[key.remaining() - EntryIds.BYTES];
            key.duplicate().position(key.position() + EntryIds.BYTES).get(rdn);
            if (!visitor.visit(rdn, EntryIds.read(c.val()))) {
                return;
            }
            found = c.seek(SeekOp.MDB_NEXT);
        }
    }

    /** A raw cursor of the DN index; close it before {@code txn}. */
    Cursor<ByteBuffer> cursor(ReadTxn txn) {
        return tree.cursor(txn.txn);
    }

    /**
     * Streams the IDs of the children of {@code parentId} whose normalized RDN sorts after {@code
     * normalizedRdn}, whether or not that child exists.
     */
    IdCursor childrenAfter(ReadTxn txn, long parentId, byte[] normalizedRdn) {
        ByteBuffer after = ByteBuffer.allocateDirect(EntryIds.BYTES + normalizedRdn.length);
        after.putLong(parentId).put(normalizedRdn).flip();
        return new IdsInRange(
                tree.range(txn.txn, KeyRange.prefixAfter(childrenPrefix(parentId), after)), IdsInRange.Yield.VALUE);
    }

    /** Whether {@code parentId} has at least one child. */
    boolean hasChildren(ReadTxn txn, long parentId) {
        try (IdCursor c = children(txn, parentId)) {
            return c.next() != ReadTxn.NOT_FOUND;
        }
    }

    /** Records in the tree: one per entry in a sound store. */
    long records(ReadTxn txn) {
        return tree.records(txn.txn);
    }

    /** Visits every record in key order, the key copied. */
    void forEach(ReadTxn txn, ReadTxn.RecordVisitor visitor) {
        IdsInRange.visitAll(tree.range(txn.txn, KeyRange.all()), visitor);
    }

    Tree tree() {
        return tree;
    }
}
