package dev.larch.config;

/**
 * Bounds of the search controls that shape a result set (simple paged results, server-side sort) and
 * of persistent searches.
 *
 * @param maxPagedSearchesPerConnection {@code limits.max-paged-searches-per-connection}: the most
 *     paged searches one connection may leave open between pages; opening one more forgets the
 *     oldest, whose cookie is then refused
 * @param pagedSizeLimit {@code limits.paged-size-limit}: the most entries one paged search returns
 *     over all its pages before sizeLimitExceeded; 0 for no limit
 * @param maxSortEntries {@code limits.max-sort-entries}: the most matching entries one server-side
 *     sort orders; one more ends the search with adminLimitExceeded
 * @param maxPersistentSearches {@code limits.max-persistent-searches}: the most persistent searches
 *     waiting for changes across the server; one more is answered adminLimitExceeded
 * @param persistentSearchQueue {@code limits.persistent-search-queue}: the most change notifications
 *     one persistent search may have waiting for its client to read; one more closes its connection
 */
public record ResultControls(
        int maxPagedSearchesPerConnection,
        int pagedSizeLimit,
        int maxSortEntries,
        int maxPersistentSearches,
        int persistentSearchQueue) {
    public ResultControls {
        if (maxPersistentSearches < 1) {
            throw new IllegalArgumentException(
                    "maxPersistentSearches must be at least 1, got " + maxPersistentSearches);
        }
        if (persistentSearchQueue < 1) {
            throw new IllegalArgumentException(
                    "persistentSearchQueue must be at least 1, got " + persistentSearchQueue);
        }
        if (maxPagedSearchesPerConnection < 1) {
            throw new IllegalArgumentException(
                    "maxPagedSearchesPerConnection must be at least 1, got " + maxPagedSearchesPerConnection);
        }
        if (maxSortEntries < 1) {
            throw new IllegalArgumentException("maxSortEntries must be at least 1, got " + maxSortEntries);
        }
        if (pagedSizeLimit < 0) {
            throw new IllegalArgumentException("pagedSizeLimit must not be negative, got " + pagedSizeLimit);
        }
    }
}
