package dev.larch.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The comparison of two results, operation by operation, as published directory comparisons print
 * it: percent improvement of B over A (positive means B is better: more operations per second, or
 * lower latency), with what says whether the difference means anything: each side's spread between
 * its runs, and the wrong answers, errors and partial answers behind its numbers. A throughput
 * difference no larger than the larger of the two spreads is marked "within noise".
 */
public final class CompareTable {
    private CompareTable() {}

    /**
     * One side of a row.
     *
     * @param spreadPercent the ops/s spread between the summarised runs (0 with one run)
     * @param entriesPerSearch mean entries per successful search, NaN for the ALL row
     */
    public record Side(
            double opsPerSecond,
            BenchResult.Latency latencyMs,
            double spreadPercent,
            long partial,
            long wrongAnswers,
            long errors,
            double entriesPerSearch) {
        static Side of(BenchResult.OperationSummary o) {
            return new Side(
                    o.opsPerSecond(),
                    o.latencyMs(),
                    o.spreadPercent(),
                    o.partial(),
                    o.wrongAnswers(),
                    o.errors(),
                    o.entriesPerSearch());
        }

        static Side of(BenchResult.Summary s) {
            return new Side(
                    s.opsPerSecond(),
                    s.latencyMs(),
                    s.spreadPercent(),
                    s.operations().stream()
                            .mapToLong(BenchResult.OperationSummary::partial)
                            .sum(),
                    s.wrongAnswers(),
                    s.errors(),
                    Double.NaN);
        }
    }

    /** One operation (or "ALL"); a side is null when the operation is only in the other result. */
    public record Row(String name, Side a, Side b) {
        /** (B − A) / A × 100 of ops/s. */
        public double throughputChange() {
            return Stats.percentChange(a.opsPerSecond(), b.opsPerSecond());
        }

        /** Whether the throughput difference is no larger than the larger of the two runs' spreads. */
        public boolean withinNoise() {
            return Math.abs(throughputChange()) <= Math.max(a.spreadPercent(), b.spreadPercent());
        }

        public boolean inBoth() {
            return a != null && b != null;
        }
    }

    /** Improvement of latency b over a in percent: (a − b) / a × 100, positive when b is faster. */
    public static double latencyImprovement(double a, double b) {
        return a == 0 ? 0 : (a - b) / a * 100;
    }

    /** A row per operation of either result, in A's order then B's, then "ALL". */
    public static List<Row> rows(BenchResult a, BenchResult b) {
        Set<String> names = new LinkedHashSet<>();
        a.summary().operations().forEach(o -> names.add(o.name()));
        b.summary().operations().forEach(o -> names.add(o.name()));
        List<Row> rows = new ArrayList<>();
        for (String name : names) {
            BenchResult.OperationSummary x = find(a.summary().operations(), name);
            BenchResult.OperationSummary y = find(b.summary().operations(), name);
            rows.add(new Row(name, x == null ? null : Side.of(x), y == null ? null : Side.of(y)));
        }
        rows.add(new Row("ALL", Side.of(a.summary()), Side.of(b.summary())));
        return rows;
    }

    public static String render(BenchResult a, String aLabel, BenchResult b, String bLabel) {
        StringBuilder sb = new StringBuilder();
        sb.append("A: ").append(describe(a, aLabel)).append('\n');
        sb.append("B: ").append(describe(b, bLabel)).append('\n');
        sb.append("Improvement of B over A in percent (throughput: (B-A)/A; latency: (A-B)/A; positive = B better);\n"
                + "'noise' marks a throughput change no larger than the larger spread between either side's runs\n");
        String fmt = "%-22s %11s %11s %9s %-6s %9s %9s %8s %9s %9s %8s %9s %9s %8s%n";
        sb.append(String.format(
                Locale.ROOT,
                fmt,
                "operation",
                "A ops/s",
                "B ops/s",
                "ops/s",
                "",
                "A mean ms",
                "B mean ms",
                "mean",
                "A p50 ms",
                "B p50 ms",
                "p50",
                "A p99 ms",
                "B p99 ms",
                "p99"));
        List<Row> rows = rows(a, b);
        for (Row r : rows) {
            if (!r.inBoth()) {
                sb.append(String.format(Locale.ROOT, "%-22s only in %s%n", r.name(), r.a() == null ? "B" : "A"));
                continue;
            }
            BenchResult.Latency la = r.a().latencyMs();
            BenchResult.Latency lb = r.b().latencyMs();
            sb.append(String.format(
                    Locale.ROOT,
                    fmt,
                    r.name(),
                    n(r.a().opsPerSecond()),
                    n(r.b().opsPerSecond()),
                    pct(r.throughputChange()),
                    r.withinNoise() ? "noise" : "",
                    ms(la.mean()),
                    ms(lb.mean()),
                    pct(latencyImprovement(la.mean(), lb.mean())),
                    ms(la.p50()),
                    ms(lb.p50()),
                    pct(latencyImprovement(la.p50(), lb.p50())),
                    ms(la.p99()),
                    ms(lb.p99()),
                    pct(latencyImprovement(la.p99(), lb.p99()))));
        }
        sb.append("Answers behind the numbers (spread: ops/s between the summarised runs; wrong, errors and partial"
                + " summed over them)\n");
        String fmt2 = "%-22s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s%n";
        sb.append(String.format(
                Locale.ROOT,
                fmt2,
                "operation",
                "A spread",
                "B spread",
                "A wrong",
                "B wrong",
                "A errors",
                "B errors",
                "A partial",
                "B partial",
                "A entries",
                "B entries"));
        for (Row r : rows) {
            if (!r.inBoth()) {
                continue;
            }
            sb.append(String.format(
                    Locale.ROOT,
                    fmt2,
                    r.name(),
                    n(r.a().spreadPercent()) + "%",
                    n(r.b().spreadPercent()) + "%",
                    r.a().wrongAnswers(),
                    r.b().wrongAnswers(),
                    r.a().errors(),
                    r.b().errors(),
                    r.a().partial(),
                    r.b().partial(),
                    entries(r.a().entriesPerSearch()),
                    entries(r.b().entriesPerSearch())));
        }
        return sb.toString();
    }

    private static BenchResult.OperationSummary find(List<BenchResult.OperationSummary> ops, String name) {
        return ops.stream().filter(o -> o.name().equals(name)).findFirst().orElse(null);
    }

    /** One line saying what a result is: server, mix, data, load and basis. */
    public static String describe(BenchResult r, String label) {
        return String.format(
                Locale.ROOT,
                "%s — %s %s at %s:%d, mix %s, %d people, %d clients x %d threads, %s, %s, %s",
                label,
                r.server().vendorName(),
                r.server().vendorVersion(),
                r.server().host(),
                r.server().port(),
                r.config().mix(),
                r.config().dataPeople(),
                r.config().clients(),
                r.config().threads(),
                r.config().connectionModel(),
                LoadModel.of(r.config()).label(),
                r.summary().basis());
    }

    private static String entries(double d) {
        return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.2f", d);
    }

    private static String n(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    private static String ms(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    private static String pct(double d) {
        return String.format(Locale.ROOT, "%+.1f%%", d);
    }
}
