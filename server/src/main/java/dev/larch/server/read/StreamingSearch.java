package dev.larch.server.read;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.FailureResults;
import dev.larch.server.protocol.Operation;
import dev.larch.server.referral.ContinuationReferences;
import dev.larch.server.search.AttributeSelection;
import dev.larch.server.search.EntryCursor;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.search.ResumePoint;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.work.WorkerPool;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.SearchScope;

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
 * <p>A search that {@linkplain Placement#ON_WORKERS may run longer} (it walks its scope, sorts, or has
 * thousands of candidates) examines entries on the {@link WorkerPool} instead, one slice at a time, and
 * hands each slice's built responses to the event loop, which sends them; so an event loop never walks
 * a large scope.
 * Exactly one thread owns the cursor and the read transaction at any time: the event loop, or the
 * worker running the current slice (the environment uses MDB_NOTLS, so the transaction may move).
 * A full pool answers a new search busy; a search already under way retries a little later. Those
 * and the searches with hundreds of candidates that stream on the event loop are bounded server-wide
 * ({@code limits.max-long-searches}): each holds a read transaction for as long as it runs, and without
 * the bound a flood of them would take every reader slot, or the event loops' time.
 *
 * <p>Everything but {@link #produce} runs on the operation's event loop.
 */
final class StreamingSearch {
    /** Most entries one event-loop batch sends before it yields the event loop to its other connections. */
    static final int BATCH = 256;

    /**
     * Longest one event-loop batch runs before it yields, so a slow one (large entries, a loaded
     * machine) delays the other connections of its event loop by about this much per turn at most.
     */
    private static final long BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /**
     * Most candidates of a search that streams on its event loop, in batches that take turns with
     * every other request there; one with more goes {@linkplain Placement#ON_WORKERS to the workers}.
     * The bound keeps what such a search may read to a few tens of milliseconds of work, and it is far
     * above the hundreds of entries of an address-book lookup. Those went to the worker pool at 256:
     * with 64 connections some 40 of them took turns on 2 workers, slice by slice, and spent nine
     * tenths of their time waiting for one (about 190 ms each, while the requests on the event loops
     * took a few; the addressing mix's p99 was 250 ms at 1M entries). Here they take turns with
     * everything else.
     */
    static final int EVENT_LOOP_CANDIDATES = 4096;

    /** Where a search examines its entries, and whether it counts against {@code limits.max-long-searches}. */
    enum Placement {
        /** At most {@link #BATCH} candidates, or base scope: on the event loop, like any short request. */
        SHORT,
        /** Up to {@link #EVENT_LOOP_CANDIDATES}: on the event loop in turns, holding a long-search slot. */
        ON_EVENT_LOOP,
        /** A walk of the scope, a sort, or more candidates: on the worker pool, holding a long-search slot. */
        ON_WORKERS;

        /**
         * @param candidates the planned candidates; null when no index narrowed the search (it walks its scope)
         * @param sorted a sort reads every match before its first entry, so it may run long whatever the plan
         */
        static Placement of(SearchScope scope, IdSet candidates, boolean sorted) {
            if (sorted) {
                return ON_WORKERS;
            }
            if (scope == SearchScope.OBJECT || (candidates != null && candidates.size() <= BATCH)) {
                return SHORT;
            }
            return candidates != null && candidates.size() <= EVENT_LOOP_CANDIDATES ? ON_EVENT_LOOP : ON_WORKERS;
        }
    }

    /**
     * Most responses one worker slice builds before handing them to the event loop, which writes them
     * together: each hand-over wakes the event loop and the next slice's worker, so a slice carries
     * what the outbound buffer takes before the channel turns unwritable (about 256 entries of a
     * kilobyte), not one write's worth.
     */
    private static final int WORKER_SLICE_ENTRIES = 256;

    /** Longest one worker slice runs before handing over, so abandon and back-pressure act soon. */
    private static final long WORKER_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** How soon a search under way asks the worker pool again when it was full. */
    private static final long WORKER_RETRY_MILLIS = 10;

    private final Operation op;
    private final SearchRequest request;
    private final ReadTxn txn;
    private final EntryCursor cursor;
    private final AttributeSelection selection;
    private final ResultEntries results;
    private final PausedSearches pauses;
    /** Null: everything runs on the event loop. */
    private final WorkerPool workers;
    /** Bounds the searches on {@link #workers}; null when {@code workers} is. */
    private final SearchSlots longSearches;
    /** Whether this search holds one of the {@link #longSearches} slots; it keeps it until it ends. */
    private boolean holdsLongSlot;
    /** Set once the search moved to the worker pool; it then never examines entries on the event loop. */
    private boolean onWorkers;

    /** This search's page of a paged search; null when it is not paged. */
    private final PagedSearch paging;
    /** Where the next page resumes after an entry; null when not paged. */
    private final Function<StoredEntry, ResumePoint> resumeAfter;
    /** The last entry sent, where a full page stops. */
    private StoredEntry lastSent;
    /** Where the next page starts, once this page stopped full with more to come. */
    private ResumePoint nextPage;

    /** Builds continuation references for the entries the cursor says stand for one; null when none can. */
    private ContinuationReferences references;

    /** Changes what is sent for each entry and at the end; null: entries as built, then the done. */
    private ResultShaper shaper;

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
            EntryCursor cursor,
            AttributeSelection selection,
            ResultEntries results,
            PausedSearches pauses,
            WorkerPool workers,
            SearchSlots longSearches,
            int sizeLimit,
            int timeLimitSeconds) {
        this(
                op,
                request,
                txn,
                cursor,
                selection,
                results,
                pauses,
                workers,
                longSearches,
                sizeLimit,
                timeLimitSeconds,
                null,
                null);
    }

    /**
     * @param paging the page this search is, or null; with it {@code sizeLimit} is what is left of
     *     the paged search's size limit
     * @param resumeAfter where the next page resumes after an entry, read in this search's
     *     transaction; null when {@code paging} is
     */
    StreamingSearch(
            Operation op,
            SearchRequest request,
            ReadTxn txn,
            EntryCursor cursor,
            AttributeSelection selection,
            ResultEntries results,
            PausedSearches pauses,
            WorkerPool workers,
            SearchSlots longSearches,
            int sizeLimit,
            int timeLimitSeconds,
            PagedSearch paging,
            Function<StoredEntry, ResumePoint> resumeAfter) {
        this.paging = paging;
        this.resumeAfter = resumeAfter;
        this.op = op;
        this.request = request;
        this.txn = txn;
        this.cursor = cursor;
        this.selection = selection;
        this.results = results;
        this.pauses = pauses;
        this.workers = workers;
        this.longSearches = longSearches;
        this.sizeLimit = sizeLimit;
        this.timeLimitSeconds = timeLimitSeconds;
        this.deadlineNanos =
                timeLimitSeconds <= 0 ? Long.MAX_VALUE : op.startNanos() + TimeUnit.SECONDS.toNanos(timeLimitSeconds);
    }

    /** Sends continuation references with {@code references} (RFC 3296 section 5.3); call before {@link #start}. */
    StreamingSearch withReferences(ContinuationReferences references) {
        this.references = references;
        return this;
    }

    /** Sends what {@code shaper} makes of each entry and of the end; call before {@link #start}. */
    StreamingSearch withShaper(ResultShaper shaper) {
        this.shaper = shaper;
        return this;
    }

    /** Starts streaming where {@code placement} says; without a worker pool, here on the event loop. */
    void start(Placement placement) {
        if (shaper != null) {
            for (Response first : shaper.atStart()) {
                op.send(first);
            }
        }
        if (placement == Placement.SHORT || workers == null) {
            run();
            return;
        }
        if (!longSearches.tryTake()) {
            finish(
                    ResultCodeEnum.BUSY,
                    "too many long searches are running (" + longSearches.limit()
                            + "); use an indexed filter or a narrower base, or try again later");
            return;
        }
        holdsLongSlot = true;
        if (placement == Placement.ON_EVENT_LOOP) {
            run();
            return;
        }
        onWorkers = true;
        if (!workers.trySubmit(this::produce)) {
            finish(
                    ResultCodeEnum.BUSY,
                    "the server is busy; try the search again later (limits.worker-threads, limits.worker-queue)");
        }
    }

    void run() {
        if (finished) {
            return;
        }
        cancelPauseTimer();
        if (onWorkers) {
            if (op.isAbandoned()) {
                release();
            } else if (System.nanoTime() - deadlineNanos > 0) {
                // Also while it waits for a free worker: a full pool never stretches the time limit.
                finish(ResultCodeEnum.TIME_LIMIT_EXCEEDED, timeLimitExceeded());
            } else {
                continueOnWorkers();
            }
            return;
        }
        try {
            long batchStart = System.nanoTime();
            for (int batch = 0; batch < BATCH && System.nanoTime() - batchStart < BATCH_NANOS; batch++) {
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
                boolean reference = cursor.isReference(entry);
                if (!reference && sizeLimit > 0 && sent >= sizeLimit) {
                    finish(ResultCodeEnum.SIZE_LIMIT_EXCEEDED, sizeLimitExceeded());
                    return;
                }
                if (pageFull()) {
                    nextPage = resumeAfter.apply(lastSent);
                    finish(ResultCodeEnum.SUCCESS, null);
                    return;
                }
                Response response = response(entry, reference);
                if (response != null && !op.send(response)) {
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
            fail(failure);
        }
    }

    private void continueOnWorkers() {
        if (!workers.trySubmit(this::produce)) {
            op.executor().schedule(this::run, WORKER_RETRY_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** The outcome of one worker slice, for the event loop to send. */
    private record Slice(List<Response> responses, ResultCodeEnum end, String message, Throwable failure) {}

    /**
     * On a worker: examines entries for one slice and builds their responses, then hands them to the
     * event loop. When the search ends here, its transaction is released here, before the hand-over.
     */
    private void produce() {
        List<Response> responses = new ArrayList<>();
        ResultCodeEnum end = null;
        String message = null;
        Throwable failure = null;
        try {
            long sliceStart = System.nanoTime();
            while (responses.size() < WORKER_SLICE_ENTRIES) {
                if (op.isAbandoned()) {
                    release();
                    return;
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    end = ResultCodeEnum.TIME_LIMIT_EXCEEDED;
                    message = timeLimitExceeded();
                    break;
                }
                StoredEntry entry = cursor.next();
                if (entry == null) {
                    end = ResultCodeEnum.SUCCESS;
                    break;
                }
                boolean reference = cursor.isReference(entry);
                if (!reference && sizeLimit > 0 && sent >= sizeLimit) {
                    end = ResultCodeEnum.SIZE_LIMIT_EXCEEDED;
                    message = sizeLimitExceeded();
                    break;
                }
                if (pageFull()) {
                    nextPage = resumeAfter.apply(lastSent);
                    end = ResultCodeEnum.SUCCESS;
                    break;
                }
                Response response = response(entry, reference);
                if (response != null) {
                    responses.add(response);
                }
                if (System.nanoTime() - sliceStart > WORKER_SLICE_NANOS) {
                    break;
                }
            }
        } catch (Throwable e) {
            failure = e;
        }
        if (end != null || failure != null) {
            release();
        }
        Slice slice = new Slice(responses, end, message, failure);
        try {
            op.executor().execute(() -> deliver(slice));
        } catch (RejectedExecutionException e) {
            release(); // the event loop is gone: so is the connection
        }
    }

    /** On the event loop: sends one worker slice's responses, then ends, pauses or goes on. */
    private void deliver(Slice slice) {
        // One flush for the slice: its entries leave together, in as few writes as the socket takes.
        boolean writable = op.sendAll(slice.responses());
        if (slice.failure() != null) {
            fail(slice.failure());
        } else if (slice.end() != null) {
            complete(slice.end(), slice.message());
        } else if (finished) {
            return;
        } else if (op.isAbandoned()) {
            release();
        } else if (!writable) {
            pause();
        } else {
            continueOnWorkers();
        }
    }

    /**
     * The response for one entry the cursor returned: a continuation reference, which counts neither
     * toward the size limit nor the page, or the entry itself (as the shaper makes it: null when it
     * sends nothing for it now).
     */
    private Response response(StoredEntry entry, boolean reference) {
        if (reference && references != null) {
            return references.build(request, entry);
        }
        sent++;
        lastSent = entry;
        if (shaper != null) {
            return shaper.forEntry(entry, () -> build(entry));
        }
        return build(entry);
    }

    private SearchResultEntry build(StoredEntry entry) {
        return results.build(request.getMessageId(), entry, selection, request.getTypesOnly(), cursor.screen(), txn);
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

    /**
     * Whether this page sent all it may while another entry matches: it then stops with a cookie
     * (checked only once a further entry was found, so the last page ends with an empty cookie).
     */
    private boolean pageFull() {
        return paging != null && sent >= paging.pageSize();
    }

    private String sizeLimitExceeded() {
        if (paging != null) {
            return paging.sizeLimitExceeded();
        }
        return "size limit of " + sizeLimit + " entries exceeded ("
                + source(request.getSizeLimit(), sizeLimit, "limits.size-limit") + ")";
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
        complete(code, message);
    }

    private void complete(ResultCodeEnum code, String message) {
        SearchResultDone done = (SearchResultDone) request.getResultResponse();
        if (shaper != null && code == ResultCodeEnum.SUCCESS) {
            // Past the back-pressure check on purpose: a few small messages, then the done.
            for (Response last : shaper.atEnd(done)) {
                op.send(last);
            }
        }
        done.getLdapResult().setResultCode(code);
        if (message != null) {
            done.getLdapResult().setDiagnosticMessage(message);
        }
        if (paging != null) {
            done.addControl(paging.responseControl(code == ResultCodeEnum.SUCCESS ? nextPage : null, sent));
        }
        cursor.describeEnd(done);
        op.complete(done);
    }

    /** Ends the search with the failure's result code, and what the cursor reports. */
    private void fail(Throwable failure) {
        SearchResultDone done = (SearchResultDone) FailureResults.fill(request.getResultResponse(), failure);
        cursor.describeEnd(done);
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
            if (holdsLongSlot) {
                holdsLongSlot = false;
                longSearches.giveBack();
            }
            cursor.close();
            txn.close();
        }
    }
}
