package dev.larch.jmh.compare;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Whether a freshly recorded run is precise enough to be a baseline: every benchmark's error at
 * most {@link Comparison#BASELINE_MAX_ERROR_PERCENT} of its score. A wider one could hide a
 * regression of that size, and {@code --compare} would call it "baseline too noisy".
 */
public final class BaselineNoise {
    private BaselineNoise() {}

    /** The scores whose error is unknown or above the limit, in the file's order. */
    public static List<Score> tooNoisy(List<Score> scores) {
        return scores.stream()
                .filter(s -> !(s.relativeError() * 100 <= Comparison.BASELINE_MAX_ERROR_PERCENT))
                .toList();
    }

    /**
     * What {@code --record-baseline} prints after the run: the verdict and, if any, the noisy
     * benchmarks with the command that records just them again.
     *
     * @param quick whether this is the quick baseline ({@code --quick}), which the command must name
     */
    public static String report(String file, List<Score> scores, boolean quick) {
        List<Score> noisy = tooNoisy(scores);
        StringBuilder out = new StringBuilder();
        if (noisy.isEmpty()) {
            out.append(String.format(
                    Locale.ROOT,
                    "Baseline %s: all %d benchmarks have an error of at most %s of their score.%n",
                    file,
                    scores.size(),
                    Comparison.percent(Comparison.BASELINE_MAX_ERROR_PERCENT)));
            return out.toString();
        }
        out.append(String.format(
                Locale.ROOT,
                "Baseline %s is too noisy: %d of %d benchmarks have an error above %s of their score:%n",
                file,
                noisy.size(),
                scores.size(),
                Comparison.percent(Comparison.BASELINE_MAX_ERROR_PERCENT)));
        for (Score s : noisy) {
            out.append("  ").append(s.displayName()).append("  ").append(Report.score(s));
            if (Double.isFinite(s.relativeError())) {
                out.append(String.format(Locale.ROOT, "  (±%.0f%%)", s.relativeError() * 100));
            }
            out.append('\n');
        }
        out.append("Comparisons will call them \"baseline too noisy\". Before committing, record just these")
                .append(" again with more forks on a quiet machine; the rest of the file stays as it is:\n")
                .append(
                        quick
                                ? "  ./larch jmh --quick --record-baseline -f 10 '"
                                : "  ./larch jmh --record-baseline -f 10 '")
                .append(pattern(noisy))
                .append("'\n");
        return out.toString();
    }

    /** A benchmark regex that matches exactly these benchmarks (every param set of each). */
    static String pattern(List<Score> scores) {
        return scores.stream()
                .map(s -> s.benchmark()
                                .substring(s.benchmark()
                                                .lastIndexOf('.', s.benchmark().lastIndexOf('.') - 1)
                                        + 1)
                        + "$")
                .distinct()
                .collect(Collectors.joining("|"));
    }
}
