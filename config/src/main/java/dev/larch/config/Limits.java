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
 *     (password hashing of binds); 0 means one per CPU core
 * @param workerQueue the most tasks that may wait for a worker beyond those running; past it a
 *     request is answered busy instead of queued
 * @param applyToAdmin whether the administrator is held to these search limits too (true by
 *     default); false exempts {@code cn=admin} from the size, time and look-through limits
 */
public record Limits(
        int sizeLimit,
        int timeLimitSeconds,
        int lookThroughLimit,
        int indexEntryLimit,
        int workerThreads,
        int workerQueue,
        boolean applyToAdmin) {
    /** Worker pool settings when none are given: one thread per core, {@value #DEFAULT_WORKER_QUEUE} waiting. */
    public static final int DEFAULT_WORKER_QUEUE = 1024;

    /** Search limits with the default worker pool. */
    public Limits(int sizeLimit, int timeLimitSeconds, int lookThroughLimit, int indexEntryLimit) {
        this(sizeLimit, timeLimitSeconds, lookThroughLimit, indexEntryLimit, 0, DEFAULT_WORKER_QUEUE);
    }

    /** Search limits and worker pool settings; the administrator is held to the limits. */
    public Limits(
            int sizeLimit,
            int timeLimitSeconds,
            int lookThroughLimit,
            int indexEntryLimit,
            int workerThreads,
            int workerQueue) {
        this(sizeLimit, timeLimitSeconds, lookThroughLimit, indexEntryLimit, workerThreads, workerQueue, true);
    }

    /** A copy that holds the administrator to the limits, or exempts them. */
    public Limits withApplyToAdmin(boolean apply) {
        return new Limits(
                sizeLimit, timeLimitSeconds, lookThroughLimit, indexEntryLimit, workerThreads, workerQueue, apply);
    }

    /** The worker thread count with 0 resolved to the number of available processors. */
    public int effectiveWorkerThreads() {
        return workerThreads > 0 ? workerThreads : Runtime.getRuntime().availableProcessors();
    }
}
