package dev.larch.server.read;

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
    private final int sizeLimit;
    private final long deadlineNanos;
    private int sent;
    private boolean finished;

    StreamingSearch(
            Operation op,
            SearchRequest request,
            ReadTxn txn,
            SearchCursor cursor,
            AttributeSelection selection,
            ResultEntries results,
            int sizeLimit,
            int timeLimitSeconds) {
        this.op = op;
        this.request = request;
        this.txn = txn;
        this.cursor = cursor;
        this.selection = selection;
        this.results = results;
        this.sizeLimit = sizeLimit;
        this.deadlineNanos =
                timeLimitSeconds <= 0 ? Long.MAX_VALUE : op.startNanos() + TimeUnit.SECONDS.toNanos(timeLimitSeconds);
    }

    void run() {
        if (finished) {
            return;
        }
        try {
            for (int batch = 0; batch < BATCH; batch++) {
                if (op.isAbandoned()) {
                    release();
                    return;
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    finish(ResultCodeEnum.TIME_LIMIT_EXCEEDED, "time limit exceeded");
                    return;
                }
                StoredEntry entry = cursor.next();
                if (entry == null) {
                    finish(ResultCodeEnum.SUCCESS, null);
                    return;
                }
                if (sizeLimit > 0 && sent >= sizeLimit) {
                    finish(ResultCodeEnum.SIZE_LIMIT_EXCEEDED, "size limit of " + sizeLimit + " entries exceeded");
                    return;
                }
                sent++;
                boolean writable = op.send(results.build(
                        request.getMessageId(), entry, selection, request.getTypesOnly(), op.session(), txn));
                if (!writable) {
                    op.onWritable(this::run);
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
            cursor.close();
            txn.close();
        }
    }
}
