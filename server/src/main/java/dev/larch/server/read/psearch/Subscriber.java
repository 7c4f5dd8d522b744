package dev.larch.server.read.psearch;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.larch.server.protocol.Operation;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;

/**
 * One persistent search waiting for changes: its bounded queue of notifications and their way to the
 * client.
 *
 * <p>The writer thread {@linkplain #offer offers} notifications after their commit and never waits:
 * past {@code queueBound} waiting notifications the client is too slow, and its connection is closed
 * at once (the server neither buffers without bound nor slows its writer for it). The event loop sends
 * them while the channel is writable and otherwise waits for {@link Operation#onWritable}, as a
 * paused search does. Nothing is sent before the initial phase (the entries already there) ended.
 *
 * <p>Thread-safety: {@link #offer} on the writer, {@link #end} and {@link #leave} from any thread,
 * everything else on the operation's event loop.
 */
final class Subscriber {
    private final Operation op;
    private final SearchRequest request;
    private final ChangeView view;
    private final int queueBound;
    private final Runnable onLeave;

    private final ConcurrentLinkedQueue<SearchResultEntry> pending = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pendingCount = new AtomicInteger();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    /** Ends the search at the client's time limit; null without one. */
    private volatile ScheduledFuture<?> timeLimit;

    /** Set once the initial phase is over: notifications may go out. Event loop only. */
    private boolean live;
    /** Set while waiting for the channel to become writable. Event loop only. */
    private boolean waitingForWritable;

    /**
     * @param onLeave run exactly once when this search stops waiting for changes, however it ends
     */
    Subscriber(Operation op, SearchRequest request, ChangeView view, int queueBound, Runnable onLeave) {
        this.op = op;
        this.request = request;
        this.view = view;
        this.queueBound = queueBound;
        this.onLeave = onLeave;
    }

    ChangeView view() {
        return view;
    }

    Operation operation() {
        return op;
    }

    /** Whether this search ended or its client abandoned it (or the connection closed). */
    boolean isGone() {
        return ended.get() || op.isAbandoned();
    }

    boolean hasEnded() {
        return ended.get();
    }

    /**
     * On the writer thread, after the change committed: queues one notification, or closes the
     * connection when the client let {@code queueBound} of them pile up. Never blocks.
     */
    void offer(SearchResultEntry notification) {
        if (ended.get()) {
            return;
        }
        if (pendingCount.incrementAndGet() > queueBound) {
            if (leave()) {
                op.closeConnection(
                        "persistent search (message " + request.getMessageId() + "): the client did not read "
                                + queueBound + " waiting change notifications (limits.persistent-search-queue)");
            }
            return;
        }
        pending.add(notification);
        scheduleDrain();
    }

    /** On the event loop: the initial phase is over (or there was none); notifications may go out. */
    void goLive() {
        live = true;
        drain();
    }

    /** Ends the search at the client's time limit, counted from the request's arrival. */
    void limitTime(long seconds) {
        long delay = op.startNanos() + TimeUnit.SECONDS.toNanos(seconds) - System.nanoTime();
        timeLimit = op.executor()
                .schedule(
                        () -> end(
                                ResultCodeEnum.TIME_LIMIT_EXCEEDED,
                                "time limit of " + seconds + " seconds exceeded (requested by the client)"),
                        Math.max(0, delay),
                        TimeUnit.NANOSECONDS);
    }

    /** Ends the search with a final result, unless it already ended. From any thread. */
    void end(ResultCodeEnum code, String message) {
        if (leave()) {
            SearchResultDone done = (SearchResultDone) request.getResultResponse();
            done.getLdapResult().setResultCode(code);
            done.getLdapResult().setDiagnosticMessage(message);
            op.complete(done);
        }
    }

    /** Ends the search with {@code response} (the initial phase's failure), unless it already ended. */
    void end(ResultResponse response) {
        if (leave()) {
            op.complete(response);
        }
    }

    /**
     * Stops waiting for changes without a response (abandoned, canceled, connection gone), or as the
     * first step of ending. Returns whether this call did it; the first call only.
     */
    boolean leave() {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        ScheduledFuture<?> timer = timeLimit;
        if (timer != null) {
            timer.cancel(false);
        }
        pending.clear();
        onLeave.run();
        return true;
    }

    private void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                op.executor().execute(this::drain);
            } catch (RejectedExecutionException e) {
                leave(); // the event loop is gone: so is the connection
            }
        }
    }

    /** On the event loop: sends what waits while the channel takes it. */
    private void drain() {
        drainScheduled.set(false);
        if (ended.get()) {
            pending.clear();
            return;
        }
        if (op.isAbandoned()) {
            leave();
            return;
        }
        if (!live || waitingForWritable) {
            return;
        }
        SearchResultEntry next;
        while ((next = pending.poll()) != null) {
            pendingCount.decrementAndGet();
            if (!op.send(next)) {
                waitingForWritable = true;
                op.onWritable(this::resume);
                return;
            }
        }
    }

    private void resume() {
        waitingForWritable = false;
        drain();
    }
}
