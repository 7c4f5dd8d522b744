package dev.larch.bench.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.larch.bench.report.BenchResult.Interval;
import dev.larch.bench.report.BenchResult.Operation;
import dev.larch.bench.report.BenchResult.Run;
import org.HdrHistogram.Histogram;

/**
 * Combines the results of several load generators that ran the same workload at the same time
 * into one result: throughput, counts, errors, wrong and partial answers are summed; latency
 * percentiles come from the generators' histograms added together (per run, per operation, per
 * interval, and so in the summary). Run k of every generator is merged with run k of the others,
 * and interval i with interval i, so the generators should have started together
 * ({@code --start-at}).
 */
public final class ResultMerger {
    /**
     * One generator's output directory, read.
     *
     * @param dir the directory as given on the command line
     * @param result its result.json
     * @param log its histograms.hlog
     */
    public record Part(String dir, BenchResult result, HistogramLogContent log) {}

    /** The merged result and its per-interval histograms, for the merged histograms.hlog. */
    public record Merged(BenchResult result, List<HistogramLogContent.Interval> intervals) {}

    private ResultMerger() {}

    /**
     * Merges fixed-load results with the same number of runs.
     *
     * @throws IllegalArgumentException if fewer than two parts, a ramp, differing run counts, or a
     *     histogram log that does not hold the intervals its result.json lists
     */
    public static Merged merge(List<Part> parts) {
        if (parts.size() < 2) {
            throw new IllegalArgumentException("merge needs at least two result directories");
        }
        BenchResult first = parts.get(0).result();
        for (Part p : parts) {
            if (p.result().config().ramp() || p.result().ramp() != null) {
                throw new IllegalArgumentException(
                        p.dir() + " is a ramp; merge combines fixed-load runs (run the generators without --ramp)");
            }
            if (p.result().runs().size() != first.runs().size()) {
                throw new IllegalArgumentException(
                        p.dir() + " has " + p.result().runs().size() + " runs, "
                                + parts.get(0).dir() + " has " + first.runs().size());
            }
        }
        List<Run> runs = new ArrayList<>();
        List<HistogramLogContent.Interval> logIntervals = new ArrayList<>();
        for (int k = 0; k < first.runs().size(); k++) {
            runs.add(mergeRun(parts, k, logIntervals));
        }
        List<String> notes = new ArrayList<>(first.notes());
        notes.add(
                "Merged from " + parts.size() + " load generators (config.generators): throughput, counts, errors, "
                        + "wrong and partial answers are their sums; latency percentiles come from their histograms added "
                        + "together; run k and interval i of each generator are merged with run k and interval i of the others.");
        BenchResult merged = new BenchResult(
                first.harness(),
                first.harnessVersion(),
                parts.stream()
                        .map(p -> Instant.parse(p.result().startedAt()))
                        .min(Instant::compareTo)
                        .orElseThrow()
                        .toString(),
                mergedConfig(parts),
                first.server(),
                notes,
                runs,
                Stats.summarize(runs),
                null);
        return new Merged(merged, logIntervals);
    }

    /** Wrong-answer examples kept per merged operation, as one generator keeps. */
    private static final int WRONG_EXAMPLES = 5;

    private static BenchResult.Config mergedConfig(List<Part> parts) {
        BenchResult.Config first = parts.get(0).result().config();
        List<BenchResult.Generator> generators = new ArrayList<>();
        int clients = 0;
        double rate = 0;
        boolean everyRated = true;
        for (Part p : parts) {
            BenchResult.Config c = p.result().config();
            clients += c.clients();
            if (c.rate() == null) {
                everyRated = false;
            } else {
                rate += c.rate();
            }
            if (c.generators() == null || c.generators().isEmpty()) {
                generators.add(new BenchResult.Generator(
                        "unknown", p.dir(), c.clients(), c.threads(), p.result().startedAt()));
            } else {
                generators.addAll(c.generators());
            }
        }
        // Through the JSON tree, so config fields added later are carried over unchanged.
        ObjectNode tree = (ObjectNode) JsonReport.tree(first);
        tree.put("clients", clients);
        if (everyRated) {
            // Each generator held its own schedule; together they offered the sum.
            tree.put("rate", rate);
        } else {
            // Only under --force: closed loops merged with fixed rates offered no one rate.
            tree.remove("rate");
        }
        tree.set("generators", JsonReport.tree(generators));
        return JsonReport.fromTree((JsonNode) tree, BenchResult.Config.class);
    }

