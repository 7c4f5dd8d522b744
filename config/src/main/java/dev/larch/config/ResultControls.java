package dev.larch.config;

/**
 * Bounds of the search controls that shape a result set (simple paged results).
 *
 * @param maxPagedSearchesPerConnection {@code limits.max-paged-searches-per-connection}: the most
 *     paged searches one connection may leave open between pages; opening one more forgets the
 *     oldest, whose cookie is then refused
 * @param pagedSizeLimit {@code limits.paged-size-limit}: the most entries one paged search returns
 *     over all its pages before sizeLimitExceeded; 0 for no limit
 */
public record ResultControls(int maxPagedSearchesPerConnection, int pagedSizeLimit) {
    public static final ResultControls DEFAULTS = new ResultControls(16, 0);

    public ResultControls {
        if (maxPagedSearchesPerConnection < 1) {
            throw new IllegalArgumentException(
                    "maxPagedSearchesPerConnection must be at least 1, got " + maxPagedSearchesPerConnection);
        }
        if (pagedSizeLimit < 0) {
            throw new IllegalArgumentException("pagedSizeLimit must not be negative, got " + pagedSizeLimit);
        }
    }
}
