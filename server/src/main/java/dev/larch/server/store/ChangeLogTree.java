package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.function.Function;

import org.lmdbjava.Cursor;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * The {@code changelog} tree: every committed change of an entry, keyed by the change's CSN, what a
 * content-synchronization refresh from a consumer's cookie reads instead of the whole tree.
 *
 * <p>Key: the CSN as its {@value LoggedChange#CSN_BYTES} ASCII bytes ({@code
 * YYYYmmddHHMMSS.uuuuuuZ#cccccc#sss#mmmmmm}), whose byte order is CSN order. Value: the kind (one
 * byte, {@link LoggedChange.Kind#code}), the entry ID (8 bytes, big-endian) and the entry's UUID
 * (16 raw bytes), {@value #VALUE_BYTES} bytes in all. A delete keeps the UUID of an entry that no
 * longer exists, which is what a consumer's delete phase needs.
 *
 * <p>The tree is trimmed from its oldest end ({@link #trim}); the CSN of the newest record trimmed
 * is kept as the log's floor in the {@link MetaTree}: a cookie at or above it is covered by the log.
 *
 * <p>Thread-safety: immutable; the transactions passed in are the callers'.
 */
final class ChangeLogTree {
    static final String NAME = "changelog";
    static final int VALUE_BYTES = 1 + Long.BYTES + LoggedChange.UUID_BYTES;

    private final Tree tree;

    private ChangeLogTree(Tree tree) {
        this.tree = tree;
    }

    static ChangeLogTree open(
            Env<ByteBuffer> env, boolean create, Function<LmdbException, RuntimeException> writeFailure) {
        return new ChangeLogTree(Tree.open(env, NAME, create, false, writeFailure));
    }

    /** Records {@code change}; a CSN recorded before is replaced (CSNs are unique, so it never is). */
    void append(WriteTxn txn, LoggedChange change) {
        ByteBuffer key = txn.keyBuffer();
        key.clear();
        key.put(change.csn()).flip();
        ByteBuffer value = txn.entryValue(encode(change));
        tree.put(txn.txn, key, value);
    }

    /**
     * The records whose CSN sorts after {@code csn} (every record when null), in CSN order; close it
     * before the transaction.
     */
    ChangeLogCursor after(ReadTxn txn, byte[] csn) {
        KeyRange range;
        if (csn == null) {
            range = KeyRange.all();
        } else {
            ByteBuffer start = ByteBuffer.allocateDirect(csn.length);
            start.put(csn).flip();
            range = new KeyRange(start, true, null, null);
        }
        return new ChangeLogCursor(tree.range(txn.txn, range));
    }

    /** Whether a record is stamped {@code csn}. */
    boolean contains(ReadTxn txn, byte[] csn) {
        ByteBuffer key = txn.keyBuffer();
        key.clear();
        key.put(csn).flip();
        return tree.get(txn.txn, key) != null;
    }

    /** The CSN of the oldest record, or null when the log is empty. */
    byte[] oldest(ReadTxn txn) {
        try (Cursor<ByteBuffer> c = tree.cursor(txn.txn)) {
            return c.first() ? bytes(c.key()) : null;
        }
    }

    /** The CSN of the newest record, or null when the log is empty. */
    byte[] newest(Txn<ByteBuffer> txn) {
        try (Cursor<ByteBuffer> c = tree.cursor(txn)) {
            return c.last() ? bytes(c.key()) : null;
        }
    }

    long size(ReadTxn txn) {
        return tree.records(txn.txn);
    }

    /**
     * Removes the oldest records while there are more than {@code maxChanges} (0: no bound by count)
     * or their CSN sorts below {@code keepFrom} (null: no bound by age).
     *
     * A delete's record takes its {@link TombstoneTree} record with it.
     *
     * @return the CSN of the newest record removed, or null when none was
     */
    byte[] trim(WriteTxn txn, long maxChanges, byte[] keepFrom, TombstoneTree tombstones) {
        long excess = maxChanges > 0 ? tree.records(txn.txn) - maxChanges : 0;
        byte[] last = null;
        ByteBuffer bound = null;
        if (keepFrom != null) {
            bound = ByteBuffer.allocateDirect(keepFrom.length);
            bound.put(keepFrom).flip();
        }
        try (Cursor<ByteBuffer> c = tree.cursor(txn.txn)) {
            while (c.first()) {
                boolean tooMany = excess > 0;
                boolean tooOld = bound != null && KeyRange.compare(c.key(), bound) < 0;
                if (!tooMany && !tooOld) {
                    break;
                }
                last = bytes(c.key());
                ByteBuffer value = c.val();
                if (tombstones != null
                        && LoggedChange.Kind.of(value.get(value.position())) == LoggedChange.Kind.DELETE) {
                    byte[] uuid = new byte[LoggedChange.UUID_BYTES];
                    value.get(value.position() + 1 + Long.BYTES, uuid);
                    tombstones.forget(txn, uuid, ByteBuffer.wrap(last));
                }
                c.delete();
                excess--;
            }
        } catch (LmdbException e) {
            throw txn.store.translateWriteFailure(e);
        }
        return last;
    }

    /** Removes every record (an import that replaces the whole tree). */
    void empty(WriteTxn txn) {
        tree.empty(txn.txn);
    }

    Tree tree() {
        return tree;
    }

    private static byte[] encode(LoggedChange change) {
        ByteBuffer value = ByteBuffer.allocate(VALUE_BYTES);
        value.put(change.kind().code()).putLong(change.entryId()).put(change.uuid());
        return value.array();
    }

    static LoggedChange decode(ByteBuffer key, ByteBuffer value) {
        byte[] csn = bytes(key);
        int at = value.position();
        LoggedChange.Kind kind = LoggedChange.Kind.of(value.get(at));
        long id = value.getLong(at + 1);
        byte[] uuid = new byte[LoggedChange.UUID_BYTES];
        value.get(at + 1 + Long.BYTES, uuid);
        return new LoggedChange(csn, kind, id, uuid);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(buffer.position(), bytes);
        return bytes;
    }
}
