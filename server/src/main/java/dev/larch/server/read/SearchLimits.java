package dev.larch.server.read;

/**
 * The server's bounds on one search, each 0 for none. A client may ask for less (RFC 4511
 * §4.5.1.4–5), never for more.
 *
 * @param sizeLimit maximum entries returned
 * @param timeLimitSeconds maximum seconds spent
 * @param lookThroughLimit maximum entries an unindexed search may examine
 */
public record SearchLimits(int sizeLimit, int timeLimitSeconds, int lookThroughLimit) {

    /** No bounds: what the administrator gets. */
    public static final SearchLimits NONE = new SearchLimits(0, 0, 0);

    public SearchLimits {
        if (sizeLimit < 0 || timeLimitSeconds < 0 || lookThroughLimit < 0) {
            throw new IllegalArgumentException("search limits must be >= 0 (0 for none)");
        }
    }
}
