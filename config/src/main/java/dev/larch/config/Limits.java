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
 */
public record Limits(int sizeLimit, int timeLimitSeconds, int lookThroughLimit, int indexEntryLimit) {}
