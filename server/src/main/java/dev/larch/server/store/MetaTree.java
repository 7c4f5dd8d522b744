package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 *   <li>{@code built:<index tree name>} → the byte 1, present once that index covers every entry;
 *   <li>{@value #RENAMES} → how many modify DN operations the store has committed, an 8-byte
 *       big-endian long (absent: 0). Entries store their RDN, not their DN (see {@code
 *       dev.larch.server.entry.EntryCodec}), so DNs derived from the parent chain may be cached
 *       outside LMDB only as long as no rename happened: a reader compares this count, read in its
 *       own snapshot, with the one the cache was filled at ({@link ReadTxn#renameGeneration()}).
 *   <li>{@value #ID_FLOOR} → one above the highest entry ID ever deleted, an 8-byte big-endian long
 *       (absent: 0). New IDs start above both this and the highest ID stored, so an ID is never
 *       handed out again after its entry was deleted and the server restarted.
 *   <li>{@value #CONTEXT_CSN}{@code <sid>} (the server ID as three lowercase hex digits) → the
 *       highest CSN stamped on a change made by that server, {@value LoggedChange#CSN_BYTES} ASCII
 *       bytes: together the store's {@code contextCSN}.
 *   <li>{@value #CHANGE_LOG_FLOOR} → the CSN of the newest change trimmed from the change log
 *       ({@link ChangeLogTree}), or of the state an import left: changes at or below it are no
 *       longer in the log (absent: nothing was ever trimmed).
 *   <li>{@value #REPLICA_COOKIE}{@code <rid>} (the replica ID as three decimal digits) → the sync
 *       cookie's state ({@code csn=} part, UTF-8) a replication consumer of that replica ID has
 *       committed, written in the transaction of the changes it covers (absent: none). Added without
 *       a format version: older builds ignore the key.
 * </ul>
 *
 * <p>Thread-safety: immutable; the transactions passed in are the callers'.
 */
final class MetaTree {
    static final String NAME = "meta";
    private static final String BUILT = "built:";
    static final String RENAMES = "renames";
    private static final byte[] RENAMES_BYTES = RENAMES.getBytes(UTF_8);

    static final String ID_FLOOR = "id-floor";
    private static final byte[] ID_FLOOR_BYTES = ID_FLOOR.getBytes(UTF_8);

    static final String CONTEXT_CSN = "context-csn:";
    private static final byte[] CONTEXT_CSN_BYTES = CONTEXT_CSN.getBytes(UTF_8);

    static final String CHANGE_LOG_FLOOR = "changelog-floor";
    private static final byte[] CHANGE_LOG_FLOOR_BYTES = CHANGE_LOG_FLOOR.getBytes(UTF_8);

    static final String REPLICA_COOKIE = "sync-cookie:";

    /** Present while a replica's first refresh loads the store in bulk ({@link BulkLoad#markRefreshLoading}). */
    static final String BULK_REFRESH = "bulk-refresh";

    private static final byte[] BULK_REFRESH_BYTES = BULK_REFRESH.getBytes(UTF_8);

    /** Where the server ID stands in a CSN's text ({@code ...#sss#...}). */
    private static final int CSN_SID_AT = 30;

    private static final int SID_DIGITS = 3;

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

    /** How many renames the store has committed as {@code txn} sees it; 0 when none is recorded. */
    long renames(ReadTxn txn) {
        ByteBuffer value = tree.get(txn.txn, renamesKey(txn));
        return value == null ? 0L : value.getLong(value.position());
    }

    /** Records one more rename in {@code txn}; returns the new count. */
    long countRename(WriteTxn txn) {
        long next = renames(txn) + 1;
        ByteBuffer value = txn.idBuffer();
        value.clear();
        value.putLong(next).flip();
        tree.put(txn.txn, renamesKey(txn), value);
        return next;
    }

    /** The lowest ID a new entry may take as {@code txn} sees it: one above the highest deleted; 0 when none was. */
    long idFloor(ReadTxn txn) {
        ByteBuffer value = tree.get(txn.txn, key(txn, ID_FLOOR_BYTES));
        return value == null ? 0L : value.getLong(value.position());
    }

    /** Records in {@code txn} that entry {@code id} is deleted: the floor rises above it if below. */
    void deleted(WriteTxn txn, long id) {
        if (idFloor(txn) > id) {
            return;
        }
        ByteBuffer value = txn.idBuffer();
        value.clear();
        value.putLong(id + 1).flip();
        tree.put(txn.txn, key(txn, ID_FLOOR_BYTES), value);
    }

    /** The contextCSN as {@code txn} sees it: the highest CSN of each server ID, in server ID order. */
    List<byte[]> contextCsns(ReadTxn txn) {
        List<byte[]> csns = new ArrayList<>();
        ByteBuffer prefix = ByteBuffer.allocateDirect(CONTEXT_CSN_BYTES.length);
        prefix.put(CONTEXT_CSN_BYTES).flip();
        try (RangeCursor c = tree.range(txn.txn, KeyRange.prefix(prefix))) {
            while (c.next()) {
                byte[] csn = new byte[c.value().remaining()];
                c.value().get(c.value().position(), csn);
                csns.add(csn);
            }
        }
        return csns;
    }

    /** Raises the contextCSN of the CSN's server ID to {@code csn} in {@code txn}, if it is higher. */
    void raiseContextCsn(WriteTxn txn, byte[] csn) {
        byte[] name = new byte[CONTEXT_CSN_BYTES.length + SID_DIGITS];
        System.arraycopy(CONTEXT_CSN_BYTES, 0, name, 0, CONTEXT_CSN_BYTES.length);
        System.arraycopy(csn, CSN_SID_AT, name, CONTEXT_CSN_BYTES.length, SID_DIGITS);
        ByteBuffer key = key(txn, name);
        ByteBuffer current = tree.get(txn.txn, key);
        if (current != null && compare(current, csn) >= 0) {
            return;
        }
        tree.put(txn.txn, key(txn, name), txn.entryValue(csn));
    }

    /** The change log's floor ({@value #CHANGE_LOG_FLOOR}) as {@code txn} sees it, or null. */
    byte[] changeLogFloor(ReadTxn txn) {
        ByteBuffer value = tree.get(txn.txn, key(txn, CHANGE_LOG_FLOOR_BYTES));
        if (value == null) {
            return null;
        }
        byte[] csn = new byte[value.remaining()];
        value.get(value.position(), csn);
        return csn;
    }

    /** Raises the change log's floor to {@code csn} in {@code txn}, if it is higher. */
    void raiseChangeLogFloor(WriteTxn txn, byte[] csn) {
        ByteBuffer current = tree.get(txn.txn, key(txn, CHANGE_LOG_FLOOR_BYTES));
        if (current != null && compare(current, csn) >= 0) {
            return;
        }
        tree.put(txn.txn, key(txn, CHANGE_LOG_FLOOR_BYTES), txn.entryValue(csn));
    }

    /** The cookie state replica {@code rid} committed, or null. */
    String replicaCookie(ReadTxn txn, int rid) {
        ByteBuffer value = tree.get(txn.txn, key(txn, replicaCookieName(rid)));
        if (value == null) {
            return null;
        }
        byte[] text = new byte[value.remaining()];
        value.get(value.position(), text);
        return new String(text, UTF_8);
    }

    void putReplicaCookie(WriteTxn txn, int rid, String cookie) {
        tree.put(txn.txn, key(txn, replicaCookieName(rid)), txn.entryValue(cookie.getBytes(UTF_8)));
    }

    private static byte[] replicaCookieName(int rid) {
        return String.format(Locale.ROOT, "%s%03d", REPLICA_COOKIE, rid).getBytes(UTF_8);
    }

    private static int compare(ByteBuffer stored, byte[] csn) {
        return KeyRange.compare(stored, ByteBuffer.wrap(csn));
    }

    private static ByteBuffer key(ReadTxn txn, byte[] name) {
        ByteBuffer key = txn.keyBuffer();
        key.clear();
        key.put(name).flip();
        return key;
    }

    /** The key {@value #RENAMES} in the thread's key buffer: read once per search, so not allocated. */
    private static ByteBuffer renamesKey(ReadTxn txn) {
        ByteBuffer key = txn.keyBuffer();
        key.clear();
        key.put(RENAMES_BYTES).flip();
        return key;
    }

    boolean isBulkRefresh(ReadTxn txn) {
        return tree.get(txn.txn, key(txn, BULK_REFRESH_BYTES)) != null;
    }

    void markBulkRefresh(WriteTxn txn) {
        tree.put(txn.txn, key(txn, BULK_REFRESH_BYTES), txn.entryValue(new byte[] {1}));
    }

    void clearBulkRefresh(WriteTxn txn) {
        tree.delete(txn.txn, key(txn, BULK_REFRESH_BYTES));
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
