package dev.larch.bench.run;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import dev.larch.bench.gen.SplitMix64;
import dev.larch.bench.mix.ConnectionModel;

/**
 * One thread sending on many asynchronous connections, up to {@code outstanding} requests in flight
 * on each, back to back or on each connection's own schedule.
 *
 * <p>Answers arrive on the SDK's reader threads (one per connection, blocked in a read while idle),
 * which record them and wake this thread; this thread only connects, picks the connection whose
 * next request is due, and sends. So hundreds of connections need a few sending threads, not one
 * each.
 *
 * <p>A request that must run alone ({@link Request#pipelinable()} false, e.g. a bind) waits until
 * its connection has nothing in flight, runs, and pipelining resumes when it is answered. Under a
 * schedule a request that could not be sent on time (its connection was full or busy with such a
 * request) is sent as soon as possible and its latency counts from its intended start.
 *
 * <p>Failures never end the thread: a connection the SDK declares unusable is closed and reopened;
 * answers still due on it are counted as they arrive but no longer hold its in-flight slots.
 */
final class AsyncDriver implements Runnable {
    private static final long RECONNECT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** Longest single park, so a stop is noticed even when nothing is due. */
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final ServerTarget target;
    private final ConnectionModel model;
    private final List<Slot> slots;
    private final List<OpMetrics> metrics;
    private final OpMetrics connectMetrics;
    private final PacingMetrics pacing;
    private final StartGate start;
    private final CountDownLatch ready;
    private final BooleanSupplier stopped;
    private final int outstanding;
    private final long drainNanos;
    private volatile Thread thread;
    private int scanFrom;

    /**
     * @param slots the connections this thread drives, each with its own script and schedule
     * @param outstanding requests in flight per connection, at least 1
     * @param drainMillis how long to wait for answers still in flight when the run stops
     */
    AsyncDriver(
            ServerTarget target,
            ConnectionModel model,
            List<Slot> slots,
            List<OpMetrics> metrics,
            OpMetrics connectMetrics,
            PacingMetrics pacing,
            StartGate start,
            CountDownLatch ready,
            BooleanSupplier stopped,
            int outstanding,
            long drainMillis) {
        this.target = target;
        this.model = model;
        this.slots = slots;
        this.metrics = metrics;
        this.connectMetrics = connectMetrics;
        this.pacing = pacing;
        this.start = start;
        this.ready = ready;
        this.stopped = stopped;
        this.outstanding = outstanding;
        this.drainNanos = TimeUnit.MILLISECONDS.toNanos(drainMillis);
    }

    /** One connection's state. Fields without a comment are touched by the driver thread only. */
    static final class Slot {
        private final Supplier<Request> script;
        private final SplitMix64 sessionRng;
        private final double ratePerSecond;
        private final int index;
        private final int count;
        /** Requests in flight on the current connection; decremented by the SDK's reader thread. */
        private final AtomicInteger inFlight = new AtomicInteger();
        /** Set by the reader thread when the SDK says the connection must be replaced. */
        private volatile boolean broken;
        /** Bumped on every new connection, so answers from an old one do not free the new one's slots. */
        private final AtomicInteger generation = new AtomicInteger();

        private Schedule schedule;
        private LDAPConnection conn;
        private long retryAt;
        private int opsLeft;
        private boolean exclusive;
        private Request held;
        private long heldIntended;
        private boolean due;
        private long intended;

        /**
         * @param script this connection's requests
         * @param sessionSeed seed of the per-lookup connection lengths
         * @param ratePerSecond this connection's rate, or 0 for back to back
         * @param index this connection's number among {@code count} (staggers the schedules)
         */
        Slot(Supplier<Request> script, long sessionSeed, double ratePerSecond, int index, int count) {
            this.script = script;
            this.sessionRng = new SplitMix64(sessionSeed);
            this.ratePerSecond = ratePerSecond;
            this.index = index;
            this.count = count;
        }
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        // Connect before the start, so that a step with hundreds of connections measures them
        // working rather than being opened.
        try {
            for (Slot s : slots) {
                openConnection(s, System.nanoTime());
            }
        } finally {
            ready.countDown();
        }
        try {
            long t0 = start.await();
            for (Slot s : slots) {
                s.schedule = s.ratePerSecond > 0 ? new Schedule(t0, s.ratePerSecond, s.index, s.count) : null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeAll();
            return;
        }
        try {
            while (!stopped.getAsBoolean()) {
                long now = System.nanoTime();
                Slot next = null;
                int nextAt = 0;
                long nextDue = Long.MAX_VALUE;
                for (int i = 0; i < slots.size(); i++) {
                    int at = (scanFrom + i) % slots.size(); // rotating, so back to back no connection is favoured
                    long due = dueTime(slots.get(at), now);
                    if (due < nextDue) {
                        next = slots.get(at);
                        nextAt = at;
                        nextDue = due;
                    }
                }
                if (next == null || nextDue > now) {
                    // Woken early by an answer that frees a connection.
                    LockSupport.parkNanos(next == null ? MAX_PARK_NANOS : Math.min(nextDue - now, MAX_PARK_NANOS));
                    continue;
                }
                scanFrom = (nextAt + 1) % slots.size();
                send(next, now);
            }
            drain();
        } finally {
            closeAll();
        }
    }

