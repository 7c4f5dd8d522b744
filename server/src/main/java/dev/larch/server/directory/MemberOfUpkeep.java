package dev.larch.server.directory;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;

/**
 * Keeps the stored {@code memberOf} values in step with the groups: told by the {@link Directory}
 * of every entry written, inside the write transaction, and expected to bring the values of every
 * entry the write affects up to date before that transaction commits ({@link
 * WriteTxn#beforeCommit}). Writes of {@code memberOf} itself go through {@link
 * Directory#writeMemberOf} and are not told back.
 *
 * <p>Called on the writer thread, one transaction at a time.
 */
public interface MemberOfUpkeep {
    /** Keeps nothing: offline tools that recompute every value afterwards (import), and tests. */
    MemberOfUpkeep NONE = (txn, before, after) -> {};

    /**
     * @param before the entry as it was, null when added
     * @param after the entry as it is now in {@code txn}, null when deleted
     */
    void written(WriteTxn txn, StoredEntry before, StoredEntry after);

    /**
     * Brings the values of every entry some group names up to date, in transactions of at most
     * {@code batchEntries} entries of its own: the pass after a bulk load, whose transactions it is
     * not told of ({@link WriteTxn#isBulkLoad}). Keeping nothing, it does nothing.
     *
     * @return the entries rewritten
     */
    default long recomputeNamed(LmdbStore store, int batchEntries) {
        return 0;
    }
}
