package dev.larch.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
     * The headline of repeated runs: the mean of the last two (the first run warms caches and is
     * reported but not averaged), or the only run.
     */
    public static Summary summarize(List<Run> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs to summarise");
        }
        List<Run> used = runs.size() == 1 ? runs : runs.subList(runs.size() - 2, runs.size());
        String basis = used.size() == 1
                ? "run " + used.get(0).run()
                : "mean of runs " + used.get(0).run() + " and " + used.get(1).run();
        Run a = used.get(0);
        Run b = used.get(used.size() - 1);
        Map<String, List<Operation>> byName = new LinkedHashMap<>();
        for (Run r : used) {
            for (Operation op : r.operations()) {
                byName.computeIfAbsent(op.name(), k -> new ArrayList<>()).add(op);
            }
        }
        List<OperationSummary> ops = new ArrayList<>();
        byName.forEach((name, list) -> ops.add(new OperationSummary(
                name,
                list.stream().mapToDouble(Operation::opsPerSecond).average().orElse(0),
                meanLatency(list.stream().map(Operation::latencyMs).toList()),
                list.size() < 2
                        ? 0
                        : spreadPercent(list.get(0).opsPerSecond(), list.get(1).opsPerSecond()))));
        return new Summary(
                basis,
                used.stream().mapToDouble(Run::opsPerSecond).average().orElse(0),
                meanLatency(used.stream().map(Run::latencyMs).toList()),
                used.size() < 2 ? 0 : spreadPercent(a.opsPerSecond(), b.opsPerSecond()),
                used.stream().mapToLong(Run::wrongAnswers).sum(),
                used.stream().mapToLong(Run::errors).sum(),
                ops,
                BenchResult.Resources.meanOpsPerServerCpuSecond(used));
    }

    /** Field-by-field mean of latency figures (percentiles of separate runs are averaged, as published reports did). */
    public static Latency meanLatency(List<Latency> list) {
        if (list.isEmpty()) {
            return Latency.NONE;
        }
        double n = list.size();
        return new Latency(
                list.stream().mapToDouble(Latency::mean).sum() / n,
                list.stream().mapToDouble(Latency::p50).sum() / n,
                list.stream().mapToDouble(Latency::p90).sum() / n,
                list.stream().mapToDouble(Latency::p99).sum() / n,
                list.stream().mapToDouble(Latency::p999).sum() / n,
                list.stream().mapToDouble(Latency::max).max().orElse(0));
    }
}
