package dev.larch.bench.cli;

import java.io.PrintStream;
import java.util.Locale;

import dev.larch.bench.report.BenchResult;

/** Prints the wrong answers of each run's operations, so a user sees what was wrong without opening result.json. */
final class WrongExamples {
    private WrongExamples() {}

    static void print(BenchResult result, PrintStream out) {
        for (BenchResult.Run run : result.runs()) {
            for (BenchResult.Operation op : run.operations()) {
                if (op.wrongAnswers() == 0) {
                    continue;
                }
                out.printf(
                        Locale.ROOT,
                        "run %d: %d wrong answers in %s, e.g.:%n",
                        run.run(),
                        op.wrongAnswers(),
                        op.name());
                op.wrongExamples().forEach(e -> out.println("    " + e));
            }
        }
    }
}
