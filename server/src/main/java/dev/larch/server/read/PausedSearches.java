package dev.larch.server.read;

import java.util.concurrent.TimeUnit;

/**
 * The server-wide bounds on searches that wait for their clients to read: how long one may wait, and
 * how many may wait at once. A waiting search keeps its read transaction, which takes one of LMDB's
 * reader slots ({@code storage.max-readers}) and pins the pages it sees; without these bounds a
 * client that never reads could hold every slot and every other client's reads would fail.
 *
 * <p>A search takes a slot the first time it waits and keeps it until it ends, so a search once
 * admitted is never refused halfway because others came to wait meanwhile.
 *
 * <p>Thread-safe: slots are taken and returned with one atomic counter.
 */
public final class PausedSearches {
    static final String SECONDS_KEY = "limits.paused-search-seconds";
    static final String MAX_KEY = "limits.max-paused-searches";

    private final int maxPauseSeconds;
    private final SearchSlots slots;

    /**
     * @param maxPauseSeconds the longest one search may wait, at least 1
     * @param maxPaused the most searches that may wait at once, at least 1
     */
    public PausedSearches(int maxPauseSeconds, int maxPaused) {
        if (maxPauseSeconds < 1 || maxPaused < 1) {
            throw new IllegalArgumentException("need a pause of at least 1 second and at least 1 paused search, got "
                    + maxPauseSeconds + ", " + maxPaused);
        }
        this.maxPauseSeconds = maxPauseSeconds;
        this.slots = new SearchSlots(maxPaused, MAX_KEY);
    }

    /** Takes a slot; false when {@code maxPaused} searches already hold one. */
    boolean tryTake() {
        return slots.tryTake();
    }

    /** Returns a slot taken with {@link #tryTake}. */
    void giveBack() {
        slots.giveBack();
    }

    /** Searches holding a slot right now. */
    public int paused() {
        return slots.taken();
    }

    long maxPauseNanos() {
        return TimeUnit.SECONDS.toNanos(maxPauseSeconds);
    }

    /** The diagnostic of a search refused a slot. */
    String refusal() {
        return "too many searches are waiting for their clients to read (" + slots.limit()
                + "); read the results sooner or try again later";
    }

    /** The diagnostic of a search that waited too long. */
    String pausedTooLong() {
        return "search ended after waiting " + maxPauseSeconds + " seconds for the client to read its results ("
                + SECONDS_KEY + ")";
    }
}
