package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.larch.config.IndexKind;
import org.lmdbjava.Dbi;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;
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
        try {
            store.entriesDbi().put(txn, Keys.id(idBuffer(), id), valueBuffer);
        } catch (LmdbException e) {
            throw store.translateWriteFailure(e);
        }
    }

    public void deleteEntry(long id) {
        try {
            store.entriesDbi().delete(txn, Keys.id(idBuffer(), id));
        } catch (LmdbException e) {
            throw store.translateWriteFailure(e);
        }
    }

    public void putChild(long parentId, byte[] normalizedRdn, long id) {
        try {
            store.dnDbi().put(txn, Keys.child(keyBuffer(), parentId, normalizedRdn), Keys.id(idBuffer(), id));
        } catch (LmdbException e) {
            throw store.translateWriteFailure(e);
        }
    }

    public void deleteChild(long parentId, byte[] normalizedRdn) {
        try {
            store.dnDbi().delete(txn, Keys.child(keyBuffer(), parentId, normalizedRdn));
        } catch (LmdbException e) {
            throw store.translateWriteFailure(e);
        }
    }

    public void indexAdd(String attributeOid, IndexKind kind, byte[] key, long id) {
        Dbi<ByteBuffer> index = store.index(attributeOid, kind);
        try {
            index.put(txn, Keys.indexKey(keyBuffer(), key), Keys.id(idBuffer(), id), PutFlags.MDB_NODUPDATA);
        } catch (LmdbException e) {
            throw store.translateWriteFailure(e);
        }
    }

    public void indexDelete(String attributeOid, IndexKind kind, byte[] key, long id) {
        try {
            store.index(attributeOid, kind).delete(txn, Keys.indexKey(keyBuffer(), key), Keys.id(idBuffer(), id));
        } catch (LmdbException e) {
            throw store.translateWriteFailure(e);
        }
    }

    /** Runs {@code action} on the committing thread once this transaction has committed; never when it aborts. */
    public void onCommit(Runnable action) {
        afterCommit.add(action);
    }

    /**
     * Commits (and, with durable writes, syncs) the transaction.
     *
     * @throws StoreFullException when the map or the disk is full; nothing was written
     */
    public void commit() {
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