    private static Run mergeRun(List<Part> parts, int k, List<HistogramLogContent.Interval> logIntervals) {
        Run first = parts.get(0).result().runs().get(k);
        List<Run> runs = parts.stream().map(p -> p.result().runs().get(k)).toList();
        List<RunHistograms> hists = parts.stream()
                .map(p -> p.log().measured(p.result().runs().get(k).run()))
                .toList();

        Map<String, Histogram> opHists = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>();
        runs.forEach(r -> r.operations().forEach(o -> names.add(o.name())));
        List<Operation> operations = new ArrayList<>();
        for (String name : names) {
            Histogram h = RunHistograms.sum(hists.stream()
                    .map(x -> x.operations().get(name))
                    .filter(Objects::nonNull)
                    .toList());
            opHists.put(name, h);
            operations.add(mergeOperation(
                    name,
                    runs.stream()
                            .flatMap(r -> r.operations().stream())
                            .filter(o -> o.name().equals(name))
                            .toList(),
                    h));
        }
        Histogram all = RunHistograms.sum(hists.stream().map(RunHistograms::all).toList());
        Histogram connect =
                RunHistograms.sum(hists.stream().map(RunHistograms::connections).toList());
        double measured =
                runs.stream().mapToDouble(Run::measuredSeconds).average().orElse(0);
        return new Run(
                first.run(),
                runs.stream().mapToInt(Run::clients).sum(),
                first.threads(),
                measured,
                runs.stream().mapToLong(Run::ops).sum(),
                runs.stream().mapToDouble(Run::opsPerSecond).sum(),
                Stats.latency(all),
                runs.stream().mapToLong(Run::partial).sum(),
                runs.stream().mapToLong(Run::wrongAnswers).sum(),
                runs.stream().mapToLong(Run::errors).sum(),
                sumCounts(runs.stream().map(Run::errorsByResultCode).toList()),
                operations,
                mergeOperation(
                        first.connections().name(),
                        runs.stream().map(Run::connections).toList(),
                        connect),
                mergeIntervals(parts, k, logIntervals),
                mergeCpu(runs),
                new RunHistograms(all, opHists, connect),
                null, // each generator measured its own machine's resources; they do not add up
                null); // nor does pacing: each generator paced its own connections
    }

    private static Operation mergeOperation(String name, List<Operation> parts, Histogram latency) {
        long ops = parts.stream().mapToLong(Operation::ops).sum();
        double entries =
                parts.stream().mapToDouble(o -> o.entriesPerSearch() * o.ops()).sum();
        return new Operation(
                name,
                ops,
                parts.stream().mapToDouble(Operation::opsPerSecond).sum(),
                Stats.latency(latency),
                ops == 0 ? 0 : entries / ops,
                parts.stream().mapToLong(Operation::partial).sum(),
                parts.stream().mapToLong(Operation::wrongAnswers).sum(),
                parts.stream().mapToLong(Operation::errors).sum(),
                sumCounts(parts.stream().map(Operation::errorsByResultCode).toList()),
                parts.stream()
                        .flatMap(o -> o.wrongExamples().stream())
                        .limit(WRONG_EXAMPLES)
                        .toList());
    }

