package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The {@code attrs} tree: attribute type OID (UTF-8) → the small number serialized entries use for
 * it (a 4-byte big-endian int). Numbers start at 1, are assigned once and never reused or changed,
 * since every stored entry depends on them.
 *
 * <p>Thread-safety: safe to share; each call runs in transactions of its own.
 */
public final class AttributeNumbers {
    static final String NAME = "attrs";

    private final Env<ByteBuffer> env;
    private final Tree tree;
    private final boolean readOnly;

    private AttributeNumbers(Env<ByteBuffer> env, Tree tree, boolean readOnly) {
        this.env = env;
        this.tree = tree;
        this.readOnly = readOnly;
    }

    static AttributeNumbers open(
            Env<ByteBuffer> env, boolean readOnly, Function<LmdbException, RuntimeException> writeFailure) {
        return new AttributeNumbers(env, Tree.open(env, NAME, !readOnly, false, writeFailure), readOnly);
    }

    /**
     * The stored numbers of attribute types: those already assigned, plus new ones (committed
     * before returning) for every OID of {@code oids} that had none, unless the store is read-only.
     */
    public Map<String, Integer> ids(Collection<String> oids) {
        Map<String, Integer> ids = new HashMap<>();
        int next = 1;
        try (Txn<ByteBuffer> txn = env.txnRead();
                RangeCursor c = tree.range(txn, KeyRange.all())) {
            while (c.next()) {
                int id = c.value().getInt(c.value().position());
                ByteBuffer key = c.key();
                byte[] oid = new byte[key.remaining()];
                key.duplicate().get(oid);
                ids.put(new String(oid, UTF_8), id);
                next = Math.max(next, id + 1);
            }
        }
        List<String> missing =
                oids.stream().filter(oid -> !ids.containsKey(oid)).sorted().toList();
        if (!missing.isEmpty() && !readOnly) {
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                for (String oid : missing) {
                    byte[] name = oid.getBytes(UTF_8);
                    ByteBuffer key = ByteBuffer.allocateDirect(name.length);
                    key.put(name).flip();
                    ByteBuffer value = ByteBuffer.allocateDirect(Integer.BYTES);
                    value.putInt(0, next);
                    tree.put(txn, key, value);
                    ids.put(oid, next++);
                }
                txn.commit();
            }
        }
        return ids;
    }

    long records(Txn<ByteBuffer> txn) {
        return tree.records(txn);
    }
}
