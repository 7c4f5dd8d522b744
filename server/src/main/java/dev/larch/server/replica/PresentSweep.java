package dev.larch.server.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.entry.StoredStamps;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;

/**
 * The end of a present phase (RFC 4533 section 3.4): every entry of the store the provider did not
 * name since the refresh began is deleted, except the naming context's root (it holds the tree) and
 * entries whose entryCSN is newer than what the provider's cookie says it has of that CSN's server
 * (a change the provider has not seen yet: another member of a multi-provider set made it), as
 * slapd's consumer also spares them.
 *
 * <p>The store is walked in entry ID order with a cursor, {@value #CHUNK} doomed IDs at a time: the
 * cursor is closed before they are deleted and the walk resumes after the last ID it read, so memory
 * stays bounded whatever the store holds. Everything happens in the caller's transaction, so the
 * phase's deletes commit with the cookie that ends it, or not at all (LMDB bounds how much one
 * transaction may change: a present phase that deletes most of a very large store may fail with a
 * change too large, see docs/operations.md).
 *
 * <p>Used on the writer thread only.
 */
final class PresentSweep {
    static final int CHUNK = 1024;

    private final Directory directory;
    private final Removals removals;

    PresentSweep(Directory directory, Removals removals) {
        this.directory = directory;
        this.removals = removals;
    }

    /**
     * @param provider what the provider has, per server ID: its cookie's state
     * @param csns the CSN each delete is logged with
     * @return how many entries were deleted
     */
    long sweep(WriteTxn txn, int rid, CsnVector provider, Supplier<byte[]> csns) {
        long deleted = 0;
        long after = 0;
        List<Long> doomed = new ArrayList<>(CHUNK);
        boolean more = true;
        while (more) {
            doomed.clear();
            more = false;
            try (IdCursor ids = txn.entriesAfter(after)) {
                for (long id = ids.next(); id != ReadTxn.NOT_FOUND; id = ids.next()) {
                    after = id;
                    if (doomed(txn, rid, provider, id)) {
                        doomed.add(id);
                        if (doomed.size() == CHUNK) {
                            more = true;
                            break;
                        }
                    }
                }
            }
            for (long id : doomed) {
                deleted += removals.deleteReplicated(txn, id, csns);
            }
        }
        return deleted;
    }

    private boolean doomed(ReadTxn txn, int rid, CsnVector provider, long id) {
        StoredEntry entry = directory.load(txn, id);
        if (entry == null || entry.parentId() == DnTree.NO_PARENT) {
            return false;
        }
        byte[] uuid = StoredStamps.uuid(entry);
        if (uuid != null && txn.isPresent(rid, uuid)) {
            return false;
        }
        Csn csn = StoredStamps.csn(entry);
        if (csn == null) {
            return true;
        }
        Csn known = provider.get(csn.sid());
        return known != null && !csn.isAfter(known);
    }
}
