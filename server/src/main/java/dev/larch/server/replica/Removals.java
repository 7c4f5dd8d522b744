package dev.larch.server.replica;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.entry.StoredStamps;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes entries for a replica, an entry's descendants first: a provider deletes leaves only, but a
 * replica may hold children the provider never had (a conflict's loser) or learn of a subtree's delete
 * only through a present phase, and a parent cannot go before its children.
 *
 * <p>Memory: the IDs of one subtree, while it is deleted. Used on the writer thread only.
 */
final class Removals {
    private static final Logger LOG = LoggerFactory.getLogger(Removals.class);

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
     * Deletes the entry {@code id} and its descendants as the provider deleted them ({@link
     * #deleteReplicated}), unless the entry holds a change of this server that the provider had not
     * seen: its entryCSN carries this server's ID and is newer than what {@code providerState} (the
     * provider's cookies so far) has for this server. Then the delete is made as a change of this
     * server ({@link #deleteLocally}), so it is passed on to the provider after that change.
     *
     * <p>Why: a slapd provider keeps no tombstones, so this server's change, reaching it after it
     * deleted the entry, adds the entry back there while the delete wins here; the delete sent after
     * the change deletes it again. Where the provider had the entry gone already (another Larch, or a
     * slapd that saw the change first) that second delete finds nothing and does nothing.
     *
     * @return how many entries were deleted
     */
    long deleteFromProvider(WriteTxn txn, long id, CsnVector providerState, Supplier<byte[]> csns) {
        StoredEntry entry = directory.load(txn, id);
        if (entry != null && changedHereUnseen(entry, providerState)) {
            LOG.info(
                    "the provider deleted {}, changed here at {} after its last cookie named this server's"
                            + " changes: deleted as this server's change, so that the provider deletes it again",
                    entry.dn(),
                    StoredStamps.csn(entry));
            return deleteLocally(txn, id);
        }
        return deleteReplicated(txn, id, csns);
    }

    private boolean changedHereUnseen(StoredEntry entry, CsnVector providerState) {
        Csn csn = StoredStamps.csn(entry);
        int ours = directory.stamps().serverId();
        if (csn == null || csn.sid() != ours) {
            return false;
        }
        Csn seen = providerState.get(ours);
        return seen == null || csn.isAfter(seen);
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
