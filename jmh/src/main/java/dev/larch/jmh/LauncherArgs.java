package dev.larch.jmh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.larch.jmh.compare.Comparison;

/**
 * The arguments of {@code ./larch jmh}: ours ({@code --quick}, {@code --compare}, {@code --against},
 * {@code --threshold}, {@code --record-baseline}) and the result file ({@code -rff}); everything else
 * goes to JMH unchanged.
 *
 * @param resultFile where JMH writes its JSON (null: the default for the mode)
 * @param baseline with {@code --compare}: the baseline to judge against; null otherwise
 * @param against with {@code --against}: an existing result to judge instead of running the suite
 * @param recordBaseline with {@code --record-baseline}: run with more forks, write the committed
 *     baseline of the mode and check that every error is small enough to judge against
 */
public record LauncherArgs(
        boolean quick,
        Path baseline,
        Path against,
        double thresholdPercent,
        Path resultFile,
        List<String> jmhArgs,
        boolean help,
        boolean recordBaseline) {

    /** Where {@code --record-baseline} writes the full suite's baseline, from the repository root. */
    public static final Path FULL_BASELINE = Path.of("jmh", "baseline", "baseline.json");
    /** Where {@code --quick --record-baseline} writes the quick run's baseline. */
    public static final Path QUICK_BASELINE = Path.of("jmh", "baseline", "quick-baseline.json");

    public static final String USAGE = """
            usage: ./larch jmh [--quick] [-rff FILE] [JMH options] [BENCHMARK REGEX...]
                   ./larch jmh --compare BASELINE.json [--against RESULT.json] [--threshold PCT] [--quick] [JMH options]
                   ./larch jmh [--quick] --record-baseline [JMH options]
                   ./larch jmh --compare-with REV [--rounds N] [--threshold PCT] [--quick] [JMH options]
                   ./larch jmh --merge OUT.json IN.json...

              (no option)       run the full suite; JMH's JSON goes to jmh-result.json (or -rff FILE)
              --quick           every benchmark briefly, with error bars: 1 fork, 1 warm-up iteration of 1 s
                                and 8 measurement iterations of 250 ms, stores of 10,000 people; JSON to
                                jmh-quick-result.json (or -rff FILE). Compare it with the quick baseline.
              --compare FILE    judge a result against this baseline: a table of each benchmark's change with
                                its error bars; exit status 1 when one is slower beyond both error bars and
                                the threshold. Without --against, runs the suite first. Benchmarks whose
                                baseline error is above 10% of the score are "baseline too noisy" (a warning).
              --record-baseline run the suite (or with --quick the quick run) with 5 forks, measuring 10 x 1 s
                                (quick: its own settings) unless -f/-i/-r say otherwise, write
                                jmh/baseline/baseline.json (quick: quick-baseline.json; run from the repository
                                root) or -rff FILE, and list every benchmark whose error is above 10% of its
                                score: exit status 1 when there is one. With a BENCHMARK REGEX, only those are
                                recorded: they replace their entries in the existing baseline, the rest stay.
              --compare-with REV  the regression check in one sitting: builds commit REV from git under
                                target/jmh-base/, runs its benchmarks and the working tree's in N alternating
                                rounds (default 3) of one fork each, pools each side's forks (--merge) and
                                judges the working tree against REV as --compare does; results and pooled
                                files in target/jmh-rounds/. Prefer it to a stored baseline: results of two
                                sittings on one machine can differ by more than the threshold.
              --merge OUT IN... pool the forks of several results of the same benchmarks into OUT
              --against FILE    the result to judge (no run)
              --threshold PCT   smallest change that counts, in percent (default 10)
              -h, --help        this text; JMH's own options: ./larch jmh -h-jmh
            """;

    public LauncherArgs {
        jmhArgs = List.copyOf(jmhArgs);
    }

    /** @throws IllegalArgumentException with a message for the user when the arguments do not fit */
    public static LauncherArgs parse(String... args) {
        boolean quick = false;
        boolean help = false;
        boolean record = false;
        Path baseline = null;
        Path against = null;
        Path resultFile = null;
        double threshold = Comparison.DEFAULT_THRESHOLD_PERCENT;
        List<String> jmh = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--record-baseline" -> record = true;
                case "--compare" -> baseline = Path.of(value(args, ++i, a));
                case "--against" -> against = Path.of(value(args, ++i, a));
                case "--threshold" -> threshold = threshold(value(args, ++i, a));
                case "-rff" -> resultFile = Path.of(value(args, ++i, a));
                case "-h", "--help" -> help = true;
                case "-h-jmh" -> jmh.add("-h");
                default -> jmh.add(a);
            }
        }
        if (against != null && baseline == null) {
            throw new IllegalArgumentException("--against needs --compare BASELINE.json");
        }
        if (record && baseline != null) {
            throw new IllegalArgumentException(
                    "--record-baseline writes a baseline; compare a result with it afterwards (--compare)");
        }
        return new LauncherArgs(quick, baseline, against, threshold, resultFile, jmh, help, record);
    }

    /** Whether the suite must run: always, unless an existing result is compared. */
    public boolean runsSuite() {
        return against == null;
    }

    /** Where this invocation's JMH JSON goes. */
    public Path effectiveResultFile() {
        if (resultFile != null) {
            return resultFile;
        }
        if (recordBaseline) {
            return quick ? QUICK_BASELINE : FULL_BASELINE;
        }
        return Path.of(quick ? "jmh-quick-result.json" : "jmh-result.json");
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("-")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static double threshold(String text) {
        String t = text.endsWith("%") ? text.substring(0, text.length() - 1) : text;
        try {
            double v = Double.parseDouble(t);
            if (v > 0 && Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--threshold needs a positive percentage, e.g. 10, was '" + text + "'");
    }
}
