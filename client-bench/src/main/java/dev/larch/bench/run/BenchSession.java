package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.IntervalHistograms;
import dev.larch.bench.report.Stats;

/**
 * Runs what one invocation asked for: repeated runs at a fixed load, or a ramp of loads (each step
 * repeated), optionally followed by runs at the ramp's peak.
 */
public final class BenchSession {
    /** Runs one warm-up plus measurement: {@link RunEngine} in production, a fake in tests. */
    @FunctionalInterface
    public interface Runner {
        BenchResult.Run run(int number, int clients, int threads);
    }

    private final Runner runner;
    private final Consumer<String> out;
    private final int cores;
    private final RunEngine engine; // null when a test gives its own Runner

    public BenchSession(RunSettings settings, Consumer<String> out) {
        this(new RunEngine(settings, out), out);
    }

    private BenchSession(RunEngine engine, Consumer<String> out) {
        this(engine::run, out, HarnessCpu.cores(), engine);
    }

    /**
     * @param cores the machine's cores, for the capacity advice
     */
    public BenchSession(Runner runner, Consumer<String> out, int cores) {
        this(runner, out, cores, null);
    }

    private BenchSession(Runner runner, Consumer<String> out, int cores, RunEngine engine) {
        this.runner = runner;
        this.out = out;
        this.cores = cores;
        this.engine = engine;
    }

    /** Sends every interval's histograms to {@code sink} (histograms.hlog) as runs complete them. */
    public BenchSession histogramsTo(IntervalHistograms sink) {
        if (engine == null) {
            throw new IllegalStateException("histograms come from a RunEngine; this session was given a Runner");
        }
        engine.histogramsTo(sink);
        return this;
    }

    /**
     * The load plan.
     *
     * @param clients clients of a fixed-load run
     * @param threads threads per client of a fixed-load run
     * @param runs repetitions at a fixed load (not used when ramping)
     * @param ramp whether to ramp
     * @param rampLoads the ramp's steps in order
     * @param repeats runs per ramp step; a step's figures are the means of its runs
     * @param thenRuns runs at the peak's load after the ramp (0: none); the summary is then the mean
     *     of the last two of them
     * @param policy when the ramp stops
     */
    public record Plan(
            int clients,
            int threads,
            int runs,
            boolean ramp,
            List<RampLoads.Load> rampLoads,
            int repeats,
            int thenRuns,
            RampPolicy policy) {}

    /** The runs, their summary and, when ramping, the ramp. */
    public record Outcome(List<BenchResult.Run> runs, BenchResult.Summary summary, BenchResult.Ramp ramp) {}

