package dev.larch.server.write;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.larch.server.error.FailureResults;
import dev.larch.server.protocol.Operation;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs write operations one at a time on a dedicated thread, off the event loops: LMDB has a
 * single writer, and a durable commit waits for the disk.
 *
 * <p>Each write gets its own transaction; the response is sent only after the commit (and its
 * sync) returned, so an acknowledged write is durable. An update carrying the no-op control
 * ({@link NoOperation}) runs the same work, then its transaction is aborted and a success becomes
 * noOperation: nothing was acknowledged, so nothing needs to be durable.
 */
public final class WriteQueue implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WriteQueue.class);
    private static final Duration DEFAULT_DRAIN = Duration.ofSeconds(30);

    private final LmdbStore store;
    /** One writer thread; a plain pool rather than a single-thread wrapper so its queue can be counted. */
    private final ThreadPoolExecutor writer =
            new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "larch-writer");
                t.setDaemon(true);
                return t;
            });

    /** Told of each client write after its commit; null for none. */
    private volatile Consumer<Request> afterCommit;

    public WriteQueue(LmdbStore store) {
        this.store = store;
    }

    /**
     * Sets who is told, on the writer thread, of each client write request after it committed (the
     * password policy cache forgets policies that changed). Set once, before writes arrive.
     */
    public void afterCommit(Consumer<Request> listener) {
        this.afterCommit = listener;
    }

    /**
     * Applies {@code work} in a write transaction, commits (or, under the no-op control, aborts), then
     * completes {@code op}. {@code work} returns the response to a success; a failure it throws aborts
     * the transaction and is answered with its result code.
     */
    public void submit(Operation op, Function<WriteTxn, ResultResponse> work) {
        writer.execute(() -> {
            if (op.isAbandoned()) {
                return;
            }
            ResultResponse response;
            try (WriteTxn txn = store.write()) {
                boolean noOperation = NoOperation.requested(op.request());
                response = work.apply(txn);
                if (noOperation) {
                    // Closing the transaction uncommitted aborts it: no change, no onCommit action.
                    response = NoOperation.answer(response);
                } else {
                    txn.commit();
                    Consumer<Request> listener = afterCommit;
                    if (listener != null) {
                        listener.accept(op.request());
                    }
                }
            } catch (Throwable failure) {
                response = FailureResults.fill(((ResultResponseRequest) op.request()).getResultResponse(), failure);
            }
            op.complete(response);
        });
    }

    /**
     * Runs server-initiated work that no client waits for (password policy state after a bind) in a
     * write transaction of its own, in queue order with client writes. A failure discards the
     * transaction and is logged in one line naming {@code what}, without a stack trace.
     */
    public void submitInternal(String what, Consumer<WriteTxn> work) {
        try {
            writer.execute(() -> {
                try (WriteTxn txn = store.write()) {
                    work.accept(txn);
                    txn.commit();
                } catch (RuntimeException failure) {
                    LOG.warn("could not write {}: {}", what, failure.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.warn("could not write {}: the server is shutting down", what);
        }
    }

    /**
     * Runs {@code action} on the writer thread between two write transactions: every write queued
     * before it has committed or failed, none queued after it has begun. A persistent search
     * registers this way, so that it misses no change committed after its initial search began.
     * {@code action} must be quick and must not throw.
     *
     * @return false when the queue no longer accepts work (the server is stopping); then {@code action}
     *     never runs
     */
    public boolean runBetweenWrites(Runnable action) {
        try {
            writer.execute(action);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Tasks (client writes, internal writes) waiting for the writer right now, for monitoring. */
    public int queued() {
        return writer.getQueue().size();
    }

    /** {@link #close(Duration)} with a thirty-second bound. */
    @Override
    public void close() {
        close(DEFAULT_DRAIN);
    }

    /**
     * Accepts no more writes, lets the queued ones finish and stops the writer thread. A write still
     * running when {@code bound} passes keeps its transaction; the store then refuses to close under
     * it (see {@code LmdbStore.close}), so nothing acknowledged is lost.
     *
     * @return whether every queued write finished
     */
    public boolean close(Duration bound) {
        writer.shutdown();
        try {
            if (writer.awaitTermination(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.warn("writes still running after {} ms of shutdown", bound.toMillis());
        return false;
    }
}
