package dev.larch.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.CompareHtml;
import dev.larch.bench.report.CompareTable;
import dev.larch.bench.report.JsonReport;
import dev.larch.bench.report.ResultMatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./larch bench compare A B}: percent improvement of B over A, after checking that both
 * measured the same thing (mix, data, load model, clients × threads, connection model, ramp vs
 * fixed, basis). Exit codes: 0 compared, 2 bad input (a missing or unreadable result), 3 the
 * results differ and {@code --force} was not given.
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = "Print the percent-improvement table of result B over result A, operation by operation, and"
                + " write an HTML comparison. Exit 3 if they did not measure the same thing (unless --force).")
final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "A", description = "Baseline: a result.json or the directory holding it.")
    Path a;

    @Parameters(
            index = "1",
            paramLabel = "B",
            description = "Compared with the baseline: a result.json or its directory.")
    Path b;

    @Option(
            names = "--html",
            paramLabel = "FILE",
            defaultValue = "compare.html",
            description = "HTML comparison to write (default ${DEFAULT-VALUE}, in the current directory).")
    Path html;

    @Option(
            names = "--force",
            description = "Compare even if mix, data, load or basis differ (differences are listed).")
    boolean force;

    @Override
    public Integer call() throws IOException {
        Path fa = resultFile(a);
        Path fb = resultFile(b);
        BenchResult ra = JsonReport.read(fa);
        BenchResult rb = JsonReport.read(fb);
        if (Files.isDirectory(html)) {
            throw new BadInputException("--html must be a file, not a directory: " + html);
        }
        List<String> differences = ResultMatch.differences(ra, rb, ResultMatch.COMPARE);
        if (!differences.isEmpty() && !force) {
            throw new MismatchException("A and B", differences);
        }
        differences.forEach(d -> System.out.println("warning (--force): A and B differ in " + d));
        System.out.print(CompareTable.render(ra, fa.toString(), rb, fb.toString()));
        CompareHtml.write(ra, fa.toString(), rb, fb.toString(), differences, html);
        System.out.println("comparison: " + html);
        return 0;
    }

    private static Path resultFile(Path p) {
        return Files.isDirectory(p) ? p.resolve("result.json") : p;
    }
}