    public Outcome execute(Plan plan) {
        List<BenchResult.Run> runs = new ArrayList<>();
        if (!plan.ramp()) {
            for (int r = 1; r <= plan.runs(); r++) {
                run(runs, plan.clients(), plan.threads());
            }
            return new Outcome(runs, Stats.summarize(runs), null);
        }
        List<BenchResult.RampStep> steps = new ArrayList<>();
        List<List<BenchResult.Run>> stepRuns = new ArrayList<>();
        RampPolicy.Stop stop = null;
        for (RampLoads.Load load : plan.rampLoads()) {
            List<BenchResult.Run> repeats = new ArrayList<>();
            for (int k = 0; k < plan.repeats(); k++) {
                repeats.add(run(runs, load.clients(), load.threads()));
            }
            BenchResult.RampStep step = RampStepFigures.of(load.clients(), load.threads(), repeats);
            steps.add(step);
            stepRuns.add(repeats);
            if (plan.repeats() > 1) {
                out.accept(stepLine(steps.size(), step));
            }
            stop = plan.policy().stop(steps);
            if (stop != null) {
                break;
            }
        }
        if (stop == null) {
            RampLoads.Load last = plan.rampLoads().get(plan.rampLoads().size() - 1);
            stop = new RampPolicy.Stop(
                    RampPolicy.LAST_STEP,
                    "all " + steps.size() + " steps ran (the last: " + last.clients() + " clients x " + last.threads()
                            + " threads)");
        }
        int peak = plan.policy().peak(steps);
        String reason = stop.reason();
        if (peak < 0) {
            peak = 0;
            reason +=
                    "; no step was within the p99, error and wrong-answer bounds, so the peak shown is the first step";
        }
        BenchResult.RampStep p = steps.get(peak);
        boolean generatorBound = stop.kind().equals(RampPolicy.GENERATOR_BOUND) && peak == steps.size() - 1;
        List<BenchResult.Run> basisRuns = stepRuns.get(peak);
        String basisPrefix = "ramp peak " + p.clients() + " clients x " + p.threads() + " threads";
        if (plan.thenRuns() > 0) {
            basisRuns = new ArrayList<>();
            for (int k = 0; k < plan.thenRuns(); k++) {
                basisRuns.add(run(runs, p.clients(), p.threads()));
            }
            basisPrefix += ", then " + plan.thenRuns() + " runs";
        }
        BenchResult.Summary s = Stats.summarize(basisRuns);
        BenchResult.Summary summary = new BenchResult.Summary(
                basisPrefix + ": " + s.basis(),
                s.opsPerSecond(),
                s.latencyMs(),
                s.spreadPercent(),
                s.wrongAnswers(),
                s.errors(),
                s.operations(),
                s.opsPerServerCpuSecond());
        BenchResult.Capacity capacity = CapacityAdvice.of(
                plan.thenRuns() > 0 ? s.opsPerSecond() : p.opsPerSecond(),
                plan.thenRuns() > 0 ? s.opsPerServerCpuSecond() : p.opsPerServerCpuSecond(),
                cores);
        BenchResult.Ramp ramp = new BenchResult.Ramp(
                steps,
                plan.policy().p99BoundMs(),
                reason,
                p.opsPerSecond(),
                p.clients(),
                p.threads(),
                capacity.opsPerSecond(),
                stop.kind(),
                generatorBound,
                capacity,
                plan.thenRuns(),
                new BenchResult.RampBounds(
                        plan.repeats(),
                        plan.policy().p99BoundMs(),
                        plan.policy().minGainPercent(),
                        plan.policy().maxErrorPercent(),
                        plan.policy().maxWrongAnswers(),
                        plan.policy().maxHarnessCpuPercent()));
        out.accept(String.format(
                Locale.ROOT,
                "ramp: %s; peak %.1f ops/s at %d clients x %d threads%s; recommended capacity %.1f ops/s (%s)",
                reason,
                p.opsPerSecond(),
                p.clients(),
                p.threads(),
                generatorBound ? " (generator-bound: the server's peak may be higher)" : "",
                capacity.opsPerSecond(),
                capacity.rule()));
        return new Outcome(runs, summary, ramp);
    }

    private BenchResult.Run run(List<BenchResult.Run> runs, int clients, int threads) {
        BenchResult.Run r = runner.run(runs.size() + 1, clients, threads);
        runs.add(r);
        out.accept(summaryLine(r));
        return r;
    }

    private static String stepLine(int number, BenchResult.RampStep s) {
        return String.format(
                Locale.ROOT,
                "ramp step %d: %d clients x %d threads, mean of %d runs %.1f ops/s (spread %.1f%%), p99 %.3f ms, "
                        + "errors %.3f%%, wrong %d, harness cpu %.0f%% of machine",
                number,
                s.clients(),
                s.threads(),
                s.repeats(),
                s.opsPerSecond(),
                s.spreadPercent(),
                s.p99Ms(),
                s.errorPercent(),
                s.wrongAnswers(),
                s.harnessCpuPercentOfMachine());
    }

    private static String summaryLine(BenchResult.Run r) {
        String line = String.format(
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
        if (r.resources() != null && r.resources().opsPerServerCpuSecond() != null) {
            line += String.format(
                    Locale.ROOT,
                    ", %.1f ops per server CPU-second",
                    r.resources().opsPerServerCpuSecond());
        }
        return line;
    }
}
