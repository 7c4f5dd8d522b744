package dev.larch.jmh;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

import dev.larch.jmh.compare.Comparison;
import dev.larch.jmh.compare.Report;
import dev.larch.jmh.compare.ResultFile;
import dev.larch.jmh.compare.Score;
import org.openjdk.jmh.Main;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * {@code ./larch jmh}: runs the benchmark suite (full or quick) and writes JMH's JSON, and/or judges
 * a result against a baseline. Exit status: 0 fine, 1 a regression, 2 a usage, run or file error.
 */
public final class JmhMain {
    /** Store size of a quick run: big enough for every benchmark's targets, small enough to build fast. */
    static final String QUICK_ENTRIES = "20000";

    private JmhMain() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        LauncherArgs launch;
        try {
            launch = LauncherArgs.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("larch jmh: " + e.getMessage());
            System.err.print(LauncherArgs.USAGE);
            return 2;
        }
        if (launch.help()) {
            System.out.print(LauncherArgs.USAGE);
            return 0;
        }
        try {
            Path result = launch.runsSuite() ? runSuite(launch) : launch.against();
            if (result == null) {
                return 0;
            }
            if (launch.baseline() == null) {
                System.out.println(
                        "larch jmh: results in " + result.toAbsolutePath().normalize());
                return 0;
            }
            return compare(launch.baseline(), result, launch.thresholdPercent());
        } catch (CommandLineOptionException e) {
            System.err.println("larch jmh: " + e.getMessage());
            return 2;
        } catch (RunnerException e) {
            System.err.println("larch jmh: the benchmark run failed: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            System.err.println("larch jmh: " + e.getMessage());
            return 2;
        }
    }

    /** Runs the suite; returns the JSON file, or null when JMH only listed or explained something. */
    private static Path runSuite(LauncherArgs launch) throws CommandLineOptionException, RunnerException {
        CommandLineOptions cli = new CommandLineOptions(launch.jmhArgs().toArray(String[]::new));
        if (cli.shouldHelp()
                || cli.shouldList()
                || cli.shouldListWithParams()
                || cli.shouldListProfilers()
                || cli.shouldListResultFormats()) {
            // JMH's own informational commands, handled by its own main.
            try {
                Main.main(launch.jmhArgs().toArray(String[]::new));
            } catch (Exception e) {
                throw new RunnerException(e);
            }
            return null;
        }
        Path resultFile = launch.effectiveResultFile();
        ChainedOptionsBuilder options = new OptionsBuilder()
                .parent(cli)
                .resultFormat(ResultFormatType.JSON)
                .result(resultFile.toString());
        if (!cli.shouldFailOnError().hasValue()) {
            options.shouldFailOnError(true);
        }
        if (launch.quick()) {
            quick(cli, options);
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        if (results.isEmpty()) {
            throw new RunnerException("no benchmark matched " + cli.getIncludes());
        }
        return resultFile;
    }

    /** Short settings for a smoke run; explicit JMH options on the command line still win. */
    private static void quick(CommandLineOptions cli, ChainedOptionsBuilder options) {
        if (!cli.getForkCount().hasValue()) {
            options.forks(1);
        }
        if (!cli.getWarmupIterations().hasValue()) {
            options.warmupIterations(1);
        }
        if (!cli.getWarmupTime().hasValue()) {
            options.warmupTime(TimeValue.seconds(1));
        }
        if (!cli.getMeasurementIterations().hasValue()) {
            options.measurementIterations(2);
        }
        if (!cli.getMeasurementTime().hasValue()) {
            options.measurementTime(TimeValue.seconds(1));
        }
        if (!cli.getParameter("entries").hasValue()) {
            options.param("entries", QUICK_ENTRIES);
        }
    }

    private static int compare(Path baselineFile, Path resultFile, double threshold) throws IOException {
        List<Score> baseline = ResultFile.read(baselineFile);
        List<Score> result = ResultFile.read(resultFile);
        Comparison comparison = Comparison.of(baseline, result, threshold);
        System.out.println();
        System.out.print(Report.render(comparison, baselineFile.toString(), resultFile.toString()));
        return comparison.exitStatus();
    }
}