    /** Interval i of every generator becomes interval i of the merged run; the shortest run sets the count. */
    private static List<Interval> mergeIntervals(
            List<Part> parts, int k, List<HistogramLogContent.Interval> logIntervals) {
        List<List<Interval>> lists = new ArrayList<>();
        List<List<HistogramLogContent.Interval>> logged = new ArrayList<>();
        for (Part p : parts) {
            Run r = p.result().runs().get(k);
            List<HistogramLogContent.Interval> inLog = new ArrayList<>();
            inLog.addAll(p.log().intervals(r.run(), "warm-up"));
            inLog.addAll(p.log().intervals(r.run(), "measure"));
            if (inLog.size() != r.intervals().size()) {
                throw new IllegalArgumentException(
                        p.dir() + ": histograms.hlog holds " + inLog.size() + " intervals of run " + r.run()
                                + ", result.json " + r.intervals().size());
            }
            lists.add(r.intervals());
            logged.add(inLog);
        }
        int n = lists.stream().mapToInt(List::size).min().orElse(0);
        List<Interval> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int at = i;
            List<Interval> same = lists.stream().map(l -> l.get(at)).toList();
            List<HistogramLogContent.Interval> sameLogged =
                    logged.stream().map(l -> l.get(at)).toList();
            HistogramLogContent.Interval mergedLog = mergeLogged(sameLogged);
            logIntervals.add(mergedLog);
            Interval f = same.get(0);
            Map<String, Double> byOp = new LinkedHashMap<>();
            same.forEach(x -> x.opsPerSecondByOperation().forEach((name, v) -> byOp.merge(name, v, Double::sum)));
            out.add(new Interval(
                    f.phase(),
                    f.startSeconds(),
                    f.seconds(),
                    same.stream().mapToDouble(Interval::opsPerSecond).sum(),
                    Stats.latency(mergedLog.all()).p50(),
                    Stats.latency(mergedLog.all()).p99(),
                    same.stream().mapToLong(Interval::errors).sum(),
                    same.stream().mapToLong(Interval::wrongAnswers).sum(),
                    byOp,
                    sumOrNull(same, Interval::harnessCpuPercent),
                    firstNonNull(same, Interval::serverCpuPercent),
                    firstNonNull(same, Interval::serverRssKb)));
        }
        return out;
    }

    private static HistogramLogContent.Interval mergeLogged(List<HistogramLogContent.Interval> same) {
        HistogramLogContent.Interval f = same.get(0);
        Map<String, List<Histogram>> byOp = new LinkedHashMap<>();
        same.forEach(x -> x.operations()
                .forEach((name, h) ->
                        byOp.computeIfAbsent(name, n -> new ArrayList<>()).add(h)));
        Map<String, Histogram> ops = new LinkedHashMap<>();
        byOp.forEach((name, list) -> ops.put(name, RunHistograms.sum(list)));
        return new HistogramLogContent.Interval(
                f.run(),
                f.phase(),
                same.stream()
                        .mapToLong(HistogramLogContent.Interval::startEpochMillis)
                        .min()
                        .orElseThrow(),
                f.seconds(),
                RunHistograms.sum(
                        same.stream().map(HistogramLogContent.Interval::all).toList()),
                RunHistograms.sum(same.stream()
                        .map(HistogramLogContent.Interval::connections)
                        .toList()),
                ops);
    }

    /**
     * Generator CPU adds up (percent of one core across all generators' cores); the server's
     * figures are the first generator's that sampled it (they watch the same process).
     */
    private static BenchResult.Cpu mergeCpu(List<Run> runs) {
        List<BenchResult.Cpu> cpus = runs.stream().map(Run::cpu).toList();
        int cores = cpus.stream().mapToInt(BenchResult.Cpu::cores).sum();
        double seconds =
                cpus.stream().mapToDouble(BenchResult.Cpu::harnessCpuSeconds).sum();
        double ofOneCore = cpus.stream()
                .mapToDouble(BenchResult.Cpu::harnessCpuPercentOfOneCore)
                .sum();
        return new BenchResult.Cpu(
                cores,
                seconds,
                ofOneCore,
                cores == 0 ? 0 : ofOneCore / cores,
                firstNonNull(cpus, BenchResult.Cpu::serverCpuPercentOfOneCore),
                firstNonNull(cpus, BenchResult.Cpu::serverRssMaxKb),
                firstNonNull(cpus, BenchResult.Cpu::serverRssMeanKb));
    }

    private static Map<String, Long> sumCounts(List<Map<String, Long>> maps) {
        Map<String, Long> out = new LinkedHashMap<>();
        maps.forEach(m -> m.forEach((k, v) -> out.merge(k, v, Long::sum)));
        return out;
    }

    private static <T> Double sumOrNull(List<T> list, Function<T, Double> f) {
        List<Double> values = list.stream().map(f).filter(Objects::nonNull).toList();
        return values.isEmpty()
                ? null
                : values.stream().mapToDouble(Double::doubleValue).sum();
    }

    private static <T, V> V firstNonNull(List<T> list, Function<T, V> f) {
        return list.stream().map(f).filter(Objects::nonNull).findFirst().orElse(null);
    }
}
