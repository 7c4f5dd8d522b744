package dev.larch.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.CsvReport;
import dev.larch.bench.report.HistogramLogContent;
import dev.larch.bench.report.HistogramLogFile;
import dev.larch.bench.report.HtmlReport;
import dev.larch.bench.report.JsonReport;
import dev.larch.bench.report.ResultMatch;
import dev.larch.bench.report.ResultMerger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./larch bench merge --out DIR DIR1 DIR2...}: one result from several load generators
 * that ran the same workload together. Each input directory must hold result.json and
 * histograms.hlog. Exit 3 when the generators did not run the same workload, unless {@code --force}.
 */
@Command(
        name = "merge",
        mixinStandardHelpOptions = true,
        description = "Combine the results of load generators that ran together: throughput summed, percentiles from"
                + " the merged histograms.")
final class MergeCommand implements Callable<Integer> {
    @Option(
            names = "--out",
            description = "Directory for the merged result.json, CSV, report.html and histograms.hlog.")
    Path out;

    @Option(names = "--force", description = "Merge even if the generators' mix, data, load model or timing differ.")
    boolean force;

    @Parameters(arity = "2..*", paramLabel = "DIR", description = "Each generator's --out directory.")
    List<Path> dirs;

    @Override
    public Integer call() throws IOException {
        if (out == null) {
            throw new BadInputException("--out is required: a directory for the merged result");
        }
        List<ResultMerger.Part> parts = new ArrayList<>();
        for (Path dir : dirs) {
            if (!Files.isDirectory(dir)) {
                throw new BadInputException("not a result directory: " + dir);
            }
            if (Files.exists(out) && Files.isSameFile(out, dir)) {
                throw new BadInputException("--out must not be one of the merged directories: " + dir);
            }
            parts.add(new ResultMerger.Part(
                    dir.toString(),
                    JsonReport.read(dir.resolve("result.json")),
                    HistogramLogContent.read(dir.resolve(HistogramLogFile.NAME))));
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new BadInputException("--out must be a directory: " + out);
        }
        List<String> differences = new ArrayList<>();
        BenchResult first = parts.get(0).result();
        for (ResultMerger.Part p : parts.subList(1, parts.size())) {
            for (String d : ResultMatch.differences(first, p.result(), ResultMatch.MERGE)) {
                differences.add(parts.get(0).dir() + " vs " + p.dir() + ": " + d);
            }
        }
        if (!differences.isEmpty()) {
            if (!force) {
                throw new MismatchException("the generators' results", differences);
            }
            differences.forEach(d -> System.err.println("bench merge: warning (--force): " + d));
        }
        ResultMerger.Merged merged = ResultMerger.merge(parts);
        Files.createDirectories(out);
        try (HistogramLogFile log = HistogramLogFile.create(out.resolve(HistogramLogFile.NAME))) {
            merged.intervals().forEach(log::write);
        }
        BenchResult r = merged.result();
        JsonReport.write(r, out.resolve("result.json"));
        CsvReport.write(r, out);
        HtmlReport.write(r, out.resolve("report.html"));
        BenchResult.Summary s = r.summary();
        System.out.printf(
                Locale.ROOT,
                "merged %d generators (%s): %.1f ops/s, p50 %.3f ms, p99 %.3f ms, spread %.1f%%, wrong %d, errors %d%n",
                parts.size(),
                s.basis(),
                s.opsPerSecond(),
                s.latencyMs().p50(),
                s.latencyMs().p99(),
                s.spreadPercent(),
                s.wrongAnswers(),
                s.errors());
        System.out.println("results: " + out.resolve("result.json") + ", result.csv, intervals.csv, report.html, "
                + HistogramLogFile.NAME);
        return 0;
    }
}
