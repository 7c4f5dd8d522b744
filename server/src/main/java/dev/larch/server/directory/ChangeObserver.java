package dev.larch.server.directory;

import dev.larch.server.store.WriteTxn;

/**
 * Told of every entry the {@link Directory} adds, deletes, replaces or renames, inside the write
 * transaction that does it: the one place that sees client writes, subtree deletes and renames,
 * referential-integrity rewrites and password-policy state alike.
 *
 * <p>Called on the writer thread, so an implementation must be quick and must never block. What it
 * wants to act on after the commit it registers with {@link WriteTxn#onCommit}: an aborted
 * transaction runs none of that. It must not throw (a failure would abort the client's write).
 */
public interface ChangeObserver {

    /**
     * @param txn the write transaction making the change; for a delete the entry is still in it, for
     *     the other types it already holds the new state
     */
    void changed(WriteTxn txn, DirectoryChange change);

    /**
     * Whether anyone would act now on {@code change}, judged by its type and stamp only (its entry may
     * be null): when not, changes that cost reads of their own to describe (the entries below a
     * renamed one, each renamed with it) are not described at all. An implementation that cannot
     * tell says true.
     */
    default boolean wants(DirectoryChange change) {
        return true;
    }

    /** The server is stopping: end whatever waits for changes. Called once, from any thread. */
    void close();
}
