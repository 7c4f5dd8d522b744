package dev.larch.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import dev.larch.jmh.compare.BaselineNoise;
import dev.larch.jmh.compare.BaselineUpdate;
import dev.larch.jmh.compare.Comparison;
import dev.larch.jmh.compare.Report;
import dev.larch.jmh.compare.ResultFile;
import dev.larch.jmh.compare.RoundsMerge;
import dev.larch.jmh.compare.Score;
import dev.larch.jmh.data.GeneratedDirectory;
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
 * a result against a baseline, or records a baseline. Exit status: 0 fine, 1 a regression (or a
 * recorded baseline too noisy to judge against), 2 a usage, run or file error.
 */
public final class JmhMain {
    /** Store size of a quick run: ten units of people, built in a few seconds per store benchmark. */
    static final String QUICK_ENTRIES = "10000";
    /**
     * A quick run's measurement: many short iterations rather than few long ones, because JMH's
     * 99.9% error shrinks fast with the count (Student's t for 7 degrees of freedom is 5.4, for 2 it
     * is 31.6), so the same 2 s per benchmark gives error bars narrow enough to judge.
     */
    static final int QUICK_MEASUREMENT_ITERATIONS = 8;

    static final TimeValue QUICK_MEASUREMENT_TIME = TimeValue.milliseconds(250);
    /** Forks of a recorded full baseline: fork-to-fork variation is part of the error it must bound. */
    static final int RECORD_FORKS = 5;
    /**
     * Measurement of a recorded full baseline: ten 1 s iterations per fork instead of the classes'
     * five of 2 s. The same time gives twice the samples, and the error JMH reports falls with their
     * count: with 3 forks of 5 x 2 s, 14 of 26 benchmarks had an error above 10%.
     */
    static final int RECORD_MEASUREMENT_ITERATIONS = 10;

    static final TimeValue RECORD_MEASUREMENT_TIME = TimeValue.seconds(1);
    /** Forks of a recorded quick baseline: its iterations are short, so it needs more of them. */
    static final int RECORD_QUICK_FORKS = 5;

    private JmhMain() {}

