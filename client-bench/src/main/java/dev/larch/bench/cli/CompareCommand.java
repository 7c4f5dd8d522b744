package dev.larch.bench.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.CompareTable;
import dev.larch.bench.report.JsonReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ./larch bench compare A.json B.json}: percent improvement of B over A. */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = "Print the percent-improvement table of result B over result A, operation by operation.")
final class CompareCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "A.json", description = "Baseline result.")
    Path a;

    @Parameters(index = "1", paramLabel = "B.json", description = "Result compared with the baseline.")
    Path b;

    @Override
    public Integer call() {
        BenchResult ra = JsonReport.read(a);
        BenchResult rb = JsonReport.read(b);
        System.out.print(CompareTable.render(ra, a.toString(), rb, b.toString()));
        return 0;
    }
}
