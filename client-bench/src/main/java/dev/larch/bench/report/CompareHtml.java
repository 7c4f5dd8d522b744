package dev.larch.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The comparison of two results as one self-contained HTML page (inline SVG, no scripts): what
 * each side ran, any differences accepted with {@code --force}, the table of {@link CompareTable},
 * and charts of ops/s per operation, p50/p99 per operation and each side's last run's throughput
 * over time.
 */
public final class CompareHtml {
    private CompareHtml() {}

    public static void write(
            BenchResult a, String aLabel, BenchResult b, String bLabel, List<String> differences, Path file)
            throws IOException {
        Files.writeString(file, render(a, aLabel, b, bLabel, differences), StandardCharsets.UTF_8);
    }

    /**
     * @param differences mismatches the user chose to ignore with {@code --force}; empty if none
     */
    public static String render(BenchResult a, String aLabel, BenchResult b, String bLabel, List<String> differences) {
        StringBuilder sb = new StringBuilder(32 * 1024);
        sb.append("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>larch bench compare</title>"
                + "<style>body{font-family:sans-serif;margin:2em;color:#222}"
                + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                + "th{background:#f3f3f3}td.l,th.l{text-align:left}.bad{color:#b00;font-weight:bold}.noise{color:#888}"
                + "svg{display:block;margin:1em 0}</style></head><body>");
        sb.append("<h1>B compared with A</h1><table>");
        sb.append("<tr><th class='l'>A</th><td class='l'>")
                .append(e(CompareTable.describe(a, aLabel)))
                .append("</td></tr>");
        sb.append("<tr><th class='l'>B</th><td class='l'>")
                .append(e(CompareTable.describe(b, bLabel)))
                .append("</td></tr></table>");
        if (!differences.isEmpty()) {
            sb.append("<p class='bad'>These results differ in what they measured (compared with --force):</p><ul>");
            differences.forEach(d -> sb.append("<li>").append(e(d)).append("</li>"));
            sb.append("</ul>");
        }
        sb.append("<p>Change of B over A in percent: throughput (B&minus;A)/A, latency (A&minus;B)/A; positive means B"
                + " is better. <span class='noise'>Grey</span>: the throughput change is within the larger spread"
                + " between either side's runs (within noise).</p>");
        List<CompareTable.Row> rows = CompareTable.rows(a, b);
        sb.append("<table><tr><th class='l'>operation</th><th>A ops/s</th><th>B ops/s</th><th>change</th>"
                + "<th>A spread</th><th>B spread</th><th>A p50 ms</th><th>B p50 ms</th><th>A p99 ms</th>"
                + "<th>B p99 ms</th><th>p99 change</th><th>A wrong</th><th>B wrong</th><th>A errors</th>"
                + "<th>B errors</th><th>A partial</th><th>B partial</th><th>A entries/search</th>"
                + "<th>B entries/search</th></tr>");
        for (CompareTable.Row r : rows) {
            sb.append("<tr><td class='l'>").append(e(r.name())).append("</td>");
            if (!r.inBoth()) {
                sb.append("<td class='l' colspan='18'>only in ")
                        .append(r.a() == null ? "B" : "A")
                        .append("</td></tr>");
                continue;
            }
            CompareTable.Side x = r.a();
            CompareTable.Side y = r.b();
            td(sb, f1(x.opsPerSecond()));
            td(sb, f1(y.opsPerSecond()));
            sb.append(r.withinNoise() ? "<td class='noise'>" : "<td>")
                    .append(pct(r.throughputChange()))
                    .append(r.withinNoise() ? " (within noise)" : "")
                    .append("</td>");
            td(sb, f1(x.spreadPercent()) + "%");
            td(sb, f1(y.spreadPercent()) + "%");
            td(sb, ms(x.latencyMs().p50()));
            td(sb, ms(y.latencyMs().p50()));
            td(sb, ms(x.latencyMs().p99()));
            td(sb, ms(y.latencyMs().p99()));
            td(
                    sb,
                    pct(CompareTable.latencyImprovement(
                            x.latencyMs().p99(), y.latencyMs().p99())));
            sb.append("<td>").append(bad(x.wrongAnswers())).append("</td>");
            sb.append("<td>").append(bad(y.wrongAnswers())).append("</td>");
            sb.append("<td>").append(bad(x.errors())).append("</td>");
            sb.append("<td>").append(bad(y.errors())).append("</td>");
            td(sb, Long.toString(x.partial()));
            td(sb, Long.toString(y.partial()));
            td(sb, Double.isNaN(x.entriesPerSearch()) ? "" : String.format(Locale.ROOT, "%.2f", x.entriesPerSearch()));
            td(sb, Double.isNaN(y.entriesPerSearch()) ? "" : String.format(Locale.ROOT, "%.2f", y.entriesPerSearch()));
            sb.append("</tr>");
        }
        sb.append("</table>");

        List<CompareTable.Row> ops =
                rows.stream().filter(r -> r.inBoth() && !r.name().equals("ALL")).toList();
        List<String> names = ops.stream().map(CompareTable.Row::name).toList();
        double[][] throughput = new double[ops.size()][];
        double[][] latency = new double[ops.size()][];
        for (int i = 0; i < ops.size(); i++) {
            CompareTable.Row r = ops.get(i);
            throughput[i] = new double[] {r.a().opsPerSecond(), r.b().opsPerSecond()};
            latency[i] = new double[] {
                r.a().latencyMs().p50(),
                r.b().latencyMs().p50(),
                r.a().latencyMs().p99(),
                r.b().latencyMs().p99()
            };
        }
        sb.append(SvgChart.bars("Throughput per operation, A vs B", "ops/s", names, List.of("A", "B"), throughput));
        sb.append(SvgChart.logBars(
                "Latency p50 and p99 per operation, A vs B (ms, log scale)",
                "ms",
                names,
                List.of("A p50", "B p50", "A p99", "B p99"),
                latency));
        List<SvgChart.Series> series = new ArrayList<>();
        series.add(lastRun("A", a));
        series.add(lastRun("B", b));
        sb.append(SvgChart.lines(
                "Throughput over time: each side's last run",
                "seconds since start of run",
                "ops/s",
                series,
                Math.min(a.config().warmupSeconds(), b.config().warmupSeconds())));
        sb.append("</body></html>\n");
        return sb.toString();
    }

    private static SvgChart.Series lastRun(String side, BenchResult r) {
        if (r.runs().isEmpty()) {
            return new SvgChart.Series(side + ": no runs", new double[0], new double[0]);
        }
        BenchResult.Run run = r.runs().get(r.runs().size() - 1);
        double[] xs = new double[run.intervals().size()];
        double[] ys = new double[xs.length];
        for (int i = 0; i < xs.length; i++) {
            BenchResult.Interval in = run.intervals().get(i);
            xs[i] = in.startSeconds() + in.seconds();
            ys[i] = in.opsPerSecond();
        }
        return new SvgChart.Series(
                side + " run " + run.run() + " (" + run.clients() + "x" + run.threads() + ")", xs, ys);
    }

    private static void td(StringBuilder sb, String v) {
        sb.append("<td>").append(e(v)).append("</td>");
    }

    private static String bad(long n) {
        return n == 0 ? "0" : "<span class='bad'>" + n + "</span>";
    }

    private static String f1(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    private static String ms(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    private static String pct(double d) {
        return String.format(Locale.ROOT, "%+.1f%%", d);
    }

    private static String e(String s) {
        return Html.escape(s);
    }
}
