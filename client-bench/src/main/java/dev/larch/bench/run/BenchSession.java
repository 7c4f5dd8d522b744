package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.IntervalHistograms;
import dev.larch.bench.report.Stats;

/**
 * Runs what one invocation asked for: repeated runs at a fixed load, or a ramp of client counts.
 */
public final class BenchSession {
    private final RunEngine engine;
    private final Consumer<String> out;

    public BenchSession(RunSettings settings, Consumer<String> out) {
        this.engine = new RunEngine(settings, out);
        this.out = out;
    }

    /** Sends every interval's histograms to {@code sink} (histograms.hlog) as runs complete them. */
    public BenchSession histogramsTo(IntervalHistograms sink) {
        engine.histogramsTo(sink);
        return this;
    }

    /**
     * The load plan.
     *
     * @param clients clients (the first ramp step when ramping)
     * @param threads threads per client
     * @param runs repetitions at a fixed load (ignored when ramping: one run per step)
     * @param ramp whether to ramp
     * @param rampStep clients added per ramp step
     * @param rampMaxClients the ramp ends here at the latest
     * @param policy when the ramp stops
     */
    public record Plan(
            int clients, int threads, int runs, boolean ramp, int rampStep, int rampMaxClients, RampPolicy policy) {}

    /** The runs, their summary and, when ramping, the ramp. */
    public record Outcome(List<BenchResult.Run> runs, BenchResult.Summary summary, BenchResult.Ramp ramp) {}

    public Outcome execute(Plan plan) {
        List<BenchResult.Run> runs = new ArrayList<>();
        if (!plan.ramp()) {
            for (int r = 1; r <= plan.runs(); r++) {
                runs.add(engine.run(r, plan.clients(), plan.threads()));
                out.accept(summaryLine(runs.get(runs.size() - 1)));
            }
            return new Outcome(runs, Stats.summarize(runs), null);
        }
        List<BenchResult.RampStep> steps = new ArrayList<>();
        String reason = null;
        for (int clients = plan.clients(); clients <= plan.rampMaxClients(); clients += plan.rampStep()) {
            BenchResult.Run run = engine.run(runs.size() + 1, clients, plan.threads());
            runs.add(run);
            out.accept(summaryLine(run));
            steps.add(new BenchResult.RampStep(
                    clients,
                    plan.threads(),
                    run.opsPerSecond(),
                    run.latencyMs().p99(),
                    run.cpu().harnessCpuPercentOfMachine()));
            reason = plan.policy().stopReason(steps);
            if (reason != null) {
                break;
            }
        }
        if (reason == null) {
            reason = "reached --ramp-max-clients " + plan.rampMaxClients();
        }
        int peak = plan.policy().peak(steps);
        BenchResult.RampStep p = steps.get(peak);
        BenchResult.Ramp ramp = new BenchResult.Ramp(
                steps,
                plan.policy().p99BoundMs(),
                reason,
                p.opsPerSecond(),
                p.clients(),
                p.threads(),
                p.opsPerSecond() * 0.5);
        out.accept(String.format(
                Locale.ROOT,
                "ramp: %s; peak %.1f ops/s at %d clients x %d threads; recommended capacity %.1f ops/s (50%% of peak)",
                reason,
                p.opsPerSecond(),
                p.clients(),
                p.threads(),
                ramp.recommendedCapacityOpsPerSecond()));
        BenchResult.Summary s = Stats.summarize(List.of(runs.get(peak)));
        BenchResult.Summary summary = new BenchResult.Summary(
                "ramp peak: run " + (peak + 1) + ", " + p.clients() + " clients x " + p.threads() + " threads",
                s.opsPerSecond(),
                s.latencyMs(),
                0,
                s.wrongAnswers(),
                s.errors(),
                s.operations());
        return new Outcome(runs, summary, ramp);
    }

    private static String summaryLine(BenchResult.Run r) {
        return String.format(
                Locale.ROOT,
                "run %d done: %d clients x %d threads, %.1f ops/s, p99 %.3f ms, errors %d, wrong %d, partial %d, harness cpu %.0f%% of machine",
                r.run(),
                r.clients(),
                r.threads(),
                r.opsPerSecond(),
                r.latencyMs().p99(),
                r.errors(),
                r.wrongAnswers(),
                r.partial(),
                r.cpu().harnessCpuPercentOfMachine());
    }
}
