package dev.larch.server.net;

/**
 * The request bytes one connection holds, read and not yet answered (held in order or running),
 * counted as the size of each request's PDU as received, and whether that is enough for the
 * connection to stop reading: at its own limit ({@code listen.max-pending-size}, or
 * {@code listen.max-pending-size-anonymous} while the session is anonymous), or while the server-wide
 * {@link PendingBytesBudget} is spent. A connection that holds nothing may always read one more request,
 * so a client that waits for each answer is served whatever the others hold; so one connection holds at
 * most its limit plus one PDU.
 *
 * <p>Stateful: one instance per connection, used on its event loop only. Counting does not allocate.
 */
final class PendingBytes {

    private final long limit;
    private final long anonymousLimit;
    private final PendingBytesBudget total;

    private long held;
    /** Set while registered with the budget to be woken: once per stop. */
    private boolean waitingForBudget;

    /**
     * @param limit          bytes a bound connection holds before it stops reading, at least 1
     * @param anonymousLimit as {@code limit} while the session is anonymous; the smaller of the two applies
     * @param total          the listener's budget, shared by its connections
     */
    PendingBytes(long limit, long anonymousLimit, PendingBytesBudget total) {
        if (limit < 1 || anonymousLimit < 1) {
            throw new IllegalArgumentException("limits must be >= 1, were " + limit + " and " + anonymousLimit);
        }
        this.limit = limit;
        this.anonymousLimit = Math.min(limit, anonymousLimit);
        this.total = total;
    }

    /** No limit of its own and a budget of its own: for a connection outside any listener. */
    static PendingBytes unlimited() {
        return new PendingBytes(Long.MAX_VALUE, Long.MAX_VALUE, PendingBytesBudget.unlimited());
    }

    void take(int bytes) {
        if (bytes > 0) {
            held += bytes;
            total.take(bytes);
        }
    }

    void giveBack(int bytes) {
        if (bytes > 0) {
            held -= bytes;
            total.giveBack(bytes);
        }
    }

    long held() {
        return held;
    }

    /**
     * Whether the connection holds enough to stop reading. When that is only because the server-wide
     * budget is spent, {@code wake} is registered to run (on any thread) once it is not; until it has
     * run, later calls do not register it again.
     *
     * @param anonymous whether the session is anonymous now
     */
    boolean isFull(boolean anonymous, Runnable wake) {
        if (held == 0) {
            return false;
        }
        if (held >= (anonymous ? anonymousLimit : limit)) {
            return true;
        }
        if (!total.isSpent()) {
            return false;
        }
        if (!waitingForBudget) {
            waitingForBudget = true;
            total.whenAvailable(wake);
        }
        return true;
    }

    /** Called on the event loop when the {@code wake} given to {@link #isFull} has run. */
    void woken() {
        waitingForBudget = false;
    }
}
