package dev.larch.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import dev.larch.bench.report.BenchResult.Latency;

/**
 * Writes result.csv (one row per run and operation, an "ALL" row per run, then the summary rows)
 * and intervals.csv (one row per printed interval). Numbers use '.' whatever the locale.
 */
public final class CsvReport {
    static final String RESULT_HEADER = "run,clients,threads,operation,ops,ops_per_s,mean_ms,p50_ms,p90_ms,p99_ms,"
            + "p999_ms,max_ms,entries_per_search,partial,wrong_answers,errors" + ResourceColumns.HEADER;

    private CsvReport() {}

    public static String results(BenchResult r) {
        StringBuilder sb = new StringBuilder(RESULT_HEADER).append('\n');
        for (BenchResult.Run run : r.runs()) {
            for (BenchResult.Operation op : run.operations()) {
                row(
                        sb,
                        Integer.toString(run.run()),
                        run.clients(),
                        run.threads(),
                        op.name(),
                        op.ops(),
                        op.opsPerSecond(),
                        op.latencyMs(),
                        op.entriesPerSearch(),
                        op.partial(),
                        op.wrongAnswers(),
                        op.errors(),
                        ResourceColumns.blank());
            }
            row(
                    sb,
                    Integer.toString(run.run()),
                    run.clients(),
                    run.threads(),
                    "ALL",
                    run.ops(),
                    run.opsPerSecond(),
                    run.latencyMs(),
                    Double.NaN,
                    run.partial(),
                    run.wrongAnswers(),
                    run.errors(),
                    ResourceColumns.of(run.resources()));
        }
        BenchResult.Summary s = r.summary();
        for (BenchResult.OperationSummary op : s.operations()) {
            row(
                    sb,
                    "summary",
                    r.config().clients(),
                    r.config().threads(),
                    op.name(),
                    -1,
                    op.opsPerSecond(),
                    op.latencyMs(),
                    Double.NaN,
                    -1,
                    -1,
                    -1,
                    ResourceColumns.blank());
        }
        row(
                sb,
                "summary",
                r.config().clients(),
                r.config().threads(),
                "ALL",
                -1,
                s.opsPerSecond(),
                s.latencyMs(),
                Double.NaN,
                -1,
                s.wrongAnswers(),
                s.errors(),
                ResourceColumns.summary(s.opsPerServerCpuSecond()));
        return sb.toString();
    }

    public static String intervals(BenchResult r) {
        StringBuilder sb = new StringBuilder(
                "run,phase,start_s,seconds,ops_per_s,p50_ms,p99_ms,errors,wrong_answers,harness_cpu_pct,server_cpu_pct,server_rss_kb\n");
        for (BenchResult.Run run : r.runs()) {
            for (BenchResult.Interval i : run.intervals()) {
                sb.append(run.run())
                        .append(',')
                        .append(i.phase())
                        .append(',')
                        .append(num(i.startSeconds()))
                        .append(',')
                        .append(num(i.seconds()))
                        .append(',')
                        .append(num(i.opsPerSecond()))
                        .append(',')
                        .append(num(i.p50Ms()))
                        .append(',')
                        .append(num(i.p99Ms()))
                        .append(',')
                        .append(i.errors())
                        .append(',')
                        .append(i.wrongAnswers())
                        .append(',')
                        .append(i.harnessCpuPercent() == null ? "" : num(i.harnessCpuPercent()))
                        .append(',')
                        .append(i.serverCpuPercent() == null ? "" : num(i.serverCpuPercent()))
                        .append(',')
                        .append(i.serverRssKb() == null ? "" : i.serverRssKb())
                        .append('\n');
            }
        }
        return sb.toString();
    }

    public static void write(BenchResult r, Path dir) throws IOException {
        Files.writeString(dir.resolve("result.csv"), results(r), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("intervals.csv"), intervals(r), StandardCharsets.UTF_8);
    }

    private static void row(
            StringBuilder sb,
            String run,
            int clients,
            int threads,
            String op,
            long ops,
            double opsPerSec,
            Latency l,
            double entries,
            long partial,
            long wrong,
            long errors,
            String resourceCells) {
        sb.append(run)
                .append(',')
                .append(clients)
                .append(',')
                .append(threads)
                .append(',')
                .append(quote(op))
                .append(',')
                .append(ops < 0 ? "" : Long.toString(ops))
                .append(',')
                .append(num(opsPerSec))
                .append(',')
                .append(num(l.mean()))
                .append(',')
                .append(num(l.p50()))
                .append(',')
                .append(num(l.p90()))
                .append(',')
                .append(num(l.p99()))
                .append(',')
                .append(num(l.p999()))
                .append(',')
                .append(num(l.max()))
                .append(',')
                .append(Double.isNaN(entries) ? "" : num(entries))
                .append(',')
                .append(partial < 0 ? "" : Long.toString(partial))
                .append(',')
                .append(wrong < 0 ? "" : Long.toString(wrong))
                .append(',')
                .append(errors < 0 ? "" : Long.toString(errors))
                .append(resourceCells)
                .append('\n');
    }

    static String num(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    /** RFC 4180 quoting for names that contain a comma, quote or line break. */
    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
