package dev.larch.bench.run;

import java.util.List;
import java.util.Locale;

import dev.larch.bench.report.BenchResult.RampStep;

/**
 * When a ramp stops and where its peak is: the pure decision, apart from running anything.
 *
 * @param p99BoundMs a step whose overall p99 exceeds this ends the ramp and cannot be the peak
 * @param minGainPercent a step must beat the best throughput so far by this much to keep ramping
 */
public record RampPolicy(double p99BoundMs, double minGainPercent) {

    /** Why to stop after the last of {@code steps}, or null to add clients. */
    public String stopReason(List<RampStep> steps) {
        RampStep last = steps.get(steps.size() - 1);
        if (last.p99Ms() > p99BoundMs) {
            return String.format(
                    Locale.ROOT,
                    "p99 %.2f ms passed the %.2f ms bound at %d clients",
                    last.p99Ms(),
                    p99BoundMs,
                    last.clients());
        }
        double bestBefore = steps.subList(0, steps.size() - 1).stream()
                .mapToDouble(RampStep::opsPerSecond)
                .max()
                .orElse(-1);
        if (bestBefore >= 0 && last.opsPerSecond() < bestBefore * (1 + minGainPercent / 100)) {
            return String.format(
                    Locale.ROOT,
                    "throughput stopped rising (%.1f ops/s at %d clients, best before %.1f)",
                    last.opsPerSecond(),
                    last.clients(),
                    bestBefore);
        }
        return null;
    }

    /** Index of the peak: the highest throughput among steps within the latency bound (step 0 if none is). */
    public int peak(List<RampStep> steps) {
        int best = -1;
        for (int i = 0; i < steps.size(); i++) {
            RampStep s = steps.get(i);
            if (s.p99Ms() <= p99BoundMs
                    && (best < 0 || s.opsPerSecond() > steps.get(best).opsPerSecond())) {
                best = i;
            }
        }
        return Math.max(best, 0);
    }
}
