package dev.larch.server.replica;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;

/**
 * Deletes entries for a replica, an entry's descendants first: a provider deletes leaves only, but a
 * replica may hold children the provider never had (a conflict's loser) or learn of a subtree's delete
 * only through a present phase, and a parent cannot go before its children.
 *
 * <p>Memory: the IDs of one subtree, while it is deleted. Used on the writer thread only.
 */
final class Removals {
    /** No entry has ID 0: the entry ID a delete of an absent entry is logged with. */
    static final long NO_ENTRY = 0L;

    private final Directory directory;

    Removals(Directory directory) {
        this.directory = directory;
    }

    /**
     * Deletes the entry {@code id} and its descendants as another server deleted them, each logged
     * with a CSN from {@code csns}; nothing when it is gone already.
     *
     * @return how many entries were deleted
     */
    long deleteReplicated(WriteTxn txn, long id, Supplier<byte[]> csns) {
        return deleteSubtree(txn, id, entry -> directory.deleteReplicated(txn, entry, csns.get()));
    }

    /**
     * Remembers that another server deleted the entry {@code uuid}, which this server does not hold: its
     * delete is logged (and passed on) and a later add or modify of it is not applied.
     */
    void deletedElsewhere(WriteTxn txn, byte[] uuid, byte[] csn) {
        if (txn.tombstone(uuid) == null) {
            txn.logReplicatedChange(new LoggedChange(csn, LoggedChange.Kind.DELETE, NO_ENTRY, uuid));
        }
    }

    /**
     * Deletes the entry {@code id} and its descendants as a change of this server (stamped with its own
     * CSNs, so the delete replicates): the loser of a conflict.
     *
     * @return how many entries were deleted
     */
    long deleteLocally(WriteTxn txn, long id) {
        return deleteSubtree(txn, id, entry -> directory.delete(txn, entry));
    }

    private interface Delete {
        void delete(StoredEntry entry);
    }

    private long deleteSubtree(WriteTxn txn, long rootId, Delete delete) {
        if (txn.entry(rootId) == null) {
            return 0;
        }
        List<Long> preorder = new ArrayList<>();
        Deque<Long> pending = new ArrayDeque<>();
        pending.push(rootId);
        while (!pending.isEmpty()) {
            long id = pending.pop();
            preorder.add(id);
            try (IdCursor children = txn.children(id)) {
                for (long child = children.next(); child != ReadTxn.NOT_FOUND; child = children.next()) {
                    pending.push(child);
                }
            }
        }
        for (int i = preorder.size() - 1; i >= 0; i--) {
            StoredEntry entry = directory.load(txn, preorder.get(i));
            if (entry != null) {
                delete.delete(entry);
            }
        }
        return preorder.size();
    }
}
