package dev.larch.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.larch.bench.report.BenchResult.Latency;

/**
 * A single self-contained HTML page: what was run, the headline, per-run tables and inline SVG
 * charts (throughput over time, latency percentiles per operation, the ramp curve when ramping).
 * No scripts, no external styles or fonts, so it opens offline.
 */
public final class HtmlReport {
    private HtmlReport() {}

    public static void write(BenchResult r, Path file) throws IOException {
        Files.writeString(file, render(r), StandardCharsets.UTF_8);
    }

    public static String render(BenchResult r) {
        StringBuilder sb = new StringBuilder(64 * 1024);
        BenchResult.Config c = r.config();
        sb.append("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>")
                .append(e("larch bench: " + c.mix() + " against " + r.server().vendorName()))
                .append("</title><style>body{font-family:sans-serif;margin:2em;color:#222}"
                        + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                        + "th{background:#f3f3f3}td.l,th.l{text-align:left}.bad{color:#b00;font-weight:bold}"
                        + "svg{display:block;margin:1em 0}</style></head><body>");
        sb.append("<h1>")
                .append(e(c.mix()))
                .append(" mix against ")
                .append(e(r.server().vendorName()))
                .append(' ')
                .append(e(r.server().vendorVersion()))
                .append("</h1>");

        sb.append("<h2>Setup</h2><table>");
        kv(
                sb,
                "server",
                r.server().host() + ":" + r.server().port()
                        + (r.server().pid() == null ? "" : " (pid " + r.server().pid() + ")"));
        kv(sb, "server software", r.server().vendorName() + " " + r.server().vendorVersion());
        kv(sb, "bind", r.server().bindDn() == null ? "anonymous" : r.server().bindDn());
        kv(sb, "mix", c.mix() + " (" + c.mixSource() + ")");
        kv(sb, "mix SHA-256", c.mixSha256());
        kv(sb, "shares", c.shares().toString());
        kv(sb, "connection model", c.connectionModel());
        kv(
                sb,
                "data",
                c.dataFile() + ": " + c.dataEntries() + " entries, " + c.dataPeople() + " people, " + c.dataGroups()
                        + " groups");
        kv(sb, "load", c.clients() + " clients x " + c.threads() + " threads" + (c.ramp() ? " (ramp start)" : ""));
        kv(
                sb,
                "timing",
                f(c.warmupSeconds()) + " s warm-up, " + f(c.durationSeconds()) + " s measured, "
                        + f(c.intervalSeconds()) + " s intervals, " + (c.ramp() ? "ramp" : c.runs() + " run(s)"));
        kv(sb, "seed", Long.toString(c.seed()));
        if (c.generators() != null) {
            for (BenchResult.Generator g : c.generators()) {
                kv(
                        sb,
                        "load generator",
                        g.host() + ": " + g.clients() + " clients x " + g.threads() + " threads, " + g.outDir()
                                + ", started " + g.startedAt());
            }
        }
        kv(sb, "harness", r.harness() + " " + r.harnessVersion() + ", started " + r.startedAt());
        sb.append("</table><ul>");
        for (String note : r.notes()) {
            sb.append("<li>").append(e(note)).append("</li>");
        }
        sb.append("</ul>");

        BenchResult.Summary s = r.summary();
        sb.append("<h2>Summary (").append(e(s.basis())).append(")</h2>");
        sb.append("<p><b>")
                .append(f(s.opsPerSecond()))
                .append(" ops/s</b>, spread between runs ")
                .append(f(s.spreadPercent()))
                .append("%; wrong answers ")
                .append(cls(s.wrongAnswers()))
                .append(", errors ")
                .append(cls(s.errors()))
                .append("</p>");
        sb.append("<table><tr><th class='l'>operation</th><th>ops/s</th><th>mean ms</th><th>p50</th><th>p90</th>"
                + "<th>p99</th><th>p99.9</th><th>max</th><th>spread %</th></tr>");
        for (BenchResult.OperationSummary op : s.operations()) {
            sb.append("<tr><td class='l'>")
                    .append(e(op.name()))
                    .append("</td><td>")
                    .append(f(op.opsPerSecond()))
                    .append("</td>");
            latencyCells(sb, op.latencyMs());
            sb.append("<td>").append(f(op.spreadPercent())).append("</td></tr>");
        }
        sb.append("<tr><th class='l'>ALL</th><th>").append(f(s.opsPerSecond())).append("</th>");
        latencyCells(sb, s.latencyMs());
        sb.append("<td>").append(f(s.spreadPercent())).append("</td></tr></table>");
        ResourceHtml.summary(sb, s);

        List<String> cats = new ArrayList<>();
        double[][] vals = new double[s.operations().size()][];
        for (int i = 0; i < s.operations().size(); i++) {
            Latency l = s.operations().get(i).latencyMs();
            cats.add(s.operations().get(i).name());
            vals[i] = new double[] {l.p50(), l.p90(), l.p99(), l.p999()};
        }
        sb.append(SvgChart.logBars(
                "Latency percentiles per operation (ms, log scale)",
                "ms",
                cats,
                List.of("p50", "p90", "p99", "p99.9"),
                vals));

        List<SvgChart.Series> series = new ArrayList<>();
        for (BenchResult.Run run : r.runs()) {
            double[] xs = new double[run.intervals().size()];
            double[] ys = new double[run.intervals().size()];
            for (int i = 0; i < xs.length; i++) {
                BenchResult.Interval in = run.intervals().get(i);
                xs[i] = in.startSeconds() + in.seconds();
                ys[i] = in.opsPerSecond();
            }
            series.add(
                    new SvgChart.Series("run " + run.run() + " (" + run.clients() + "x" + run.threads() + ")", xs, ys));
        }
        sb.append(SvgChart.lines(
                "Throughput over time", "seconds since start of run", "ops/s", series, c.warmupSeconds()));

        if (r.ramp() != null) {
            BenchResult.Ramp ramp = r.ramp();
            // a clients x threads ramp is charted by threads in all, the load it orders its steps by
            boolean grid = ramp.steps().stream()
                            .mapToInt(BenchResult.RampStep::threads)
                            .distinct()
                            .count()
                    > 1;
            double[] xs = ramp.steps().stream()
                    .mapToDouble(st -> grid ? st.clients() * st.threads() : st.clients())
                    .toArray();
            String by = grid ? "clients x threads" : "client count";
            double[] ys = ramp.steps().stream()
                    .mapToDouble(BenchResult.RampStep::opsPerSecond)
                    .toArray();
            double[] p99 = ramp.steps().stream()
                    .mapToDouble(BenchResult.RampStep::p99Ms)
                    .toArray();
            sb.append("<h2>Ramp</h2><p>")
                    .append(e(ramp.stopReason()))
                    .append(". Peak <b>")
                    .append(f(ramp.peakOpsPerSecond()))
                    .append(" ops/s</b> at ")
                    .append(ramp.peakClients())
                    .append(" clients x ")
                    .append(ramp.peakThreads())
                    .append(" threads; recommended capacity <b>")
                    .append(f(ramp.recommendedCapacityOpsPerSecond()))
                    .append(" ops/s</b>; p99 bound ")
                    .append(f(ramp.p99BoundMs()))
                    .append(" ms.</p>");
            ResourceHtml.ramp(sb, ramp);
            sb.append(SvgChart.lines(
                    "Ramp: throughput by " + by,
                    grid ? "threads in all" : "clients",
                    "ops/s",
                    List.of(new SvgChart.Series("ops/s", xs, ys)),
                    0));
            sb.append(SvgChart.lines(
                    "Ramp: p99 latency by " + by,
                    grid ? "threads in all" : "clients",
                    "p99 ms",
                    List.of(new SvgChart.Series("p99 ms", xs, p99)),
                    0));
        }

        sb.append("<h2>Runs</h2>");
        for (BenchResult.Run run : r.runs()) {
            sb.append("<h3>Run ")
                    .append(run.run())
                    .append(": ")
                    .append(run.clients())
                    .append(" clients x ")
                    .append(run.threads())
                    .append(" threads, ")
                    .append(f(run.measuredSeconds()))
                    .append(" s measured</h3>");
            sb.append("<table><tr><th class='l'>operation</th><th>ops</th><th>ops/s</th><th>mean ms</th><th>p50</th>"
                    + "<th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>entries/search</th><th>partial</th>"
                    + "<th>wrong</th><th>errors</th><th class='l'>errors by result code</th></tr>");
            for (BenchResult.Operation op : run.operations()) {
                opRow(sb, op);
            }
            opRow(sb, run.connections());
            sb.append("</table>");
            BenchResult.Cpu cpu = run.cpu();
            sb.append("<p>Load generator CPU: ")
                    .append(f(cpu.harnessCpuPercentOfOneCore()))
                    .append("% of one core (")
                    .append(f(cpu.harnessCpuPercentOfMachine()))
                    .append("% of ")
                    .append(cpu.cores())
                    .append(" cores)");
            if (cpu.serverCpuPercentOfOneCore() != null) {
                sb.append("; server CPU ")
                        .append(f(cpu.serverCpuPercentOfOneCore()))
                        .append("% of one core");
            }
            if (cpu.serverRssMaxKb() != null) {
                sb.append(", server RSS mean ")
                        .append(cpu.serverRssMeanKb() / 1024)
                        .append(" MB, max ")
                        .append(cpu.serverRssMaxKb() / 1024)
                        .append(" MB");
            }
            sb.append(".</p>");
            ResourceHtml.run(sb, run.resources());
        }
        sb.append("</body></html>\n");
        return sb.toString();
    }

