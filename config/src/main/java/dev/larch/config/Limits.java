package dev.larch.config;

/**
 * Server-side search limits; a client's request can lower them but never raise them. For every
 * limit, 0 means unlimited.
 *
 * @param sizeLimit the most entries one search returns before sizeLimitExceeded
 * @param timeLimitSeconds the longest one search runs before timeLimitExceeded
 * @param lookThroughLimit the most candidate entries one search examines before adminLimitExceeded
 * @param indexEntryLimit the most entry IDs one index key keeps; a key that grows past it stops
 *     narrowing searches (it answers "not indexed"), which keeps very common values cheap
 * @param workerThreads threads of the worker pool that runs CPU-heavy work off the event loops
 *     (password hashing of binds, searches that may run long); 0 means one per CPU core
 * @param workerQueue the most tasks that may wait for a worker beyond those running; past it a
 *     request is answered busy instead of queued
 * @param applyToAdmin whether the administrator is held to these search limits too; false (the
 *     default) exempts {@code cn=admin} from the size, time and look-through limits
 * @param pausedSearchSeconds the longest a search may wait for its client to read (it keeps a read
 *     transaction open meanwhile) before it ends with timeLimitExceeded; at least 1
 * @param maxPausedSearches the most searches across the server that may hold a read transaction
 *     while waiting for their clients to read; a search that would pause beyond it ends busy. Must
 *     stay below {@code storage.max-readers} so that the rest is left for other clients
 * @param maxLongSearches the most searches across the server that may run on the worker pool at
 *     once (those that walk their scope or have many candidates), each holding a read transaction
 *     while it runs; a search that would run long beyond it ends busy. With {@code maxPausedSearches}
 *     it must stay below {@code storage.max-readers}
 */
public record Limits(
        int sizeLimit,
        int timeLimitSeconds,
        int lookThroughLimit,
        int indexEntryLimit,
        int workerThreads,
        int workerQueue,
        boolean applyToAdmin,
        int pausedSearchSeconds,
        int maxPausedSearches,
        int maxLongSearches) {
    /** The worker thread count with 0 resolved to the number of available processors. */
    public int effectiveWorkerThreads() {
        return workerThreads > 0 ? workerThreads : Runtime.getRuntime().availableProcessors();
    }
}
