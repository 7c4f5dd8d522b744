package dev.larch.bench.run;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import dev.larch.bench.gen.SplitMix64;
import dev.larch.bench.mix.ConnectionModel;

/**
 * One thread of one client on a synchronous connection: runs its own script until told to stop,
 * back to back (closed loop) or on a schedule of intended start times (fixed rate).
 *
 * <p>Under a schedule a request waits for its intended start; one that cannot start on time (the
 * previous answer came late) starts as soon as it can, and its latency is measured from the
 * intended start, so a stall shows in the latency of every request that should have been sent
 * during it. Service time, from the real send, is recorded apart.
 *
 * <p>Failures never end the thread: each is counted under its result code, and a connection the
 * SDK declares unusable is replaced. Connection setup (connect + bind) is measured as its own
 * pseudo-operation, so the per-lookup model shows what it costs.
 */
final class Worker implements Runnable {
    /** Pause after a failed connect, so a dead server is not hammered by a spinning loop. */
    private static final long RECONNECT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** Longest single wait for a scheduled start, so a stop is noticed at low rates too. */
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final ServerTarget target;
    private final ConnectionModel model;
    private final RequestFactory script;
    private final List<OpMetrics> metrics;
    private final OpMetrics connectMetrics;
    private final PacingMetrics pacing;
    private final StartGate start;
    private final CountDownLatch ready;
    private final BooleanSupplier stopped;
    private final SplitMix64 sessionRng;
    private final double ratePerSecond;
    private final int index;
    private final int count;

    /**
     * @param ratePerSecond this thread's rate, or 0 for closed loop
     * @param index this thread's number among {@code count} paced threads (staggers the schedules)
     */
    Worker(
            ServerTarget target,
            ConnectionModel model,
            RequestFactory script,
            List<OpMetrics> metrics,
            OpMetrics connectMetrics,
            PacingMetrics pacing,
            StartGate start,
            CountDownLatch ready,
            BooleanSupplier stopped,
            long seed,
            double ratePerSecond,
            int index,
            int count) {
        this.target = target;
        this.model = model;
        this.script = script;
        this.metrics = metrics;
        this.connectMetrics = connectMetrics;
        this.pacing = pacing;
        this.start = start;
        this.ready = ready;
        this.stopped = stopped;
        this.sessionRng = new SplitMix64(seed);
        this.ratePerSecond = ratePerSecond;
        this.index = index;
        this.count = count;
    }

    @Override
    public void run() {
        ready.countDown();
        Schedule schedule;
        try {
            long t0 = start.await();
            schedule = ratePerSecond > 0 ? new Schedule(t0, ratePerSecond, index, count) : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        LDAPConnection conn = null;
        int opsLeft = 0;
        long intended = 0;
        boolean due = false; // a scheduled start taken but not yet sent (e.g. the connect failed)
        try {
            while (!stopped.getAsBoolean()) {
                if (schedule != null && !due) {
                    intended = schedule.next();
                    due = true;
                }
                if (schedule != null && !waitUntil(intended)) {
                    break;
                }
                if (conn == null) {
                    conn = connect();
                    if (conn == null) {
                        LockSupport.parkNanos(RECONNECT_PAUSE_NANOS);
                        continue;
                    }
                    opsLeft =
                            model.perLookup() ? sessionRng.between(model.minOps(), model.maxOps()) : Integer.MAX_VALUE;
                }
                due = false;
                boolean usable = execute(conn, script.next(), schedule == null ? -1 : intended);
                if (!usable || (model.perLookup() && --opsLeft == 0)) {
                    conn.close(); // sends an unbind first when the connection is still up
                    conn = null;
                }
            }
        } finally {
            if (conn != null) {
                conn.close();
            }
        }
    }

    /** Parks until {@code deadline}; false if the run stopped meanwhile. */
    private boolean waitUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            if (stopped.getAsBoolean()) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, MAX_PARK_NANOS));
        }
        return true;
    }

    private LDAPConnection connect() {
        long t0 = System.nanoTime();
        try {
            LDAPConnection conn = target.open();
            connectMetrics.success(System.nanoTime() - t0, 0, false);
            return conn;
        } catch (LDAPException e) {
            connectMetrics.error(e.getResultCode().intValue());
            return null;
        }
    }

    /**
     * Runs one request and records its outcome; returns whether the connection is still usable.
     *
     * @param intended the scheduled start, or -1 in closed loop (latency is then the service time)
     */
    private boolean execute(LDAPConnection conn, Request request, long intended) {
        OpMetrics m = metrics.get(request.operation());
        long sent = System.nanoTime();
        pacing.started(intended < 0 ? 0 : sent - intended);
        Answer answer = request.execute(conn);
        long end = System.nanoTime();
        m.record(answer, end - (intended < 0 ? sent : intended));
        pacing.served(answer, end - sent);
        return answer.connectionUsable();
    }
}
