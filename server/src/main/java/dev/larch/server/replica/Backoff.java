package dev.larch.server.replica;

/**
 * How long a session waits before reconnecting: the first wait after a failure, doubled after each
 * further failure up to a bound, back to the first once a session got somewhere (reached the persist
 * stage or completed a refresh). Not thread-safe: used on the session's event loop.
 */
final class Backoff {
    private final long firstSeconds;
    private final long maxSeconds;
    private long nextSeconds;

    Backoff(long firstSeconds, long maxSeconds) {
        if (firstSeconds < 1 || maxSeconds < firstSeconds) {
            throw new IllegalArgumentException("back-off " + firstSeconds + ".." + maxSeconds + " s");
        }
        this.firstSeconds = firstSeconds;
        this.maxSeconds = maxSeconds;
        this.nextSeconds = firstSeconds;
    }

    /** The wait before the next attempt; the one after it is twice as long, up to the bound. */
    long nextDelaySeconds() {
        long delay = nextSeconds;
        nextSeconds = Math.min(maxSeconds, nextSeconds * 2);
        return delay;
    }

    /** The session made progress: the next failure waits the first delay again. */
    void reset() {
        nextSeconds = firstSeconds;
    }
}
