package dev.larch.server.commit;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.larch.config.LarchConfig;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs write operations on a dedicated thread, off the event loops: LMDB has a single writer, and a
 * durable commit waits for the disk.
 *
 * <p>Group commit: the writer takes the first waiting write and, with it, every write already
 * waiting behind it, up to {@code maxOperations}, and commits them in one transaction with one sync
 * ({@link GroupCommit}); it never waits for more to arrive, so a lone write is not delayed. Each write
 * still succeeds or fails alone, and its response is sent only after the transaction that holds it
 * committed (and synced), so an acknowledged write is durable. An update carrying the no-op control
 * ({@link NoOperation}) runs the same work, then its changes are discarded and a success becomes
 * noOperation: nothing was acknowledged, so nothing needs to be durable.
 *
 * <p>Thread-safe: any thread may submit. Memory: the queue itself is unbounded, bounded in practice
 * by the connections and each one's {@code listen.max-pending-operations}.
 */
public final class WriteQueue implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WriteQueue.class);
    private static final Duration DEFAULT_DRAIN = Duration.ofSeconds(30);

    private final GroupCommit commits;
    private final int maxOperations;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition waiting = lock.newCondition();
    /** Guarded by {@link #lock}. */
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    /** Guarded by {@link #lock}: no more work is accepted; the writer stops once the queue is empty. */
    private boolean closed;

    private final Thread writer;

    /** Shows clients their write failures; null: as they are. */
    private volatile FailureView failureView;

    /** A queue with the default bound of {@code storage.group-commit-max-operations}. */
    public WriteQueue(LmdbStore store) {
        this(store, LarchConfig.defaults().storage().groupCommitMaxOperations());
    }

    /**
     * @param maxOperations the most writes one transaction holds; 1 commits every write alone
     */
    public WriteQueue(LmdbStore store, int maxOperations) {
        this(new GroupCommit(store), maxOperations);
    }

    /** A queue whose batches {@code commits} runs (tests hand in one whose commits fail). */
    WriteQueue(GroupCommit commits, int maxOperations) {
        if (maxOperations < 1) {
            throw new IllegalArgumentException("maxOperations must be at least 1, was " + maxOperations);
        }
        this.commits = commits;
        this.maxOperations = maxOperations;
        this.writer = new Thread(this::drain, "larch-writer");
        writer.setDaemon(true);
        writer.start();
    }

    /** How a client is told of a failed write: access control hides what the client may not see. */
    @FunctionalInterface
    public interface FailureView {
        /** {@code failure} as {@code session} may learn of it, read in the write's transaction. */
        RuntimeException asSeenBy(Session session, ReadTxn txn, RuntimeException failure);
    }

    /**
     * Sets how clients' write failures are shown to them (the matched DN of noSuchObject names only an
     * ancestor the client may read). Set once, before writes arrive.
     */
    public void hidingFailures(FailureView view) {
        this.failureView = view;
    }

    /**
     * Sets who is told, on the writer thread, of each client write request after it committed (the
     * password policy cache forgets policies that changed). Set once, before writes arrive.
     */
    public void afterCommit(Consumer<Request> listener) {
        commits.afterCommit(listener);
    }

    /**
     * Applies {@code work} in a write transaction of its own (nested in the one its batch shares),
     * commits it (or, under the no-op control, discards it), then, once the shared transaction
     * committed, completes {@code op}. {@code work} returns the response to a success; a failure it
     * throws discards its changes and is answered with its result code. {@code work} may run more than
     * once when a shared commit fails (see {@link GroupCommit}): it must change nothing outside the
     * transaction except through {@link WriteTxn#onCommit}. Once the queue is closed, {@code op} is
     * answered unavailable at once.
     */
    public void submit(Operation op, Function<WriteTxn, ResultResponse> work) {
        FailureView view = failureView;
        Function<WriteTxn, ResultResponse> seen = view == null
                ? work
                : txn -> {
                    try {
                        return work.apply(txn);
                    } catch (RuntimeException e) {
                        throw view.asSeenBy(op.session(), txn, e);
                    }
                };
        if (!offer(new WriteTask.Client(op, seen))) {
            ResultResponse response = ((ResultResponseRequest) op.request()).getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.UNAVAILABLE);
            response.getLdapResult().setDiagnosticMessage("server is shutting down");
            op.complete(response);
        }
    }

    /**
     * Runs server-initiated work that no client waits for (password policy state after a bind) in a
     * write transaction of its own (nested in the one its batch shares), in queue order with client
     * writes. A failure discards its changes and is logged in one line naming {@code what}, without
     * a stack trace.
     */
    public void submitInternal(String what, Consumer<WriteTxn> work) {
        if (!offer(new WriteTask.Internal(what, work))) {
            LOG.warn("could not write {}: the server is shutting down", what);
        }
    }

    /**
     * Runs server-initiated work whose caller waits for it (a replication consumer's batch) in a
     * write transaction of its own (nested in the one its batch shares), in queue order with client
     * writes, as {@link #submit} does: {@code work} may run more than once and must change nothing
     * outside the transaction except through {@link WriteTxn#onCommit}.
     *
     * @return completes once the shared transaction committed; completes exceptionally with what
     *     {@code work} threw (nothing of it was kept), with the commit's failure, or at once with an
     *     {@link IllegalStateException} when the queue no longer accepts work
     */
    public CompletableFuture<Void> submitAwaited(Consumer<WriteTxn> work) {
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        if (!offer(new WriteTask.Awaited(work, outcome))) {
            outcome.completeExceptionally(new IllegalStateException("the server is shutting down"));
        }
        return outcome;
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
        return offer(new Queued.Between(action));
    }

    /**
     * Runs {@code work} on the writer thread between two write transactions, however long it takes:
     * every write waits meanwhile. For work that opens write transactions of its own, as the end of
     * a replica's bulk refresh filling the indexes, which runs while nothing else writes anyway.
     *
     * @return completes once {@code work} returned, or exceptionally with what it threw; at once with
     *     an {@link IllegalStateException} when the queue no longer accepts work
     */
    public CompletableFuture<Void> runAlone(Runnable work) {
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        boolean queued = runBetweenWrites(() -> {
            try {
                work.run();
                outcome.complete(null);
            } catch (Throwable failure) {
                outcome.completeExceptionally(failure);
            }
        });
        if (!queued) {
            outcome.completeExceptionally(new IllegalStateException("the server is shutting down"));
        }
        return outcome;
    }

    /** Tasks (client writes, internal writes, actions between writes) waiting for the writer right now, for monitoring. */
    public int queued() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Top-level write transactions committed with at least one write in them (each synced with
     * durable writes); fewer than {@link #operationsCommitted()} when writes were committed together.
     */
    public long transactionsCommitted() {
        return commits.transactionsCommitted();
    }

    /** Writes (client and server-initiated) whose changes were committed. */
    public long operationsCommitted() {
        return commits.operationsCommitted();
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
        lock.lock();
        try {
            closed = true;
            waiting.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            if (writer.join(bound)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.warn("writes still running after {} ms of shutdown", bound.toMillis());
        return false;
    }

    /** Queues {@code work}; false once the queue is closed. */
    private boolean offer(Queued work) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            queue.add(work);
            waiting.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The writer thread: batches of writes and the actions between them, in queue order, until closed and empty. */
    private void drain() {
        List<WriteTask> batch = new ArrayList<>();
        while (true) {
            Queued first;
            lock.lock();
            try {
                while (queue.isEmpty() && !closed) {
                    waiting.awaitUninterruptibly();
                }
                first = queue.poll();
                if (first == null) {
                    return;
                }
                if (first instanceof WriteTask write) {
                    batch.add(write);
                    // Only what is already waiting, and never past an action between writes.
                    while (batch.size() < maxOperations && queue.peek() instanceof WriteTask next) {
                        batch.add(next);
                        queue.poll();
                    }
                }
            } finally {
                lock.unlock();
            }
            if (first instanceof Queued.Between between) {
                runBetween(between);
            } else {
                commits.run(batch);
                batch.clear();
            }
        }
    }

    private static void runBetween(Queued.Between between) {
        try {
            between.action().run();
        } catch (RuntimeException e) {
            LOG.error("an action between writes failed", e);
        }
    }
}
