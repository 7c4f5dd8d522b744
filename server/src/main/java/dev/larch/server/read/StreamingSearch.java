package dev.larch.server.read;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.FailureResults;
import dev.larch.server.protocol.Operation;
import dev.larch.server.search.SearchCursor;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDone;

/**
 * Sends one search's entries as the connection can take them. It stops when the channel is not
 * writable and resumes from {@link Operation#onWritable}, and after a batch it yields the event
 * loop so one large search cannot starve the connection's neighbours. The read transaction stays
 * open across pauses and closes when the search ends, fails or is abandoned.
 *
 * <p>A pause is bounded ({@link PausedSearches}): the search needs a paused-search slot to wait at
 * all (else it ends busy), and a timer on the event loop ends it at the end of the allowed pause or
 * at its time limit, whichever comes first, releasing the read transaction at once rather than when
 * the client finally reads. Every limit result names where the limit came from: the client's request
 * or the server's configuration key.
 *
 * <p>Runs only on the operation's event loop.
 */
final class StreamingSearch {
    private static final int BATCH = 256;

    private final Operation op;
    private final SearchRequest request;
    private final ReadTxn txn;
    private final SearchCursor cursor;
    private final AttributeSelection selection;
    private final ResultEntries results;
    private final PausedSearches pauses;
    private final int sizeLimit;
    private final int timeLimitSeconds;
    private final long deadlineNanos;
    private int sent;
    private boolean finished;
    /** Whether this search holds one of the {@link PausedSearches} slots; it keeps it until it ends. */
    private boolean holdsPauseSlot;
    /** Ends the search if the current pause lasts too long; null while not paused. */
    private ScheduledFuture<?> pauseTimer;

    StreamingSearch(
            Operation op,
            SearchRequest request,
            ReadTxn txn,
            SearchCursor cursor,
            AttributeSelection selection,
            ResultEntries results,
            PausedSearches pauses,
            int sizeLimit,
            int timeLimitSeconds) {
        this.op = op;
        this.request = request;
        this.txn = txn;
        this.cursor = cursor;
        this.selection = selection;
        this.results = results;
        this.pauses = pauses;
        this.sizeLimit = sizeLimit;
        this.timeLimitSeconds = timeLimitSeconds;
        this.deadlineNanos =
                timeLimitSeconds <= 0 ? Long.MAX_VALUE : op.startNanos() + TimeUnit.SECONDS.toNanos(timeLimitSeconds);
    }

    void run() {
        if (finished) {
            return;
        }
        cancelPauseTimer();
        try {
            for (int batch = 0; batch < BATCH; batch++) {
                if (op.isAbandoned()) {
                    release();
                    return;
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    finish(ResultCodeEnum.TIME_LIMIT_EXCEEDED, timeLimitExceeded());
                    return;
                }
                StoredEntry entry = cursor.next();
                if (entry == null) {
                    finish(ResultCodeEnum.SUCCESS, null);
                    return;
                }
                if (sizeLimit > 0 && sent >= sizeLimit) {
                    finish(
                            ResultCodeEnum.SIZE_LIMIT_EXCEEDED,
                            "size limit of " + sizeLimit + " entries exceeded ("
                                    + source(request.getSizeLimit(), sizeLimit, "limits.size-limit") + ")");
                    return;
                }
                sent++;
                boolean writable = op.send(results.build(
                        request.getMessageId(), entry, selection, request.getTypesOnly(), op.session(), txn));
                if (!writable) {
                    pause();
                    return;
                }
            }
            // Not execute(): Netty 4.2 runs newly queued tasks in the same pass for up to a second
            // (io.netty.eventLoop.maxTaskProcessingQuantumMs) before it polls I/O again, so the
            // search would starve its neighbours and not even see its own Abandon. A scheduled task
            // is only picked up after the next I/O poll.
            op.executor().schedule(this::run, 0, TimeUnit.NANOSECONDS);
        } catch (Throwable failure) {
            release();
            op.complete(FailureResults.fill(request.getResultResponse(), failure));
        }
    }

    /** Waits for the client to read, within the {@link PausedSearches} bounds. */
    private void pause() {
        if (!holdsPauseSlot) {
            if (!pauses.tryTake()) {
                finish(ResultCodeEnum.BUSY, pauses.refusal());
                return;
            }
            holdsPauseSlot = true;
        }
        long now = System.nanoTime();
        long untilPauseEnds = pauses.maxPauseNanos();
        boolean timeLimitFirst = timeLimitSeconds > 0 && deadlineNanos - now < untilPauseEnds;
        long delay = timeLimitFirst ? Math.max(0, deadlineNanos - now) : untilPauseEnds;
        pauseTimer = op.executor().schedule(() -> endPause(timeLimitFirst), delay, TimeUnit.NANOSECONDS);
        op.onWritable(this::run);
    }

    /** The pause timer fired: the client did not read in time. */
    private void endPause(boolean timeLimit) {
        pauseTimer = null;
        if (finished) {
            return;
        }
        if (op.isAbandoned()) {
            release();
            return;
        }
        finish(ResultCodeEnum.TIME_LIMIT_EXCEEDED, timeLimit ? timeLimitExceeded() : pauses.pausedTooLong());
    }

    private void cancelPauseTimer() {
        if (pauseTimer != null) {
            pauseTimer.cancel(false);
            pauseTimer = null;
        }
    }

    private String timeLimitExceeded() {
        return "time limit of " + timeLimitSeconds + " seconds exceeded ("
                + source(request.getTimeLimit(), timeLimitSeconds, "limits.time-limit-seconds") + ")";
    }

    /** Where an applied limit came from: the client's request when it asked for exactly that, else the key. */
    private static String source(long requested, int applied, String key) {
        return requested > 0 && requested == applied ? "requested by the client" : key;
    }

    private void finish(ResultCodeEnum code, String message) {
        release();
        SearchResultDone done = (SearchResultDone) request.getResultResponse();
        done.getLdapResult().setResultCode(code);
        if (message != null) {
            done.getLdapResult().setDiagnosticMessage(message);
        }
        op.complete(done);
    }

    private void release() {
        if (!finished) {
            finished = true;
            cancelPauseTimer();
            if (holdsPauseSlot) {
                holdsPauseSlot = false;
                pauses.giveBack();
            }
            cursor.close();
            txn.close();
        }
    }
}
