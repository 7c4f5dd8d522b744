package dev.larch.bench.report;

import java.util.Locale;

/**
 * The report's blocks on method and cost: the ramp's steps and capacity rule, and each run's server,
 * machine and JVM resources.
 */
final class ResourceHtml {
    private ResourceHtml() {}

    /** One line under the summary: operations per server CPU-second, when known. */
    static void summary(StringBuilder sb, BenchResult.Summary s) {
        if (s.opsPerServerCpuSecond() != null) {
            sb.append("<p>Operations per server CPU-second: <b>")
                    .append(f(s.opsPerServerCpuSecond()))
                    .append("</b> (mean of the summarised runs).</p>");
        }
    }

    /** The capacity rule, the generator-bound warning and the steps table. */
    static void ramp(StringBuilder sb, BenchResult.Ramp ramp) {
        if (ramp.capacity() != null) {
            sb.append("<p>Capacity rule: ")
                    .append(Html.escape(ramp.capacity().rule()))
                    .append(".</p>");
        }
        if (ramp.generatorBound()) {
            sb.append(
                    "<p class='bad'>Generator-bound: the load generator reached its CPU bound at the peak; the peak is "
                            + "the generator's limit, and the server's may be higher.</p>");
        }
        sb.append("<table><tr><th>clients</th><th>threads</th><th>repeats</th><th>ops/s</th><th>spread %</th>"
                + "<th>p99 ms</th><th>errors %</th><th>wrong</th><th>harness CPU % of machine</th>"
                + "<th>server CPU % of machine</th><th>ops per server CPU-s</th><th class='l'>runs</th></tr>");
        for (BenchResult.RampStep s : ramp.steps()) {
            sb.append("<tr><td>")
                    .append(s.clients())
                    .append("</td><td>")
                    .append(s.threads())
                    .append("</td><td>")
                    .append(s.repeats())
                    .append("</td><td>")
                    .append(f(s.opsPerSecond()))
                    .append("</td><td>")
                    .append(f(s.spreadPercent()))
                    .append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.3f", s.p99Ms()))
                    .append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.3f", s.errorPercent()))
                    .append("</td><td>")
                    .append(s.wrongAnswers())
                    .append("</td><td>")
                    .append(f(s.harnessCpuPercentOfMachine()))
                    .append("</td><td>")
                    .append(s.serverCpuPercentOfMachine() == null ? "" : f(s.serverCpuPercentOfMachine()))
                    .append("</td><td>")
                    .append(s.opsPerServerCpuSecond() == null ? "" : f(s.opsPerServerCpuSecond()))
                    .append("</td><td class='l'>")
                    .append(s.runs() == null ? "" : Html.escape(s.runs().toString()))
                    .append("</td></tr>");
        }
        sb.append("</table>");
    }

    /** A run's resources: one table row for the server process and one for the machine, then the JVM and notes. */
    static void run(StringBuilder sb, BenchResult.Resources r) {
        if (r == null) {
            return;
        }
        sb.append("<table><tr><th class='l'>resources</th><th>user CPU s</th><th>system CPU s</th>"
                + "<th>CPU % of machine</th><th>context switches</th><th>disk read MB</th><th>disk written MB</th>"
                + "<th>net received MB</th><th>net sent MB</th></tr>");
        BenchResult.ProcessUse s = r.server();
        if (s != null) {
            row(
                    sb,
                    "server process",
                    s.userCpuSeconds(),
                    s.systemCpuSeconds(),
                    s.cpuPercentOfMachine(),
                    s.voluntaryContextSwitches() == null
                            ? ""
                            : s.voluntaryContextSwitches() + " voluntary, " + s.involuntaryContextSwitches()
                                    + " involuntary",
                    s.diskReadBytes(),
                    s.diskWriteBytes(),
                    s.netReceivedBytes(),
                    s.netSentBytes());
        }
        BenchResult.MachineUse m = r.machine();
        if (m != null) {
            row(
                    sb,
                    "machine (" + m.cores() + " cores, iowait " + f(m.iowaitSeconds()) + " s)",
                    m.userCpuSeconds(),
                    m.systemCpuSeconds(),
                    m.busyPercent(),
                    Long.toString(m.contextSwitches()),
                    m.diskReadBytes(),
                    m.diskWriteBytes(),
                    m.netReceivedBytes(),
                    m.netSentBytes());
        }
        sb.append("</table>");
        StringBuilder p = new StringBuilder();
        if (r.opsPerServerCpuSecond() != null) {
            p.append("Operations per server CPU-second: <b>")
                    .append(f(r.opsPerServerCpuSecond()))
                    .append("</b>. ");
        }
        BenchResult.JvmUse j = r.serverJvm();
        if (j != null) {
            p.append("Server JVM (")
                    .append(Html.escape(source(j.source())))
                    .append("): heap used mean ")
                    .append(mb(j.heapUsedMeanBytes()))
                    .append(" MB, max ")
                    .append(mb(j.heapUsedMaxBytes()))
                    .append(" MB of ")
                    .append(j.heapMaxBytes() == null ? "no limit" : mb(j.heapMaxBytes()) + " MB")
                    .append("; GC ")
                    .append(j.gcSeconds() == null ? "unknown" : String.format(Locale.ROOT, "%.3f s", j.gcSeconds()))
                    .append(". ");
        }
        for (String note : r.notes()) {
            p.append(Html.escape(note.replaceAll("https?://", ""))).append(". ");
        }
        if (!p.isEmpty()) {
            sb.append("<p>").append(p.toString().trim()).append("</p>");
        }
    }

    private static void row(
            StringBuilder sb,
            String what,
            double user,
            double system,
            double percent,
            String switches,
            Long read,
            Long written,
            Long received,
            Long sent) {
        sb.append("<tr><td class='l'>")
                .append(Html.escape(what))
                .append("</td><td>")
                .append(String.format(Locale.ROOT, "%.2f", user))
                .append("</td><td>")
                .append(String.format(Locale.ROOT, "%.2f", system))
                .append("</td><td>")
                .append(f(percent))
                .append("</td><td>")
                .append(Html.escape(switches))
                .append("</td><td>")
                .append(mb(read))
                .append("</td><td>")
                .append(mb(written))
                .append("</td><td>")
                .append(mb(received))
                .append("</td><td>")
                .append(mb(sent))
                .append("</td></tr>");
    }

    /**
     * The source without its scheme: the page makes no network references, not even as text a
     * reader's tool might turn into a link (result.json keeps the full URL).
     */
    static String source(String s) {
        return s.replaceFirst("^https?://", "metrics endpoint ");
    }

    private static String mb(Long bytes) {
        return bytes == null ? "unknown" : String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
    }

    private static String f(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }
}