    /**
     * When this connection's next request may go, or {@code Long.MAX_VALUE} while it cannot send
     * (full, busy with a request that runs alone, or waiting to reconnect). Also retires a broken
     * connection and one that ended its per-lookup run.
     */
    private long dueTime(Slot s, long now) {
        if (s.conn != null && (s.broken || (s.opsLeft == 0 && s.inFlight.get() == 0))) {
            closeConnection(s);
        }
        if (s.conn == null) {
            return now < s.retryAt ? Long.MAX_VALUE : nextStart(s, now);
        }
        int inFlight = s.inFlight.get();
        if (s.exclusive) {
            if (inFlight > 0) {
                return Long.MAX_VALUE;
            }
            s.exclusive = false;
        }
        if (s.held != null) {
            return inFlight == 0 ? s.heldIntended : Long.MAX_VALUE;
        }
        if (inFlight >= outstanding || s.opsLeft == 0) {
            return Long.MAX_VALUE;
        }
        return nextStart(s, now);
    }

    /** The intended start of the connection's next request (now, back to back). */
    private static long nextStart(Slot s, long now) {
        if (s.held != null) {
            return s.heldIntended;
        }
        return s.due ? s.intended : s.schedule == null ? now : s.schedule.peek();
    }

    private void send(Slot s, long now) {
        if (s.held == null && !s.due) {
            s.intended = s.schedule == null ? now : s.schedule.next();
            s.due = true;
        }
        if (s.conn == null && !openConnection(s, now)) {
            return; // the start stays due and goes out, late, once a connection opens
        }
        Request request;
        long intended;
        if (s.held != null) {
            request = s.held;
            intended = s.heldIntended;
            s.held = null;
        } else {
            request = s.script.get();
            intended = s.intended;
            s.due = false;
            if (!request.pipelinable() && s.inFlight.get() > 0) {
                s.held = request; // runs alone once the connection is idle
                s.heldIntended = intended;
                return;
            }
        }
        if (!request.pipelinable()) {
            s.exclusive = true;
        }
        int generation = s.generation.get();
        pacing.inFlight(s.inFlight.incrementAndGet());
        if (model.perLookup()) {
            s.opsLeft--;
        }
        long sent = System.nanoTime();
        pacing.started(s.schedule == null ? 0 : sent - intended);
        long from = s.schedule == null ? sent : intended;
        request.send(s.conn, answer -> answered(s, generation, request, answer, from, sent));
    }

    /** Runs on the SDK's reader thread (or the driver's, for a request that failed to go out). */
    private void answered(Slot s, int generation, Request request, Answer answer, long from, long sent) {
        long end = System.nanoTime();
        metrics.get(request.operation()).record(answer, end - from);
        pacing.served(answer, end - sent);
        if (generation == s.generation.get()) {
            if (!answer.connectionUsable()) {
                s.broken = true;
            }
            s.inFlight.decrementAndGet();
        }
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private boolean openConnection(Slot s, long now) {
        long t0 = System.nanoTime();
        try {
            s.conn = target.open(false);
            connectMetrics.success(System.nanoTime() - t0, 0, false);
            s.opsLeft = model.perLookup() ? s.sessionRng.between(model.minOps(), model.maxOps()) : -1;
            return true;
        } catch (LDAPException e) {
            connectMetrics.error(e.getResultCode().intValue());
            s.retryAt = now + RECONNECT_PAUSE_NANOS;
            return false;
        }
    }

    private void closeConnection(Slot s) {
        s.conn.close(); // sends an unbind first when the connection is still up
        s.conn = null;
        s.generation.incrementAndGet();
        s.inFlight.set(0);
        s.broken = false;
        s.exclusive = false;
    }

    /** Waits a bounded time for answers still in flight, so they are not cut off mid-read. */
    private void drain() {
        long deadline = System.nanoTime() + drainNanos;
        for (Slot s : slots) {
            while (s.conn != null && s.inFlight.get() > 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(MAX_PARK_NANOS);
            }
        }
    }

    private void closeAll() {
        for (Slot s : slots) {
            if (s.conn != null) {
                closeConnection(s);
            }
        }
    }
}
