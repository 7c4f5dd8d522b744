package dev.larch.server.replica;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import dev.larch.server.csn.Csn;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * What the replicas of one server have applied, per replica ID: the changes committed, and the lag of
 * each live change (its commit here minus its CSN's time) as a Prometheus histogram ({@code
 * larch_replication_lag_seconds}) and as a window of the last {@value #WINDOW} lags, whose p50 and p99
 * {@code cn=Monitor} shows. Memory is bounded per replica ID; a batch costs O(its changes).
 *
 * <p>Thread-safe: recorded after each commit, read by monitor searches and scrapes.
 */
public final class ReplicationMetrics {
    /** How many recent lags {@code cn=Monitor}'s percentiles are taken over. */
    static final int WINDOW = 1024;

    /** Lag bucket bounds, in seconds: 1 ms to 1 h. */
    private static final double[] LAG_BOUNDS = {
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600
    };

    private final Histogram lag = Histogram.builder()
            .name("larch_replication_lag_seconds")
            .help("Time from a replicated change's CSN to its commit on this server, by replica ID")
            .unit(Unit.SECONDS)
            .labelNames("rid")
            .classicOnly()
            .classicUpperBounds(LAG_BOUNDS)
            .build();

    private final Map<Integer, Replica> byRid = new ConcurrentHashMap<>();

    /** The histogram, for the server's Prometheus registry. */
    public Histogram lagHistogram() {
        return lag;
    }

    /** The recorder of replica ID {@code rid}, made on first use. */
    public Replica of(int rid) {
        return byRid.computeIfAbsent(rid, r -> new Replica(lag.labelValues(Integer.toString(r))));
    }

    /** Changes replica ID {@code rid} committed since start; 0 when it committed none. */
    public long applied(int rid) {
        Replica r = byRid.get(rid);
        return r == null ? 0 : r.applied.sum();
    }

    /**
     * The lag at quantile {@code q} (0–1) of the last {@value #WINDOW} live changes of {@code rid}, in
     * microseconds; -1 when none was recorded.
     */
    public long recentLagMicros(int rid, double q) {
        Replica r = byRid.get(rid);
        return r == null ? -1 : r.window.quantile(q);
    }

    /** The counts of one replica ID. */
    public static final class Replica {
        private final LongAdder applied = new LongAdder();
        private final DistributionDataPoint lag;
        private final LagWindow window = new LagWindow(WINDOW);

        private Replica(DistributionDataPoint lag) {
            this.lag = lag;
        }

        /**
         * One committed batch: {@code applied} changes, and the CSNs of its live changes, committed at
         * {@code commitMicros} (microseconds since the epoch). A CSN ahead of the commit (a provider's
         * clock ahead of ours) counts as no lag.
         */
        void committed(int applied, Iterable<Csn> live, long commitMicros) {
            this.applied.add(applied);
            for (Csn csn : live) {
                long micros = Math.max(0, commitMicros - csn.epochMicros());
                lag.observe(micros / 1_000_000.0);
                window.add(micros);
            }
        }
    }
}
