package dev.larch.server.directory;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.name.Dn;

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
     * Told, after a modify DN of entry {@code rootId} (itself told through {@link #written}), that
     * every entry below it moved from below {@code oldRoot} to below {@code newRoot}: brings up to
     * date, before the commit, every value {@link #written} of each descendant would have.
     *
     * @param oldRoot the renamed entry's DN before the rename, schema-aware
     * @param newRoot its DN after it
     * @return false when it cannot without being told of each descendant through {@link #written},
     *     which the caller then does
     */
    default boolean subtreeRenamed(WriteTxn txn, long rootId, Dn oldRoot, Dn newRoot) {
        return false;
    }

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
