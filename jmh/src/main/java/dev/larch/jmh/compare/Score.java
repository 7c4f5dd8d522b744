package dev.larch.jmh.compare;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One benchmark's primary result as JMH reports it.
 *
 * @param benchmark the fully qualified benchmark method, e.g. {@code dev.larch.jmh.DnBenchmark.parseMixedCaseDn}
 * @param params JMH {@code @Param} values of this run, sorted by name; empty when the benchmark has none
 * @param mode JMH's short mode name: {@code avgt}, {@code thrpt}, {@code sample}, {@code ss}
 * @param score the score in {@code unit}
 * @param error half the width of JMH's 99.9% confidence interval, in {@code unit}; NaN when JMH had
 *     too few iterations to estimate it
 * @param unit e.g. {@code us/op} or {@code ops/s}
 */
public record Score(
        String benchmark, Map<String, String> params, String mode, double score, double error, String unit) {

    public Score {
        params = Map.copyOf(new TreeMap<>(params));
    }

    /** Identifies the same measurement in two files: benchmark, then params. */
    public String key() {
        return benchmark + paramText();
    }

    /** The class and method name, without the package, and the params: short enough for a table. */
    public String displayName() {
        String[] parts = benchmark.split("\\.");
        String shortName = parts.length >= 2 ? parts[parts.length - 2] + "." + parts[parts.length - 1] : benchmark;
        return shortName + paramText();
    }

    /** {@code " [entries=100000]"}, or empty without params. */
    public String paramText() {
        if (params.isEmpty()) {
            return "";
        }
        return new TreeMap<>(params)
                .entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(",", " [", "]"));
    }

    /** Throughput grows when code gets faster; every other mode measures time, which shrinks. */
    public boolean higherIsBetter() {
        return "thrpt".equals(mode);
    }

    /** The error as a fraction of the score; NaN when either is unknown or the score is not positive. */
    public double relativeError() {
        return score > 0 && Double.isFinite(error) ? error / score : Double.NaN;
    }
}
