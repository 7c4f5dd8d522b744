package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.larch.config.IndexKind;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * The single write transaction. Entry, DN index and attribute indexes change together in it, so a
 * crash can never leave them disagreeing. Closing without {@link #commit()} aborts.
 *
 * <p>Every change may throw {@link StoreFullException} when the map or the disk is full; the
 * caller then closes the transaction, which aborts it and leaves the store as it was.
 */
public final class WriteTxn extends ReadTxn {
    private final List<Runnable> afterCommit = new ArrayList<>();
    /** Work that must land in this transaction after every other change of it, by owner. */
    private final Map<Object, Runnable> beforeCommit = new LinkedHashMap<>();
    // Puts reuse the thread's key and ID buffers (see ReadTxn): allocating them per put cost
    // ~12% of a bulk import's samples. Entries need a value buffer of their own.
    private ByteBuffer valueBuffer = ByteBuffer.allocateDirect(4096);

    WriteTxn(LmdbStore store, Txn<ByteBuffer> txn) {
        super(store, txn);
    }

    /** A fresh entry ID; IDs are never reused, so a stale ID can never name a new entry. */
    public long allocateId() {
        return store.allocateId();
    }

    /**
     * {@code serialized} in this transaction's value buffer, grown as needed: LMDB copies a put's
     * value, so one buffer serves every put of the transaction.
     */
    ByteBuffer entryValue(byte[] serialized) {
        if (valueBuffer.capacity() < serialized.length) {
            valueBuffer = ByteBuffer.allocateDirect(Math.max(serialized.length, valueBuffer.capacity() * 2));
        }
        valueBuffer.clear();
        valueBuffer.put(serialized).flip();
        return valueBuffer;
    }

    public void putEntry(long id, byte[] serialized) {
        store.entries().put(this, id, serialized);
    }

    public void deleteEntry(long id) {
        store.entries().delete(this, id);
    }

    public void putChild(long parentId, byte[] normalizedRdn, long id) {
        store.dn().put(this, parentId, normalizedRdn, id);
    }

    public void deleteChild(long parentId, byte[] normalizedRdn) {
        store.dn().delete(this, parentId, normalizedRdn);
    }

    public void indexAdd(String attributeOid, IndexKind kind, byte[] key, long id) {
        store.indexes().get(attributeOid, kind).add(this, key, id);
    }

    public void indexDelete(String attributeOid, IndexKind kind, byte[] key, long id) {
        store.indexes().get(attributeOid, kind).delete(this, key, id);
    }

    /** Runs {@code action} on the committing thread once this transaction has committed; never when it aborts. */
    public void onCommit(Runnable action) {
        afterCommit.add(action);
    }

    /**
     * The action {@code owner} runs in this transaction just before it commits, created by {@code
     * create} on the owner's first call and returned as is on later ones, so a change can add to
     * work gathered over the whole transaction (derived values recomputed once, not per change).
     * The actions run in registration order; one registered while they run runs too. An aborted
     * transaction runs none. A failure an action throws fails the commit: nothing is written.
     */
    public <T extends Runnable> T beforeCommit(Object owner, Supplier<T> create) {
        @SuppressWarnings("unchecked")
        T action = (T) beforeCommit.computeIfAbsent(owner, o -> create.get());
        return action;
    }

    /**
     * Runs the {@link #beforeCommit} actions, then commits (and, with durable writes, syncs) the
     * transaction.
     *
     * @throws StoreFullException when the map or the disk is full; nothing was written
     */
    public void commit() {
        while (!beforeCommit.isEmpty()) {
            List<Runnable> due = new ArrayList<>(beforeCommit.values());
            beforeCommit.clear();
            due.forEach(Runnable::run);
        }
        try {
            txn.commit();
        } catch (LmdbException e) {
            RuntimeException translated = store.translateWriteFailure(e);
            throw translated instanceof StoreException
                    ? translated
                    : new StoreException("commit failed: " + e.getMessage(), e);
        }
        afterCommit.forEach(Runnable::run);
    }
}
