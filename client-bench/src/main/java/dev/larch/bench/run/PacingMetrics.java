package dev.larch.bench.run;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.Stats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What a paced or asynchronous run measures beside latency: the service time of each successful
 * request (from the moment it was really sent), how late requests started against their schedule,
 * and the most requests seen in flight on one connection. Written by every sender, drained once per
 * interval by the run's clock thread. Thread-safe.
 */
final class PacingMetrics {
    /**
     * A start later than this counts as late. Below it is timer and scheduler noise (a parked thread
     * wakes some tens of microseconds late), which says nothing about the server or the generator.
     */
    static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Recorder service = new Recorder(OpMetrics.SIGNIFICANT_DIGITS);
    private final LongAdder starts = new LongAdder();
    private final LongAdder lateStarts = new LongAdder();
    private final LongAccumulator maxMissed = new LongAccumulator(Math::max, 0);
    private final LongAccumulator maxInFlight = new LongAccumulator(Math::max, 0);

    /** A request sent {@code missedNanos} after its intended start (0 or less: on time). */
    void started(long missedNanos) {
        starts.increment();
        if (missedNanos > LATE_NANOS) {
            lateStarts.increment();
        }
        maxMissed.accumulate(missedNanos);
    }

    /**
     * The service time of an answered request, from its real send to its answer; recorded for
     * successes only, like latency.
     */
    void served(Answer answer, long nanos) {
        if (answer.verdict() == Answer.Verdict.SUCCESS || answer.verdict() == Answer.Verdict.PARTIAL) {
            service.recordValue(Math.max(1, nanos));
        }
    }

    /** Requests in flight on one connection just after a send. */
    void inFlight(int n) {
        maxInFlight.accumulate(n);
    }

    /** Takes what was recorded since the last call. Called by one thread only. */
    Snapshot drain() {
        return new Snapshot(
                service.getIntervalHistogram(),
                starts.sumThenReset(),
                lateStarts.sumThenReset(),
                maxMissed.getThenReset(),
                maxInFlight.getThenReset());
    }

    /** One interval's figures. */
    record Snapshot(Histogram service, long starts, long lateStarts, long maxMissedNanos, long maxInFlight) {}

    /** Sums the measured intervals of one run. Not thread-safe. */
    static final class Totals {
        private final Histogram service = new Histogram(OpMetrics.SIGNIFICANT_DIGITS);
        private long starts;
        private long lateStarts;
        private long maxMissedNanos;
        private long maxInFlight;

        void add(Snapshot s) {
            service.add(s.service());
            starts += s.starts();
            lateStarts += s.lateStarts();
            maxMissedNanos = Math.max(maxMissedNanos, s.maxMissedNanos());
            maxInFlight = Math.max(maxInFlight, s.maxInFlight());
        }

        /** The run's pacing record; {@code offered} is the scheduled rate (0 in closed loop). */
        BenchResult.Pacing toPacing(LoadModel load, double measuredSeconds) {
            return new BenchResult.Pacing(
                    load.label(),
                    load.rateOpsPerSecond(),
                    measuredSeconds > 0 ? starts / measuredSeconds : 0,
                    Stats.latency(service),
                    starts,
                    lateStarts,
                    maxMissedNanos / 1e6,
                    (int) maxInFlight);
        }
    }
}
