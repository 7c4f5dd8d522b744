package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.function.Function;

import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The {@code meta} tree: facts about the store itself. Keys are UTF-8 names:
 * <ul>
 *   <li>{@value StoreFormat#META_KEY} → the store's format version ({@link StoreFormat}), a 4-byte
 *       big-endian int;
 *   <li>{@code built:<index tree name>} → the byte 1, present once that index covers every entry.
 * </ul>
 *
 * <p>Thread-safety: immutable; the transactions passed in are the callers'.
 */
final class MetaTree {
    static final String NAME = "meta";
    private static final String BUILT = "built:";

    private final Tree tree;

    private MetaTree(Tree tree) {
        this.tree = tree;
    }

    static MetaTree open(Env<ByteBuffer> env, boolean create, Function<LmdbException, RuntimeException> writeFailure) {
        return new MetaTree(Tree.open(env, NAME, create, false, writeFailure));
    }

    /** The recorded format version, or null when none is. */
    Integer format(Txn<ByteBuffer> txn) {
        ByteBuffer value = tree.get(txn, name(StoreFormat.META_KEY));
        return value == null ? null : value.getInt(value.position());
    }

    void putFormat(Txn<ByteBuffer> txn, int version) {
        ByteBuffer value = ByteBuffer.allocateDirect(Integer.BYTES);
        value.putInt(0, version);
        tree.put(txn, name(StoreFormat.META_KEY), value);
    }

    /** Whether the index tree {@code indexTree} is recorded as built. */
    boolean isBuilt(Txn<ByteBuffer> txn, String indexTree) {
        return tree.get(txn, name(BUILT + indexTree)) != null;
    }

    void markBuilt(Txn<ByteBuffer> txn, String indexTree) {
        ByteBuffer one = ByteBuffer.allocateDirect(1);
        one.put(0, (byte) 1);
        tree.put(txn, name(BUILT + indexTree), one);
    }

    /** Forgets that {@code indexTree} was built (it is being dropped). */
    void clearBuilt(Txn<ByteBuffer> txn, String indexTree) {
        tree.delete(txn, name(BUILT + indexTree));
    }

    Tree tree() {
        return tree;
    }

    long records(Txn<ByteBuffer> txn) {
        return tree.records(txn);
    }

    private static ByteBuffer name(String name) {
        byte[] bytes = name.getBytes(UTF_8);
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        return b;
    }
}
