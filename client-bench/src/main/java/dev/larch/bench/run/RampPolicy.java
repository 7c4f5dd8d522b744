package dev.larch.bench.run;

import java.util.List;
import java.util.Locale;

import dev.larch.bench.report.BenchResult.RampStep;

/**
 * When a ramp stops and where its peak is: the pure decision, apart from running anything.
 *
 * <p>After each step the bounds are checked in this order: p99, errors, wrong answers, the load
 * generator's CPU, then the gain in throughput. A step past the p99, error or wrong-answer bound
 * cannot be the peak. A generator-bound step can: its throughput was really served, but it is the
 * generator's limit, so the server's peak may be higher.
 *
 * @param p99BoundMs a step whose overall p99 exceeds this ends the ramp
 * @param minGainPercent a step must beat the best throughput of the steps with fewer threads in all
 *     (clients × threads) by this much to keep ramping
 * @param maxErrorPercent a step whose errors exceed this percent of its requests ends the ramp
 * @param maxWrongAnswers a step with more wrong answers than this ends the ramp (0: any)
 * @param maxHarnessCpuPercent a step whose load generator used more than this percent of the
 *     machine's CPU ends the ramp as generator-bound
 */
public record RampPolicy(
        double p99BoundMs,
        double minGainPercent,
        double maxErrorPercent,
        long maxWrongAnswers,
        double maxHarnessCpuPercent) {

    public static final String P99 = "p99";
    public static final String ERRORS = "errors";
    public static final String WRONG_ANSWERS = "wrong-answers";
    public static final String GENERATOR_BOUND = "generator-bound";
    public static final String NO_GAIN = "no-gain";
    public static final String LAST_STEP = "last-step";

    /** Why a ramp stopped: {@code kind} is one of the constants above, {@code reason} is for people. */
    public record Stop(String kind, String reason) {}

    /** Why to stop after the last of {@code steps}, or null to go on. */
    public Stop stop(List<RampStep> steps) {
        RampStep last = steps.get(steps.size() - 1);
        String at = " at " + last.clients() + " clients x " + last.threads() + " threads";
        if (last.p99Ms() > p99BoundMs) {
            return new Stop(
                    P99,
                    String.format(Locale.ROOT, "p99 %.2f ms passed the %.2f ms bound", last.p99Ms(), p99BoundMs) + at);
        }
        if (last.errorPercent() > maxErrorPercent) {
            return new Stop(
                    ERRORS,
                    String.format(
                                    Locale.ROOT,
                                    "errors %.3f%% of requests passed the %.3f%% bound",
                                    last.errorPercent(),
                                    maxErrorPercent)
                            + at);
        }
        if (last.wrongAnswers() > maxWrongAnswers) {
            return new Stop(
                    WRONG_ANSWERS, last.wrongAnswers() + " wrong answers passed the bound of " + maxWrongAnswers + at);
        }
        if (last.harnessCpuPercentOfMachine() > maxHarnessCpuPercent) {
            return new Stop(
                    GENERATOR_BOUND,
                    String.format(
                                    Locale.ROOT,
                                    "generator-bound: the harness used %.0f%% of the machine's CPU (bound %.0f%%)",
                                    last.harnessCpuPercentOfMachine(),
                                    maxHarnessCpuPercent)
                            + at + "; the figures are the load generator's limit, not the server's");
        }
        int load = last.clients() * last.threads();
        double bestBefore = steps.subList(0, steps.size() - 1).stream()
                .filter(s -> s.clients() * s.threads() < load)
                .mapToDouble(RampStep::opsPerSecond)
                .max()
                .orElse(-1);
        if (bestBefore >= 0 && last.opsPerSecond() < bestBefore * (1 + minGainPercent / 100)) {
            return new Stop(
                    NO_GAIN,
                    String.format(
                                    Locale.ROOT,
                                    "throughput stopped rising (%.1f ops/s, best with fewer threads %.1f)",
                                    last.opsPerSecond(),
                                    bestBefore)
                            + at);
        }
        return null;
    }

    /** Whether a step may be the peak: within the p99, error and wrong-answer bounds. */
    public boolean withinBounds(RampStep s) {
        return s.p99Ms() <= p99BoundMs && s.errorPercent() <= maxErrorPercent && s.wrongAnswers() <= maxWrongAnswers;
    }

    /** Index of the peak: the highest throughput among steps within the bounds, or -1 if none is. */
    public int peak(List<RampStep> steps) {
        int best = -1;
        for (int i = 0; i < steps.size(); i++) {
            RampStep s = steps.get(i);
            if (withinBounds(s)
                    && (best < 0 || s.opsPerSecond() > steps.get(best).opsPerSecond())) {
                best = i;
            }
        }
        return best;
    }
}
