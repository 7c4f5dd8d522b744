package dev.larch.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.larch.bench.report.BenchResult.Latency;
import dev.larch.bench.report.BenchResult.Operation;
import dev.larch.bench.report.BenchResult.OperationSummary;
import dev.larch.bench.report.BenchResult.Run;
import dev.larch.bench.report.BenchResult.Summary;
import org.HdrHistogram.Histogram;

/** The report's arithmetic, kept in one place so it can be tested by itself. */
public final class Stats {
    private static final double NANOS_PER_MS = 1e6;

    private Stats() {}

    /** Latency figures in milliseconds of a histogram recorded in nanoseconds; zeros if empty. */
    public static Latency latency(Histogram nanos) {
        if (nanos.getTotalCount() == 0) {
            return Latency.NONE;
        }
        return new Latency(
                nanos.getMean() / NANOS_PER_MS,
                nanos.getValueAtPercentile(50) / NANOS_PER_MS,
                nanos.getValueAtPercentile(90) / NANOS_PER_MS,
                nanos.getValueAtPercentile(99) / NANOS_PER_MS,
                nanos.getValueAtPercentile(99.9) / NANOS_PER_MS,
                nanos.getMaxValue() / NANOS_PER_MS);
    }

    /** |a − b| / mean(a, b) × 100; 0 when both are 0. */
    public static double spreadPercent(double a, double b) {
        double mean = (a + b) / 2;
        return mean == 0 ? 0 : Math.abs(a - b) / mean * 100;
    }

    /** (b − a) / a × 100: how much higher b is than a; 0 when a is 0. */
    public static double percentChange(double a, double b) {
        return a == 0 ? 0 : (b - a) / a * 100;
    }

    /**
     * The headline of repeated runs: the last two (the first run warms caches and is reported but
     * not summarised), or the only run. Throughput is the mean of the runs' ops/s and the spread is
     * theirs; latency percentiles come from the runs' histograms added together, so a p99 is the
     * p99 of every request in the summarised runs, not a mean of two p99s.
     *
     * @throws IllegalArgumentException if {@code runs} is empty, or if two runs are summarised and
     *     either lacks its in-memory histograms (a run read back from result.json)
     */
    public static Summary summarize(List<Run> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs to summarise");
        }
        List<Run> used = runs.size() == 1 ? runs : runs.subList(runs.size() - 2, runs.size());
        String basis = used.size() == 1
                ? "run " + used.get(0).run()
                : "mean of runs " + used.get(0).run() + " and " + used.get(1).run();
        if (used.size() > 1 && used.stream().anyMatch(r -> r.histograms() == null)) {
            throw new IllegalArgumentException("summarising several runs needs their latency histograms");
        }
        Run a = used.get(0);
        Run b = used.get(used.size() - 1);
        Map<String, List<Operation>> byName = new LinkedHashMap<>();
        for (Run r : used) {
            for (Operation op : r.operations()) {
                byName.computeIfAbsent(op.name(), k -> new ArrayList<>()).add(op);
            }
        }
        List<OperationSummary> ops = new ArrayList<>();
        byName.forEach((name, list) -> {
            long succeeded = list.stream().mapToLong(Operation::ops).sum();
            double entries = list.stream()
                    .mapToDouble(o -> o.entriesPerSearch() * o.ops())
                    .sum();
            ops.add(new OperationSummary(
                    name,
                    list.stream().mapToDouble(Operation::opsPerSecond).average().orElse(0),
                    used.size() == 1
                            ? list.get(0).latencyMs()
                            : latency(RunHistograms.sum(used.stream()
                                    .map(r -> r.histograms().operations().get(name))
                                    .filter(Objects::nonNull)
                                    .toList())),
                    list.size() < 2
                            ? 0
                            : spreadPercent(
                                    list.get(0).opsPerSecond(), list.get(1).opsPerSecond()),
                    list.stream().mapToLong(Operation::partial).sum(),
                    list.stream().mapToLong(Operation::wrongAnswers).sum(),
                    list.stream().mapToLong(Operation::errors).sum(),
                    succeeded == 0 ? 0 : entries / succeeded));
        });
        return new Summary(
                basis,
                used.stream().mapToDouble(Run::opsPerSecond).average().orElse(0),
                used.size() == 1
                        ? a.latencyMs()
                        : latency(RunHistograms.sum(
                                used.stream().map(r -> r.histograms().all()).toList())),
                used.size() < 2 ? 0 : spreadPercent(a.opsPerSecond(), b.opsPerSecond()),
                used.stream().mapToLong(Run::wrongAnswers).sum(),
                used.stream().mapToLong(Run::errors).sum(),
                ops,
                BenchResult.Resources.meanOpsPerServerCpuSecond(used));
    }
}