    /** Environment: a folder that keeps generated stores across runs of the same build; its owner deletes it. */
    static final String STORE_CACHE_ENV = "LARCH_JMH_STORE_CACHE";

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length > 0 && args[0].equals("--merge")) {
            return merge(args);
        }
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
            if (launch.recordBaseline()) {
                List<Score> recorded = ResultFile.read(result);
                System.out.println();
                System.out.print(BaselineNoise.report(result.toString(), recorded, launch.quick()));
                return BaselineNoise.tooNoisy(recorded).isEmpty() ? 0 : 1;
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

    /** {@code --merge OUT.json IN.json...}: pools the rounds of a comparison ({@link RoundsMerge}). */
    private static int merge(String[] args) {
        if (args.length < 3) {
            System.err.println("larch jmh: --merge needs OUT.json and at least one IN.json");
            return 2;
        }
        List<Path> inputs = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            inputs.add(Path.of(args[i]));
        }
        try {
            int benchmarks = RoundsMerge.merge(Path.of(args[1]), inputs);
            System.out.println(
                    "larch jmh: pooled " + inputs.size() + " results of " + benchmarks + " benchmarks into " + args[1]);
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("larch jmh: " + e.getMessage());
            return 2;
        }
    }

    /** Runs the suite; returns the JSON file, or null when JMH only listed or explained something. */
    private static Path runSuite(LauncherArgs launch) throws CommandLineOptionException, RunnerException, IOException {
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
        Path folder = resultFile.toAbsolutePath().getParent();
        if (folder != null && !Files.isDirectory(folder)) {
            // Found before a run that may take an hour, not after.
            throw new CommandLineOptionException("no folder " + folder + " for the results"
                    + (launch.recordBaseline() ? ": run from the repository root, or give -rff FILE" : ""));
        }
        // Recording some benchmarks (a pattern given) into a baseline that exists updates their
        // entries and keeps the others; JMH itself would overwrite the file with just these.
        boolean updatesBaseline = launch.recordBaseline() && !cli.getIncludes().isEmpty() && Files.exists(resultFile);
        Path jmhResult = updatesBaseline ? Files.createTempFile("larch-jmh-recorded-", ".json") : resultFile;
        ChainedOptionsBuilder options = new OptionsBuilder()
                .parent(cli)
                .resultFormat(ResultFormatType.JSON)
                .result(jmhResult.toString());
        if (!cli.shouldFailOnError().hasValue()) {
            options.shouldFailOnError(true);
        }
        if (launch.recordBaseline() && !cli.getForkCount().hasValue()) {
            options.forks(launch.quick() ? RECORD_QUICK_FORKS : RECORD_FORKS);
        }
        if (launch.quick()) {
            quick(cli, options, !launch.recordBaseline());
        } else if (launch.recordBaseline()) {
            recordMeasurement(cli, options);
        }
        Path storeCache = shareStores(cli, options);
        try {
            Collection<RunResult> results = new Runner(options.build()).run();
            if (results.isEmpty()) {
                throw new RunnerException("no benchmark matched " + cli.getIncludes());
            }
        } finally {
            deleteTree(storeCache);
        }
        if (updatesBaseline) {
            try {
                int replaced = BaselineUpdate.merge(resultFile, jmhResult);
                System.out.println(
                        "larch jmh: recorded " + ResultFile.read(jmhResult).size() + " benchmarks into " + resultFile
                                + " (" + replaced + " replaced, the others kept)");
            } finally {
                Files.deleteIfExists(jmhResult);
            }
        }
        return resultFile;
    }

    /**
     * Gives this run's forks a folder to share generated stores in ({@link GeneratedDirectory}): the
     * first store benchmark builds, the others copy. Returns the folder, deleted after the run; or,
     * when {@value #STORE_CACHE_ENV} names a folder (the rounds of {@code --compare-with}, which run
     * the same code several times), uses that one and returns null: its owner deletes it.
     */
    private static Path shareStores(CommandLineOptions cli, ChainedOptionsBuilder options) throws RunnerException {
        String kept = System.getenv(STORE_CACHE_ENV);
        Path folder;
        try {
            folder = kept == null || kept.isBlank()
                    ? Files.createTempDirectory("larch-jmh-stores-")
                    : Files.createDirectories(Path.of(kept));
        } catch (IOException e) {
            throw new RunnerException("cannot create a folder for the run's stores: " + e.getMessage(), e);
        }
        List<String> prepend = new ArrayList<>();
        if (cli.getJvmArgsPrepend().hasValue()) {
            prepend.addAll(cli.getJvmArgsPrepend().get());
        }
        prepend.add("-D" + GeneratedDirectory.STORE_CACHE_PROPERTY + "=" + folder);
        options.jvmArgsPrepend(prepend.toArray(String[]::new));
        return kept == null || kept.isBlank() ? folder : null;
    }

    private static void deleteTree(Path folder) {
        if (folder == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("larch jmh: could not delete " + folder + ": " + e.getMessage());
        }
    }

    /**
     * Short settings for a smoke run that still has error bars; explicit JMH options on the command
     * line still win.
     *
     * @param oneFork whether to run one fork (a recorded baseline sets its own count)
     */
    private static void quick(CommandLineOptions cli, ChainedOptionsBuilder options, boolean oneFork) {
        if (oneFork && !cli.getForkCount().hasValue()) {
            options.forks(1);
        }
        if (!cli.getWarmupIterations().hasValue()) {
            options.warmupIterations(1);
        }
        if (!cli.getWarmupTime().hasValue()) {
            options.warmupTime(TimeValue.seconds(1));
        }
        if (!cli.getMeasurementIterations().hasValue()) {
            options.measurementIterations(QUICK_MEASUREMENT_ITERATIONS);
        }
        if (!cli.getMeasurementTime().hasValue()) {
            options.measurementTime(QUICK_MEASUREMENT_TIME);
        }
        if (!cli.getParameter("entries").hasValue()) {
            options.param("entries", QUICK_ENTRIES);
        }
    }

    /** A full baseline's measurement; explicit JMH options on the command line still win. */
    private static void recordMeasurement(CommandLineOptions cli, ChainedOptionsBuilder options) {
        if (!cli.getMeasurementIterations().hasValue()) {
            options.measurementIterations(RECORD_MEASUREMENT_ITERATIONS);
        }
        if (!cli.getMeasurementTime().hasValue()) {
            options.measurementTime(RECORD_MEASUREMENT_TIME);
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
