package dev.larch.bench.report;

import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * Receives every interval's latency histograms as a run completes it, warm-up included. The run
 * engine calls it from its timing thread only, once per interval; implementations must not keep
 * or change the histograms passed in after returning.
 */
public interface IntervalHistograms {
    /** Discards everything: a run without a histogram log. */
    IntervalHistograms NONE = (run, phase, startNanos, endNanos, operations, all, connections) -> {};

    /**
     * One completed interval.
     *
     * @param run the run number (1-based)
     * @param phase "warm-up" or "measure"
     * @param startNanos {@link System#nanoTime()} at the interval's start
     * @param endNanos {@link System#nanoTime()} at its end
     * @param operations latency (ns) of each operation's successful requests, by name, in mix order
     * @param all every operation's successful requests together
     * @param connections connect + bind
     */
    void interval(
            int run,
            String phase,
            long startNanos,
            long endNanos,
            Map<String, Histogram> operations,
            Histogram all,
            Histogram connections);
}
