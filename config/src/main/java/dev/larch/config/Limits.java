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
 * @param applyToAdmin whether the administrator is held to these search limits too (true by
 *     default); false exempts {@code cn=admin} from the size, time and look-through limits
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
    /** Worker pool settings when none are given: one thread per core, {@value #DEFAULT_WORKER_QUEUE} waiting. */
    public static final int DEFAULT_WORKER_QUEUE = 1024;

    /** How long a search may wait for its client to read, when not configured: a minute. */
    public static final int DEFAULT_PAUSED_SEARCH_SECONDS = 60;

    /**
     * Searches that may wait for their clients at once, when not configured: half of the default
     * {@code storage.max-readers} (1024), so the other half is left for everyone else.
     */
    public static final int DEFAULT_MAX_PAUSED_SEARCHES = 512;

    /**
     * Searches that may run long on the worker pool at once, when not configured: a quarter of the
     * default {@code storage.max-readers}, far more than two cores can serve at a time.
     */
    public static final int DEFAULT_MAX_LONG_SEARCHES = 256;

    /** Search limits with the default worker pool and paused-search bounds. */
    public Limits(int sizeLimit, int timeLimitSeconds, int lookThroughLimit, int indexEntryLimit) {
        this(sizeLimit, timeLimitSeconds, lookThroughLimit, indexEntryLimit, 0, DEFAULT_WORKER_QUEUE);
    }

    /**
     * Search limits and worker pool settings; the administrator is held to the limits, paused searches
     * have the default bounds.
     */
    public Limits(
            int sizeLimit,
            int timeLimitSeconds,
            int lookThroughLimit,
            int indexEntryLimit,
            int workerThreads,
            int workerQueue) {
        this(
                sizeLimit,
                timeLimitSeconds,
                lookThroughLimit,
                indexEntryLimit,
                workerThreads,
                workerQueue,
                true,
                DEFAULT_PAUSED_SEARCH_SECONDS,
                DEFAULT_MAX_PAUSED_SEARCHES,
                DEFAULT_MAX_LONG_SEARCHES);
    }

    /** A copy that holds the administrator to the limits, or exempts them. */
    public Limits withApplyToAdmin(boolean apply) {
        return new Limits(
                sizeLimit,
                timeLimitSeconds,
                lookThroughLimit,
                indexEntryLimit,
                workerThreads,
                workerQueue,
                apply,
                pausedSearchSeconds,
                maxPausedSearches,
                maxLongSearches);
    }

    /** The worker thread count with 0 resolved to the number of available processors. */
    public int effectiveWorkerThreads() {
        return workerThreads > 0 ? workerThreads : Runtime.getRuntime().availableProcessors();
    }
}
