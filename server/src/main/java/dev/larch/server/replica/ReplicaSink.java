package dev.larch.server.replica;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.larch.server.sync.SyncCookie;

/**
 * Where one sync session's changes go: the local store, for one replica ID. A session sends {@link
 * #storedCookie()} when it (re)starts, and hands over changes in order, in batches, with at most one
 * batch outstanding: it stops reading from the provider until the batch's future completes, so a slow
 * writer pauses the provider rather than grows memory.
 *
 * <p>Thread-safe: the session calls it from its event loop; the work happens on the writer thread.
 */
public interface ReplicaSink {

    /**
     * The cookie this replica has committed for its provider, with this server's replica ID and server
     * ID; null when it has none (no refresh has completed, or the store was emptied), so the session
     * asks for a full refresh.
     */
    SyncCookie storedCookie();

    /**
     * Applies {@code changes} in order, in one write transaction with the last cookie among them (when
     * one carries a cookie), so a replica stopped at any moment restarts from exactly what it committed.
     *
     * @param changes at least one
     * @return completes when the transaction committed; completes exceptionally when a change cannot
     *     be applied (a malformed entry, a store failure), and then nothing of the batch was committed
     */
    CompletableFuture<Void> apply(List<ReplicaChange> changes);
}
