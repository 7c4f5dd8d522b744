package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
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
 *
 * <p>A transaction may be {@linkplain #nested() nested} in another (LMDB's nested write transactions):
 * the child sees its parent's changes, and committing it hands its changes to the parent, durable
 * only when the top-level transaction commits; aborting it undoes its own changes alone. While a
 * child is open its parent must not be used.
 */
public final class WriteTxn extends ReadTxn {
    private final List<Runnable> afterCommit = new ArrayList<>();
    /** How many of {@link #afterCommit} are notices ({@link #noticeOnCommit}), not reactions. */
    private int notices;
    /** Work that must land in this transaction after every other change of it, by owner. */
    private final Map<Object, Runnable> beforeCommit = new LinkedHashMap<>();
    // Puts reuse the thread's key and ID buffers (see ReadTxn): allocating them per put cost
    // ~12% of a bulk import's samples. Entries need a value buffer of their own.
    private ByteBuffer valueBuffer = ByteBuffer.allocateDirect(4096);
    /** Non-null in a bulk load's transaction ({@link #bulkLoad}). */
    private BulkIndexSink bulkIndexes;
    /** The transaction this one is nested in; null for a top-level one. */
    private final WriteTxn parent;
    /** Set once LMDB accepted the commit: for a top-level transaction, the changes are durable. */
    private boolean committed;
    /** The committed rename count when the top-level transaction began. */
    private final long renamesAtStart;
    /** Whether this transaction, or a nested one committed into it, counted a rename. */
    private boolean renamed;

    WriteTxn(LmdbStore store, Txn<ByteBuffer> txn) {
        this(store, txn, null);
    }

    WriteTxn(LmdbStore store, Txn<ByteBuffer> txn, WriteTxn parent) {
        super(store, txn);
        this.parent = parent;
        this.renamesAtStart = parent == null ? super.renameGeneration() : parent.renamesAtStart;
        this.renamed = parent != null && parent.renamed;
    }

    /**
     * The committed rename count while this transaction (with the transactions it is nested in and
     * those nested in it that committed) has renamed nothing; -1 once one did, so that no cache
     * shared with readers is used or filled with DNs of a state that may still abort.
     */
    @Override
    public long renameGeneration() {
        return renamed ? -1L : renamesAtStart;
    }

    /**
     * Records in this transaction that an entry was renamed or moved (modify DN): every DN below it
     * changes, so caches of DNs filled at an earlier {@link #renameGeneration} stop being used by
     * transactions that begin after this one commits.
     */
    public void countRename() {
        store.meta().countRename(this);
        renamed = true;
    }

    /**
     * Begins a transaction nested in this one, on this thread. Until the child is closed this one
     * must not be used. The child's {@link #beforeCommit} actions run when the child commits; its
     * {@link #onCommit} actions join this transaction's and run only once the top-level transaction
     * committed; an aborted child leaves nothing of its changes or actions.
     *
     * @throws StoreClosedException once the store began closing
     */
    public WriteTxn nested() {
        return store.writeNested(this);
    }

    /**
     * Whether {@link #commit()} got as far as LMDB accepting the commit. When it is true and {@code
     * commit()} threw all the same, an {@link #onCommit} action failed after a durable commit.
     */
    public boolean isCommitted() {
        return committed;
    }

    /**
     * A fresh entry ID. The ID of an entry once committed is never handed out again, not even after
     * the entry was deleted and the store reopened ({@link MetaTree}'s ID floor), so a stale ID can
     * never name a new entry.
     */
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
        if (bulkIndexes != null) {
            BulkLoad.appendEntry(this, id, serialized);
            return;
        }
        store.entries().put(this, id, serialized);
    }

    public void deleteEntry(long id) {
        store.entries().delete(this, id);
        store.meta().deleted(this, id);
    }

    public void putChild(long parentId, byte[] normalizedRdn, long id) {
        store.dn().put(this, parentId, normalizedRdn, id);
    }

    public void deleteChild(long parentId, byte[] normalizedRdn) {
        store.dn().delete(this, parentId, normalizedRdn);
    }

    public void indexAdd(String attributeOid, IndexKind kind, byte[] key, long id) {
        if (bulkIndexes != null) {
            bulkIndexes.add(attributeOid, kind, IndexKeys.storedForm(key), id);
            return;
        }
        store.indexes().get(attributeOid, kind).add(this, key, id);
    }

    /**
     * {@link #indexAdd} for each of {@code keys}, the index looked up once: per key, the lookup was 5%
     * of the writer's CPU in a replica's refresh (JFR), where an entry has a hundred substring keys.
     */
    public void indexAdd(String attributeOid, IndexKind kind, Collection<IndexKeys.Key> keys, long id) {
        if (bulkIndexes != null) {
            for (IndexKeys.Key key : keys) {
                bulkIndexes.add(attributeOid, kind, IndexKeys.storedForm(key.bytes()), id);
            }
            return;
        }
        AttributeIndex index = store.indexes().get(attributeOid, kind);
        for (IndexKeys.Key key : keys) {
            index.add(this, key.bytes(), id);
        }
    }

    /** Where a bulk load sends index records instead of the indexes ({@link #bulkLoad}). */
    public interface BulkIndexSink {
        /** Takes one record of the index {@code kind} on {@code attributeOid}; the key is in stored form. */
        void add(String attributeOid, IndexKind kind, byte[] storedKey, long id);
    }

    /**
     * Turns this transaction into a bulk load's: from now on {@link #putEntry} appends ({@link
     * BulkLoad#appendEntry}: IDs must ascend above every stored one, as new entries' do) and
     * {@link #indexAdd} hands each record to {@code indexes}, which fills the indexes later ({@link
     * IndexAppender}). Every other change goes to the store as usual.
     */
    public void bulkLoad(BulkIndexSink indexes) {
        this.bulkIndexes = indexes;
    }

    /** Whether this is a bulk load's transaction ({@link #bulkLoad}): its index records are not in the indexes yet. */
    public boolean isBulkLoad() {
        return bulkIndexes != null;
    }

    public void indexDelete(String attributeOid, IndexKind kind, byte[] key, long id) {
        if (bulkIndexes != null) {
            // The record may be in the load's runs, not the index: a bulk load only adds entries.
            throw new IllegalStateException("an index record deleted during a bulk load");
        }
        store.indexes().get(attributeOid, kind).delete(this, key, id);
    }

    /**
     * Records {@code change} in the change log and raises the contextCSN of its server ID to its CSN;
     * a delete is also remembered by its UUID ({@link TombstoneTree}) while its record is in the log.
     * A bulk load ({@link #bulkLoad}) fills an empty store, which no consumer's cookie can name:
     * its changes are not logged, the log's floor rises to them instead, so a consumer refreshes
     * in full.
     */
    public void logChange(LoggedChange change) {
        if (bulkIndexes != null) {
            store.meta().raiseChangeLogFloor(this, change.csn());
        } else {
            logReplicatedChange(change);
        }
        store.meta().raiseContextCsn(this, change.csn());
    }

    /**
     * Records {@code change}, stamped by another server, in the change log (so that it is passed on)
     * without raising the contextCSN: a replication consumer receives a refresh's changes out of CSN
     * order, and its contextCSN moves with the provider's cookie alone ({@link #raiseContextCsn}).
     */
    public void logReplicatedChange(LoggedChange change) {
        store.changeLog().append(this, change);
        if (change.kind() == LoggedChange.Kind.DELETE) {
            store.tombstones().put(this, change.uuid(), change.csn());
        }
    }

    /**
     * Raises the contextCSN of the CSN's server ID to {@code csn} without a change log record: an
     * entry imported with a CSN of its own.
     */
    public void raiseContextCsn(byte[] csn) {
        store.meta().raiseContextCsn(this, csn);
    }

    /**
     * Trims the change log from its oldest end while it holds more than {@code maxChanges} records (0:
     * no bound) or records older than {@code keepFrom} (null: no bound), raising its floor to the
     * newest record removed.
     *
     * @return how many records were removed
     */
    public long trimChangeLog(long maxChanges, byte[] keepFrom) {
        long before = store.changeLog().size(this);
        byte[] last = store.changeLog().trim(this, maxChanges, keepFrom, store.tombstones());
        if (last != null) {
            store.meta().raiseChangeLogFloor(this, last);
        }
        return before - store.changeLog().size(this);
    }

    /**
     * Empties the change log and raises its floor to {@code floor}: the tree was replaced wholesale (an
     * import), so a consumer's cookie from before cannot be answered from the log.
     */
    public void resetChangeLog(byte[] floor) {
        store.changeLog().empty(this);
        store.tombstones().empty(this);
        store.meta().raiseChangeLogFloor(this, floor);
    }

    /** Marks {@code uuid} present for replica {@code rid} ({@link PresentTree}). */
    public void markPresent(int rid, byte[] uuid) {
        store.present().mark(this, rid, uuid);
    }

    /**
     * Forgets every UUID marked present for replica {@code rid}.
     *
     * @return how many were marked
     */
    public long clearPresent(int rid) {
        return store.present().clear(this, rid);
    }

    /** Records the sync cookie replica {@code rid} has reached ({@link MetaTree}); replaces the one before. */
    public void putReplicaCookie(int rid, String cookie) {
        store.meta().putReplicaCookie(this, rid, cookie);
    }

    /**
     * Runs {@code action} on the committing thread once this transaction has committed; never when it
     * aborts. For a nested transaction: once the top-level transaction committed, and never when it
     * or any transaction between aborts.
     */
    public void onCommit(Runnable action) {
        afterCommit.add(action);
    }

    /**
     * {@link #onCommit} for an action that only tells someone of the change (a persistent search's
     * notification) and changes nothing later writes are judged by: it runs in order with the others,
     * but is not counted by {@link #commitActions}, so group commit keeps batching past it.
     */
    public void noticeOnCommit(Runnable action) {
        afterCommit.add(action);
        notices++;
    }

    /**
     * How many {@link #onCommit} actions wait for this transaction's commit, those nested
     * transactions handed to it included; notices ({@link #noticeOnCommit}) are not counted.
     */
    public int commitActions() {
        return afterCommit.size() - notices;
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
     * transaction, then runs the {@link #onCommit} actions, every one even when an earlier one
     * throws; the first such failure is rethrown after them, with the transaction committed ({@link
     * #isCommitted()}). A nested transaction commits into its parent and hands its {@code onCommit}
     * actions to it instead.
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
        committed = true;
        if (parent != null) {
            parent.afterCommit.addAll(afterCommit);
            parent.notices += notices;
            parent.renamed |= renamed;
            return;
        }
        RuntimeException first = null;
        for (Runnable action : afterCommit) {
            try {
                action.run();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
