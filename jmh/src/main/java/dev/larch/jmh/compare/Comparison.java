package dev.larch.jmh.compare;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A new JMH result judged against a baseline, benchmark by benchmark.
 *
 * <p>Each score comes with JMH's error (half its 99.9% confidence interval). A benchmark is
 * {@link Verdict#SLOWER} only when it got worse by more than the threshold <em>and</em> its new
 * interval lies wholly on the worse side of the baseline's: slower beyond both error bars. Faster
 * mirrors that. Anything else is {@link Verdict#BASELINE_NOISY} when the baseline's error is unknown
 * or above {@link #BASELINE_MAX_ERROR_PERCENT} of its score (the baseline needs recording again),
 * {@link Verdict#NOISY} when the result's error bar is wider than the threshold (or unknown), or when
 * the change exceeds the threshold but stays inside the error bars; otherwise {@link Verdict#SAME}.
 * A change beyond both error bars is judged even with a wide baseline bar: it is real either way.
 *
 * <p>Benchmarks are matched by name and params. A benchmark whose params differ between the files
 * (a quick run's smaller store, say) is still paired when each file has it once, with a note.
 *
 * @param rows benchmarks found in both files, in the baseline's order
 * @param onlyInBaseline benchmarks the result lacks (removed, renamed, or not run)
 * @param onlyInResult benchmarks the baseline lacks (new ones)
 * @param thresholdPercent the smallest change, in percent, that counts
 */
public record Comparison(
        List<Row> rows, List<Score> onlyInBaseline, List<Score> onlyInResult, double thresholdPercent) {

    public static final double DEFAULT_THRESHOLD_PERCENT = 10.0;

    /**
     * The largest error, in percent of the score, a baseline benchmark may have to judge against:
     * {@code --record-baseline} reports benchmarks above it, and the comparison calls them
     * {@link Verdict#BASELINE_NOISY}.
     */
    public static final double BASELINE_MAX_ERROR_PERCENT = 10.0;

    public Comparison {
        rows = List.copyOf(rows);
        onlyInBaseline = List.copyOf(onlyInBaseline);
        onlyInResult = List.copyOf(onlyInResult);
    }

    public static Comparison of(List<Score> baseline, List<Score> result, double thresholdPercent) {
        if (!(thresholdPercent > 0)) {
            throw new IllegalArgumentException("threshold must be a positive percentage, was " + thresholdPercent);
        }
        Map<String, Score> unmatchedResult = new LinkedHashMap<>();
        result.forEach(s -> unmatchedResult.put(s.key(), s));
        List<Score> unmatchedBaseline = new ArrayList<>();
        Map<Score, Score> pairs = new LinkedHashMap<>();
        for (Score b : baseline) {
            Score r = unmatchedResult.remove(b.key());
            if (r != null) {
                pairs.put(b, r);
            } else {
                unmatchedBaseline.add(b);
            }
        }
        pairByNameAlone(unmatchedBaseline, unmatchedResult, pairs);

        List<Row> rows = new ArrayList<>();
        for (Score b : baseline) {
            Score r = pairs.get(b);
            if (r != null) {
                rows.add(judge(b, r, thresholdPercent));
            }
        }
        return new Comparison(rows, unmatchedBaseline, List.copyOf(unmatchedResult.values()), thresholdPercent);
    }

    /** Pairs leftovers whose benchmark name occurs exactly once on each side (only the params differ). */
    private static void pairByNameAlone(List<Score> baseline, Map<String, Score> result, Map<Score, Score> pairs) {
        Map<String, Integer> baselineCounts = new HashMap<>();
        baseline.forEach(s -> baselineCounts.merge(s.benchmark(), 1, Integer::sum));
        Map<String, Integer> resultCounts = new HashMap<>();
        result.values().forEach(s -> resultCounts.merge(s.benchmark(), 1, Integer::sum));
        for (var it = baseline.iterator(); it.hasNext(); ) {
            Score b = it.next();
            if (baselineCounts.get(b.benchmark()) != 1 || resultCounts.getOrDefault(b.benchmark(), 0) != 1) {
                continue;
            }
            Score r = result.values().stream()
                    .filter(s -> s.benchmark().equals(b.benchmark()))
                    .findFirst()
                    .orElseThrow();
            result.remove(r.key());
            pairs.put(b, r);
            it.remove();
        }
    }

    static Row judge(Score baseline, Score raw, double thresholdPercent) {
        String paramsNote = baseline.params().equals(raw.params())
                ? ""
                : "params differ:" + baseline.paramText() + " vs" + raw.paramText();
        double factor = Units.factor(raw.unit(), baseline.unit());
        if (Double.isNaN(factor) || !baseline.mode().equals(raw.mode())) {
            return new Row(
                    baseline,
                    raw,
                    Double.NaN,
                    Verdict.NOISY,
                    join(
                            "cannot compare " + raw.mode() + " " + raw.unit() + " with " + baseline.mode() + " "
                                    + baseline.unit(),
                            paramsNote));
        }
        Score result = new Score(
                raw.benchmark(), raw.params(), raw.mode(), raw.score() * factor, raw.error() * factor, baseline.unit());
        double old = baseline.score();
        double now = result.score();
        double change = old > 0 ? (now - old) / old * 100 : Double.NaN;
        if (!Double.isFinite(change)) {
            return new Row(baseline, result, change, Verdict.NOISY, join("baseline score is not positive", paramsNote));
        }
        double threshold = thresholdPercent / 100;
        double oldErr = baseline.error();
        double newErr = result.error();
        if (Double.isNaN(oldErr)) {
            return new Row(
                    baseline,
                    result,
                    change,
                    Verdict.BASELINE_NOISY,
                    join("no error estimate in the baseline: JMH needs 3 or more measurement iterations", paramsNote));
        }
        if (Double.isNaN(newErr)) {
            return new Row(
                    baseline,
                    result,
                    change,
                    Verdict.NOISY,
                    join("no error estimate: JMH needs 3 or more measurement iterations", paramsNote));
        }
        // Positive when worse: more time per op, or fewer ops per time.
        double worse = baseline.higherIsBetter() ? -change : change;
        boolean worseBeyondErrors =
                baseline.higherIsBetter() ? now + newErr < old - oldErr : now - newErr > old + oldErr;
        boolean betterBeyondErrors =
                baseline.higherIsBetter() ? now - newErr > old + oldErr : now + newErr < old - oldErr;
        if (worse > thresholdPercent && worseBeyondErrors) {
            return new Row(baseline, result, change, Verdict.SLOWER, paramsNote);
        }
        if (-worse > thresholdPercent && betterBeyondErrors) {
            return new Row(baseline, result, change, Verdict.FASTER, paramsNote);
        }
        double oldRelative = oldErr / old;
        double newRelative = now > 0 ? newErr / now : Double.POSITIVE_INFINITY;
        if (oldRelative * 100 > BASELINE_MAX_ERROR_PERCENT) {
            return new Row(
                    baseline,
                    result,
                    change,
                    Verdict.BASELINE_NOISY,
                    join(
                            String.format(
                                    Locale.ROOT,
                                    "baseline error ±%.0f%% is above %s of its score",
                                    oldRelative * 100,
                                    percent(BASELINE_MAX_ERROR_PERCENT)),
                            paramsNote));
        }
        if (Math.max(oldRelative, newRelative) > threshold) {
            String side = oldRelative >= newRelative ? "baseline" : "result";
            return new Row(
                    baseline,
                    result,
                    change,
                    Verdict.NOISY,
                    join(
                            String.format(
                                    Locale.ROOT,
                                    "%s error ±%.0f%% is wider than the %s threshold",
                                    side,
                                    Math.max(oldRelative, newRelative) * 100,
                                    percent(thresholdPercent)),
                            paramsNote));
        }
        if (Math.abs(worse) > thresholdPercent) {
            return new Row(
                    baseline,
                    result,
                    change,
                    Verdict.NOISY,
                    join("change beyond the threshold but inside the error bars", paramsNote));
        }
        return new Row(baseline, result, change, Verdict.SAME, paramsNote);
    }

    private static String join(String a, String b) {
        return b.isEmpty() ? a : a + "; " + b;
    }

    static String percent(double p) {
        return p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f%%", p) : String.format(Locale.ROOT, "%.1f%%", p);
    }

    public List<Row> withVerdict(Verdict verdict) {
        return rows.stream().filter(r -> r.verdict() == verdict).toList();
    }

    /** True when some benchmark is slower beyond its error bars and the threshold. */
    public boolean hasRegression() {
        return !withVerdict(Verdict.SLOWER).isEmpty();
    }

    /** The process exit status the gate uses: 1 on a regression, else 0. */
    public int exitStatus() {
        return hasRegression() ? 1 : 0;
    }
}
