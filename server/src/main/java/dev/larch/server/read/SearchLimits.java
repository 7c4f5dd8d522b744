package dev.larch.server.read;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.larch.server.search.SearchBudget;

/**
 * The server's bounds on one search, each 0 for none. A client may ask for less (RFC 4511
 * §4.5.1.4–5), never for more.
 *
 * @param sizeLimit maximum entries returned
 * @param timeLimitSeconds maximum seconds spent
 * @param lookThroughLimit maximum entries a search may examine (and, on a counter of their own, index
 *     IDs it may read; see {@link SearchBudget})
 * @param applyToAdmin whether the administrator is held to these bounds too
 */
public record SearchLimits(int sizeLimit, int timeLimitSeconds, int lookThroughLimit, boolean applyToAdmin) {

    /** No bounds. */
    public static final SearchLimits NONE = new SearchLimits(0, 0, 0, false);

    public SearchLimits {
        if (sizeLimit < 0 || timeLimitSeconds < 0 || lookThroughLimit < 0) {
            throw new IllegalArgumentException("search limits must be >= 0 (0 for none)");
        }
    }

    /** Bounds that hold the administrator too. */
    public SearchLimits(int sizeLimit, int timeLimitSeconds, int lookThroughLimit) {
        this(sizeLimit, timeLimitSeconds, lookThroughLimit, true);
    }

    /** The bounds for a search by the administrator ({@code admin}) or anyone else. */
    public SearchLimits forSession(boolean admin) {
        return admin && !applyToAdmin ? NONE : this;
    }

    /**
     * The budget of one search under these bounds: the look-through limit, and a deadline from the
     * stricter of the request's time limit and the server's, whose message names the one that applied.
     *
     * @param requestedSeconds the request's time limit, 0 for none
     * @param startNanos when the request arrived, on {@link System#nanoTime()}
     * @param abandoned true once the client abandoned the search
     */
    public SearchBudget budget(long requestedSeconds, long startNanos, BooleanSupplier abandoned) {
        boolean serversApplies =
                timeLimitSeconds > 0 && (requestedSeconds <= 0 || requestedSeconds >= timeLimitSeconds);
        long seconds = serversApplies ? timeLimitSeconds : Math.max(0, requestedSeconds);
        if (seconds == 0) {
            return SearchBudget.lazyMessage(lookThroughLimit, 0, null, abandoned, System::nanoTime);
        }
        // The message is built only for a search that runs out of time (JFR: one string per search before).
        Supplier<String> message = () -> "time limit of " + seconds + " seconds exceeded"
                + (serversApplies ? " (limits.time-limit-seconds)" : " (requested by the client)");
        long deadline = startNanos + TimeUnit.SECONDS.toNanos(seconds);
        return SearchBudget.lazyMessage(lookThroughLimit, deadline, message, abandoned, System::nanoTime);
    }
}
