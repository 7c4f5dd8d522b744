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
 * One thread of one client: runs its own script back to back, with no think time, on its own
 * connection(s), until told to stop.
 *
 * <p>Failures never end the thread: each is counted under its result code, and a connection the
 * SDK declares unusable is replaced. Connection setup (connect + bind) is measured as its own
 * pseudo-operation, so the per-lookup model shows what it costs.
 */
final class Worker implements Runnable {
    /** Pause after a failed connect, so a dead server is not hammered by a spinning loop. */
    private static final long RECONNECT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final ServerTarget target;
    private final ConnectionModel model;
    private final RequestFactory script;
    private final List<OpMetrics> metrics;
    private final OpMetrics connectMetrics;
    private final CountDownLatch start;
    private final BooleanSupplier stopped;
    private final SplitMix64 sessionRng;

    Worker(
            ServerTarget target,
            ConnectionModel model,
            RequestFactory script,
            List<OpMetrics> metrics,
            OpMetrics connectMetrics,
            CountDownLatch start,
            BooleanSupplier stopped,
            long seed) {
        this.target = target;
        this.model = model;
        this.script = script;
        this.metrics = metrics;
        this.connectMetrics = connectMetrics;
        this.start = start;
        this.stopped = stopped;
        this.sessionRng = new SplitMix64(seed);
    }

    @Override
    public void run() {
        try {
            start.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        LDAPConnection conn = null;
        int opsLeft = 0;
        try {
            while (!stopped.getAsBoolean()) {
                if (conn == null) {
                    conn = connect();
                    if (conn == null) {
                        LockSupport.parkNanos(RECONNECT_PAUSE_NANOS);
                        continue;
                    }
                    opsLeft =
                            model.perLookup() ? sessionRng.between(model.minOps(), model.maxOps()) : Integer.MAX_VALUE;
                }
                boolean usable = execute(conn, script.next());
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

    /** Runs one request and records its outcome; returns whether the connection is still usable. */
    private boolean execute(LDAPConnection conn, Request request) {
        OpMetrics m = metrics.get(request.operation());
        long t0 = System.nanoTime();
        Answer answer = request.execute(conn);
        m.record(answer, System.nanoTime() - t0);
        return answer.connectionUsable();
    }
}
