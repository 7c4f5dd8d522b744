package dev.larch.server.search;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * What one search may still spend, shared by its {@link SearchPlanner} and {@link SearchCursor}: a
 * deadline, an abandon check and the look-through limit. Every step of planning (one index read) and
 * of the cursor (one entry examined, one candidate scoped) passes through here, so a search a client
 * made long stops at the first step past a bound, whichever loop it is in.
 *
 * <p>Two counters share the look-through limit. Entries examined (loaded and checked against the
 * filter) may not exceed it. IDs read from indexes are counted apart, against the larger of the limit
 * and the index entry limit, each read costing at least one: one key can hold up to the index entry
 * limit, so an indexed lookup that the index answers always fits, while an OR of thousands of broad
 * or empty terms does not. Counting them apart also keeps an entry from being paid for twice, once as
 * an index ID and again as the candidate examined, which would halve the limit for indexed searches.
 *
 * <p>Once spent, every later step fails the same way: a cursor called again after a failure does
 * not resume. Abandon fails with {@code canceled}; the operation is abandoned, so nothing is sent.
 *
 * <p>Not thread-safe: one search, one thread at a time.
 */
public final class SearchBudget {
    private final long lookThroughLimit;
    private final boolean timed;
    private final long deadlineNanos;
    /** Built only when the deadline passes: most searches never need it. */
    private final Supplier<String> timeLimitMessage;

    private final BooleanSupplier abandoned;
    private final LongSupplier nanoClock;

    private long examined;
    private long indexIdsRead;
    private ResultCodeException spent;

    /**
     * @param lookThroughLimit entries one search may examine, 0 for no limit
     * @param deadlineNanos when the search must end, on {@code nanoClock}; ignored when
     *     {@code timeLimitMessage} is null
     * @param timeLimitMessage the diagnostic message of timeLimitExceeded (naming the limit that
     *     applied), or null for no deadline
     * @param abandoned true once the client abandoned the search or the connection closed
     * @param nanoClock {@link System#nanoTime()} in production; tests drive it
     */
    public SearchBudget(
            long lookThroughLimit,
            long deadlineNanos,
            String timeLimitMessage,
            BooleanSupplier abandoned,
            LongSupplier nanoClock) {
        this(
                lookThroughLimit,
                deadlineNanos,
                timeLimitMessage == null ? (Supplier<String>) null : () -> timeLimitMessage,
                abandoned,
                nanoClock);
    }

    /**
     * As the constructor, with the message of timeLimitExceeded built by {@code timeLimitMessage}
     * only when the deadline passes, so that a search that ends in time builds no message.
     *
     * @param timeLimitMessage builds the diagnostic message (naming the limit that applied); null for
     *     no deadline
     */
    public static SearchBudget lazyMessage(
            long lookThroughLimit,
            long deadlineNanos,
            Supplier<String> timeLimitMessage,
            BooleanSupplier abandoned,
            LongSupplier nanoClock) {
        return new SearchBudget(lookThroughLimit, deadlineNanos, timeLimitMessage, abandoned, nanoClock);
    }

    private SearchBudget(
            long lookThroughLimit,
            long deadlineNanos,
            Supplier<String> timeLimitMessage,
            BooleanSupplier abandoned,
            LongSupplier nanoClock) {
        if (lookThroughLimit < 0) {
            throw new IllegalArgumentException("lookThroughLimit must be >= 0 (0 for none), was " + lookThroughLimit);
        }
        this.lookThroughLimit = lookThroughLimit == 0 ? Long.MAX_VALUE : lookThroughLimit;
        this.timed = timeLimitMessage != null;
        this.deadlineNanos = deadlineNanos;
        this.timeLimitMessage = timeLimitMessage;
        this.abandoned = abandoned;
        this.nanoClock = nanoClock;
    }

    /** No limit, no deadline, never abandoned: for tools and tests that read the whole store. */
    public static SearchBudget unlimited() {
        return new SearchBudget(0, 0, (Supplier<String>) null, () -> false, System::nanoTime);
    }

    /**
     * One step that examines nothing (a candidate found outside the scope): checks abandon and the
     * deadline only.
     *
     * @throws ResultCodeException timeLimitExceeded or canceled
     */
    void step() {
        if (spent != null) {
            throw spent;
        }
        if (abandoned.getAsBoolean()) {
            throw spend(ResultCodeEnum.CANCELED, "search abandoned");
        }
        if (timed && nanoClock.getAsLong() - deadlineNanos >= 0) {
            throw spend(ResultCodeEnum.TIME_LIMIT_EXCEEDED, timeLimitMessage.get());
        }
    }

    /**
     * One entry about to be loaded and checked against the filter.
     *
     * @throws ResultCodeException adminLimitExceeded past the look-through limit, or as {@link #step}
     */
    void examine() {
        step();
        if (++examined > lookThroughLimit) {
            throw spend(
                    ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                    "search examined more than " + lookThroughLimit
                            + " entries (limits.look-through-limit); use a more specific indexed filter or a"
                            + " narrower base");
        }
    }

    /**
     * One index read about to happen, before it runs: checks abandon, the deadline and whether the
     * IDs read so far already use up the planner's share.
     *
     * @param indexEntryLimit the most IDs one key may hold; the share is never below it
     */
    void beforeIndexRead(long indexEntryLimit) {
        step();
        if (indexIdsRead >= indexIdLimit(indexEntryLimit)) {
            throw indexSpent(indexEntryLimit);
        }
    }

    /**
     * Counts the IDs one index read returned (at least 1, for the read itself).
     *
     * @throws ResultCodeException adminLimitExceeded once the IDs read pass the planner's share
     */
    void indexRead(long ids, long indexEntryLimit) {
        indexIdsRead += Math.max(1, ids);
        if (indexIdsRead > indexIdLimit(indexEntryLimit)) {
            throw indexSpent(indexEntryLimit);
        }
    }

    /**
     * Whether one more index read of up to {@code indexEntryLimit} IDs still fits in the planner's
     * share: an AND that already has candidates leaves a term unread (the filter checks it) rather than
     * fail a search that would have succeeded.
     */
    boolean hasRoomForIndexRead(long indexEntryLimit) {
        return indexIdsRead + Math.max(1, indexEntryLimit) <= indexIdLimit(indexEntryLimit);
    }

    /** Entries examined so far. */
    public long examined() {
        return examined;
    }

    /** IDs read from indexes so far, each read counted as at least one. */
    public long indexIdsRead() {
        return indexIdsRead;
    }

    private long indexIdLimit(long indexEntryLimit) {
        return Math.max(lookThroughLimit, indexEntryLimit);
    }

    private ResultCodeException indexSpent(long indexEntryLimit) {
        return spend(
                ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                "search read more than " + indexIdLimit(indexEntryLimit)
                        + " IDs from indexes (limits.look-through-limit); use fewer or more specific terms");
    }

    private ResultCodeException spend(ResultCodeEnum code, String message) {
        spent = new ResultCodeException(code, message);
        return spent;
    }
}
