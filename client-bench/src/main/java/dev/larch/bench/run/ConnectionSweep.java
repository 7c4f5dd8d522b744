package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.Stats;

/**
 * {@code --find-max-connections}: raises the number of connections step by step, each connection
 * offered the same fixed rate, until a step breaks a bound (p99, errors and wrong answers, or the
 * achieved rate falling short of the offered one), and reports the most connections that held them
 * all. Each step is one run (warm-up plus measurement) in asynchronous mode, the connections
 * spread over the load model's driver threads.
 */
public final class ConnectionSweep {
    /** Fewer missing answers than this never fail a step on the achieved rate (counting granularity). */
    static final double MIN_MISSING_REQUESTS = 2;

    private final RunSettings settings;
    private final Consumer<String> out;

    public ConnectionSweep(RunSettings settings, Consumer<String> out) {
        this.settings = settings;
        this.out = out;
    }

    /**
     * The sweep.
     *
     * @param start connections in the first step
     * @param step connections added per step
     * @param limit the sweep ends here at the latest
     * @param connectionRate operations per second offered on each connection
     * @param p99BoundMs a step whose p99 (from intended start) passes this fails
     * @param errorBoundPercent a step whose errors plus wrong answers pass this share of answers fails
     * @param shortfallPercent a step whose successful ops/s fall this far below the offered rate fails
     *     (when at least {@link #MIN_MISSING_REQUESTS} answers are missing)
     */
    public record Plan(
            int start,
            int step,
            int limit,
            double connectionRate,
            double p99BoundMs,
            double errorBoundPercent,
            double shortfallPercent) {}

    /** The steps' runs, the headline (the largest sustained step) and the sweep's record. */
    public record Outcome(
            List<BenchResult.Run> runs, BenchResult.Summary summary, BenchResult.MaxConnections maxConnections) {}

    public Outcome execute(Plan plan) {
        List<BenchResult.Run> runs = new ArrayList<>();
        List<BenchResult.ConnectionStep> steps = new ArrayList<>();
        String reason = null;
        int best = -1;
        for (int n = plan.start(); n <= plan.limit(); n += plan.step()) {
            double offered = n * plan.connectionRate();
            RunEngine engine = new RunEngine(settings.withLoad(settings.load().withRate(offered)), out);
            BenchResult.Run run = engine.run(runs.size() + 1, n, 1);
            runs.add(run);
            String failed = failure(plan, offered, run);
            steps.add(new BenchResult.ConnectionStep(
                    n,
                    offered,
                    run.opsPerSecond(),
                    run.latencyMs().p99(),
                    run.errors(),
                    run.wrongAnswers(),
                    run.pacing().lateStarts(),
                    run.pacing().missedStartMsMax(),
                    run.cpu().harnessCpuPercentOfMachine(),
                    failed));
            out.accept(String.format(
                    Locale.ROOT,
                    "connections %d: offered %.1f ops/s, achieved %.1f, p99 %.3f ms, errors %d, wrong %d, late starts %d -> %s",
                    n,
                    offered,
                    run.opsPerSecond(),
                    run.latencyMs().p99(),
                    run.errors(),
                    run.wrongAnswers(),
                    run.pacing().lateStarts(),
                    failed == null ? "sustained" : failed));
            if (failed != null) {
                reason = n + " connections: " + failed;
                break;
            }
            best = runs.size() - 1;
        }
        if (reason == null) {
            reason = "reached --max-connections-limit " + plan.limit() + " with every step sustained";
        }
        Integer max = best < 0 ? null : steps.get(best).connections();
        out.accept(
                "max connections: " + (max == null ? "none sustained" : max + " sustained") + "; stopped: " + reason);
        BenchResult.Run headline = runs.get(Math.max(best, 0));
        BenchResult.Summary s = Stats.summarize(List.of(headline));
        BenchResult.Summary summary = new BenchResult.Summary(
                (max == null ? "no step sustained; first step: run " : "largest sustained step: run ")
                        + headline.run() + ", " + headline.clients() + " connections at "
                        + plan.connectionRate() + " ops/s each",
                s.opsPerSecond(),
                s.latencyMs(),
                0,
                s.wrongAnswers(),
                s.errors(),
                s.operations(),
                s.opsPerServerCpuSecond());
        return new Outcome(
                runs,
                summary,
                new BenchResult.MaxConnections(
                        steps,
                        plan.connectionRate(),
                        plan.p99BoundMs(),
                        plan.errorBoundPercent(),
                        plan.shortfallPercent(),
                        reason,
                        max));
    }

    /** Which bound a step broke, or null when it held them all. */
    static String failure(Plan plan, double offered, BenchResult.Run run) {
        if (run.latencyMs().p99() > plan.p99BoundMs()) {
            return String.format(
                    Locale.ROOT,
                    "p99 %.3f ms passed the bound %.3f ms",
                    run.latencyMs().p99(),
                    plan.p99BoundMs());
        }
        long bad = run.errors() + run.wrongAnswers();
        long answers = run.ops() + bad;
        double badPercent = answers == 0 ? 0 : bad * 100.0 / answers;
        if (answers == 0 || badPercent > plan.errorBoundPercent()) {
            return String.format(
                    Locale.ROOT,
                    "errors and wrong answers %.2f%% of %d answers passed the bound %.2f%%",
                    answers == 0 ? 100.0 : badPercent,
                    answers,
                    plan.errorBoundPercent());
        }
        double shortfall = (offered - run.opsPerSecond()) / offered * 100;
        // A short step holds few requests: one answer landing just after the window is not a shortfall.
        double missing = (offered - run.opsPerSecond()) * run.measuredSeconds();
        if (shortfall > plan.shortfallPercent() && missing >= MIN_MISSING_REQUESTS) {
            return String.format(
                    Locale.ROOT,
                    "achieved %.1f ops/s, %.1f%% below the offered %.1f (bound %.1f%%)",
                    run.opsPerSecond(),
                    shortfall,
                    offered,
                    plan.shortfallPercent());
        }
        return null;
    }
}