    private static void opRow(StringBuilder sb, BenchResult.Operation op) {
        sb.append("<tr><td class='l'>")
                .append(e(op.name()))
                .append("</td><td>")
                .append(op.ops())
                .append("</td><td>")
                .append(f(op.opsPerSecond()))
                .append("</td>");
        latencyCells(sb, op.latencyMs());
        sb.append("<td>")
                .append(f(op.entriesPerSearch()))
                .append("</td><td>")
                .append(op.partial())
                .append("</td><td>")
                .append(cls(op.wrongAnswers()))
                .append("</td><td>")
                .append(cls(op.errors()))
                .append("</td><td class='l'>");
        for (Map.Entry<String, Long> err : op.errorsByResultCode().entrySet()) {
            sb.append(e(err.getKey())).append(": ").append(err.getValue()).append("<br>");
        }
        sb.append("</td></tr>");
    }

    private static void latencyCells(StringBuilder sb, Latency l) {
        for (double v : new double[] {l.mean(), l.p50(), l.p90(), l.p99(), l.p999(), l.max()}) {
            sb.append("<td>").append(String.format(Locale.ROOT, "%.3f", v)).append("</td>");
        }
    }

    private static void kv(StringBuilder sb, String k, String v) {
        sb.append("<tr><th class='l'>")
                .append(e(k))
                .append("</th><td class='l'>")
                .append(e(v))
                .append("</td></tr>");
    }

    private static String cls(long n) {
        return n == 0 ? "0" : "<span class='bad'>" + n + "</span>";
    }

    private static String f(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    private static String e(String s) {
        return Html.escape(s);
    }
}
