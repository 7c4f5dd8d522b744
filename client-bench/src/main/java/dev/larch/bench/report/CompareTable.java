package dev.larch.bench.report;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The percent-improvement table of two results, operation by operation, as published directory
 * comparisons print it. Positive means B is better: more operations per second, or lower latency.
 */
public final class CompareTable {
    private CompareTable() {}

    /** Improvement of latency b over a in percent: (a − b) / a × 100, positive when b is faster. */
    public static double latencyImprovement(double a, double b) {
        return a == 0 ? 0 : (a - b) / a * 100;
    }

    public static String render(BenchResult a, String aLabel, BenchResult b, String bLabel) {
        StringBuilder sb = new StringBuilder();
        sb.append("A: ").append(describe(a, aLabel)).append('\n');
        sb.append("B: ").append(describe(b, bLabel)).append('\n');
        sb.append("Improvement of B over A in percent (throughput: (B-A)/A; latency: (A-B)/A; positive = B better)\n");
        if (!a.config().mixSha256().equals(b.config().mixSha256())) {
            sb.append("note: the two results used different mix files (SHA-256 differs)\n");
        }
        if (a.config().dataPeople() != b.config().dataPeople()) {
            sb.append("note: the two results used data sets of different sizes\n");
        }
        String fmt = "%-22s %12s %12s %9s  %10s %10s %9s  %10s %10s %9s%n";
        sb.append(String.format(
                Locale.ROOT,
                fmt,
                "operation",
                "A ops/s",
                "B ops/s",
                "ops/s",
                "A mean ms",
                "B mean ms",
                "mean",
                "A p99 ms",
                "B p99 ms",
                "p99"));
        Set<String> names = new LinkedHashSet<>();
        a.summary().operations().forEach(o -> names.add(o.name()));
        b.summary().operations().forEach(o -> names.add(o.name()));
        for (String name : names) {
            BenchResult.OperationSummary x = find(a.summary().operations(), name);
            BenchResult.OperationSummary y = find(b.summary().operations(), name);
            if (x == null || y == null) {
                sb.append(String.format(Locale.ROOT, "%-22s only in %s%n", name, x == null ? "B" : "A"));
                continue;
            }
            row(sb, fmt, name, x.opsPerSecond(), y.opsPerSecond(), x.latencyMs(), y.latencyMs());
        }
        row(
                sb,
                fmt,
                "ALL",
                a.summary().opsPerSecond(),
                b.summary().opsPerSecond(),
                a.summary().latencyMs(),
                b.summary().latencyMs());
        return sb.toString();
    }

    private static void row(
            StringBuilder sb,
            String fmt,
            String name,
            double opsA,
            double opsB,
            BenchResult.Latency la,
            BenchResult.Latency lb) {
        sb.append(String.format(
                Locale.ROOT,
                fmt,
                name,
                n(opsA),
                n(opsB),
                pct(Stats.percentChange(opsA, opsB)),
                ms(la.mean()),
                ms(lb.mean()),
                pct(latencyImprovement(la.mean(), lb.mean())),
                ms(la.p99()),
                ms(lb.p99()),
                pct(latencyImprovement(la.p99(), lb.p99()))));
    }

    private static BenchResult.OperationSummary find(List<BenchResult.OperationSummary> ops, String name) {
        return ops.stream().filter(o -> o.name().equals(name)).findFirst().orElse(null);
    }

    private static String describe(BenchResult r, String label) {
        return String.format(
                Locale.ROOT,
                "%s — %s %s at %s:%d, mix %s, %d people, %d clients x %d threads, %s",
                label,
                r.server().vendorName(),
                r.server().vendorVersion(),
                r.server().host(),
                r.server().port(),
                r.config().mix(),
                r.config().dataPeople(),
                r.config().clients(),
                r.config().threads(),
                r.summary().basis());
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
