package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.larch.config.IndexKind;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/**
 * The single write transaction. Entry, DN index and attribute indexes change together in it, so a
 * crash can never leave them disagreeing. Closing without {@link #commit()} aborts.
 */
public final class WriteTxn extends ReadTxn {
    private final List<Runnable> afterCommit = new ArrayList<>();
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

    public void putEntry(long id, byte[] serialized) {
        if (valueBuffer.capacity() < serialized.length) {
            valueBuffer = ByteBuffer.allocateDirect(Math.max(serialized.length, valueBuffer.capacity() * 2));
        }
        valueBuffer.clear();
        valueBuffer.put(serialized).flip();
        store.entriesDbi().put(txn, Keys.id(idBuffer(), id), valueBuffer);
    }

    public void deleteEntry(long id) {
        store.entriesDbi().delete(txn, Keys.id(idBuffer(), id));
    }

    public void putChild(long parentId, byte[] normalizedRdn, long id) {
        store.dnDbi().put(txn, Keys.child(keyBuffer(), parentId, normalizedRdn), Keys.id(idBuffer(), id));
    }

    public void deleteChild(long parentId, byte[] normalizedRdn) {
        store.dnDbi().delete(txn, Keys.child(keyBuffer(), parentId, normalizedRdn));
    }

    public void indexAdd(String attributeOid, IndexKind kind, byte[] key, long id) {
        store.index(attributeOid, kind)
                .put(txn, Keys.indexKey(keyBuffer(), key), Keys.id(idBuffer(), id), PutFlags.MDB_NODUPDATA);
    }

    public void indexDelete(String attributeOid, IndexKind kind, byte[] key, long id) {
        store.index(attributeOid, kind).delete(txn, Keys.indexKey(keyBuffer(), key), Keys.id(idBuffer(), id));
    }

    void onCommit(Runnable action) {
        afterCommit.add(action);
    }

    /**
     * Commits (and, with durable writes, syncs) the transaction.
     *
     * @throws StoreFullException when the map is full; nothing was written
     */
    public void commit() {
        try {
            txn.commit();
        } catch (Env.MapFullException e) {
            throw new StoreFullException(e);
        } catch (LmdbException e) {
            throw new StoreException("commit failed: " + e.getMessage(), e);
        }
        afterCommit.forEach(Runnable::run);
    }
}
