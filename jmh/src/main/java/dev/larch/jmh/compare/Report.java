package dev.larch.jmh.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Renders a {@link Comparison} as the plain-text table and summary that {@code ./larch jmh --compare} prints. */
public final class Report {
    private static final String[] HEADER = {"benchmark", "baseline", "result", "change", "verdict"};

    private Report() {}

    public static String render(Comparison c, String baselineName, String resultName) {
        StringBuilder out = new StringBuilder();
        out.append("Comparing ")
                .append(resultName)
                .append(" with the baseline ")
                .append(baselineName)
                .append(" (threshold ")
                .append(Comparison.percent(c.thresholdPercent()))
                .append("; ± is JMH's 99.9% error)\n\n");
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (Row r : c.rows()) {
            lines.add(new String[] {
                r.name(),
                score(r.baseline()),
                score(r.result()),
                change(r.changePercent()),
                r.verdict().label() + (r.note().isEmpty() ? "" : " (" + r.note() + ")")
            });
        }
        table(out, lines);
        if (!c.onlyInBaseline().isEmpty()) {
            out.append("\nOnly in the baseline (not in this result): ")
                    .append(names(c.onlyInBaseline()))
                    .append('\n');
        }
        if (!c.onlyInResult().isEmpty()) {
            out.append("\nOnly in this result (no baseline yet): ")
                    .append(names(c.onlyInResult()))
                    .append('\n');
        }
        out.append('\n').append(summary(c)).append('\n');
        return out.toString();
    }

    private static String summary(Comparison c) {
        int slower = c.withVerdict(Verdict.SLOWER).size();
        int noisy = c.withVerdict(Verdict.NOISY).size();
        List<Row> baselineNoisy = c.withVerdict(Verdict.BASELINE_NOISY);
        StringBuilder s = new StringBuilder(String.format(
                Locale.ROOT,
                "%d slower, %d faster, %d same, %d noisy, %d baseline too noisy",
                slower,
                c.withVerdict(Verdict.FASTER).size(),
                c.withVerdict(Verdict.SAME).size(),
                noisy,
                baselineNoisy.size()));
        if (!c.onlyInBaseline().isEmpty() || !c.onlyInResult().isEmpty()) {
            s.append(String.format(
                    Locale.ROOT,
                    ", %d missing from the result, %d without a baseline",
                    c.onlyInBaseline().size(),
                    c.onlyInResult().size()));
        }
        s.append(".\n");
        if (noisy > 0) {
            s.append(
                            noisy == c.rows().size()
                                    ? "The noise is too high to judge any benchmark"
                                    : "The noise is too high to judge " + noisy + " of "
                                            + c.rows().size() + " benchmarks")
                    .append(
                            ": their error bars are unknown, wider than the threshold, or hide the change. Rerun on a quieter")
                    .append(" machine, or with more iterations and forks (e.g. -f 2 -i 10), before trusting them.\n");
        }
        if (!baselineNoisy.isEmpty()) {
            s.append("WARNING: the baseline is too noisy to judge ")
                    .append(baselineNoisy.stream().map(Row::name).collect(Collectors.joining(", ")))
                    .append(" (error unknown or above ")
                    .append(Comparison.percent(Comparison.BASELINE_MAX_ERROR_PERCENT))
                    .append(" of the score). Record the baseline again on a quiet machine")
                    .append(" (./larch jmh --record-baseline, with --quick for the quick one).\n");
        }
        if (slower > 0) {
            s.append("REGRESSION: ")
                    .append(c.withVerdict(Verdict.SLOWER).stream()
                            .map(r -> r.name() + " " + change(r.changePercent()))
                            .collect(Collectors.joining(", ")))
                    .append(" slower than the baseline beyond both error bars and the threshold.");
        } else {
            s.append("No regression beyond the error bars and the threshold.");
        }
        return s.toString();
    }

    private static String names(List<Score> scores) {
        return scores.stream().map(Score::displayName).collect(Collectors.joining(", "));
    }

    static String score(Score s) {
        String error = Double.isNaN(s.error()) ? "?" : number(s.error());
        return number(s.score()) + " ± " + error + " " + s.unit();
    }

    private static String number(double v) {
        double a = Math.abs(v);
        if (a >= 100 || a == 0) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    private static String change(double p) {
        return Double.isFinite(p) ? String.format(Locale.ROOT, "%+.1f%%", p) : "n/a";
    }

    private static void table(StringBuilder out, List<String[]> lines) {
        int[] width = new int[HEADER.length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        for (String[] l : lines) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                boolean numeric = i == 1 || i == 2 || i == 3;
                String cell = numeric ? " ".repeat(width[i] - l[i].length()) + l[i] : l[i];
                line.append(cell);
                if (i < l.length - 1) {
                    line.append(numeric ? "  " : " ".repeat(width[i] - l[i].length() + 2));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
