package dev.larch.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * Draws the report's charts as inline SVG, so the HTML opens with no network and no scripts.
 * Stateless; every method returns a complete {@code <svg>} element.
 */
final class SvgChart {
    static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"};
    private static final int W = 760;
    private static final int H = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 150;
    private static final int TOP = 30;
    private static final int BOTTOM = 45;

    private SvgChart() {}

    /** One line of a line chart. */
    record Series(String name, double[] x, double[] y) {}

    /**
     * A line chart; {@code shadeTo} greys the x range [0, shadeTo] (the warm-up), none if ≤ 0.
     */
    static String lines(String title, String xLabel, String yLabel, List<Series> series, double shadeTo) {
        double maxX = 0;
        double maxY = 0;
        for (Series s : series) {
            for (double v : s.x()) {
                maxX = Math.max(maxX, v);
            }
            for (double v : s.y()) {
                maxY = Math.max(maxY, v);
            }
        }
        maxX = maxX <= 0 ? 1 : maxX;
        maxY = niceCeiling(maxY);
        StringBuilder sb = frame(title, xLabel, yLabel);
        if (shadeTo > 0) {
            sb.append(String.format(
                    Locale.ROOT,
                    "<rect x='%.1f' y='%d' width='%.1f' height='%d' fill='#eee'/><text x='%.1f' y='%d' font-size='11' fill='#888'>warm-up</text>",
                    (double) LEFT,
                    TOP,
                    px(shadeTo, maxX),
                    H - TOP - BOTTOM,
                    LEFT + 4.0,
                    TOP + 14));
        }
        axes(sb, maxX, maxY);
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String color = COLORS[i % COLORS.length];
            sb.append("<polyline fill='none' stroke-width='2' stroke='")
                    .append(color)
                    .append("' points='");
            for (int k = 0; k < s.x().length; k++) {
                sb.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + px(s.x()[k], maxX), y(s.y()[k], maxY)));
            }
            sb.append("'/>");
            for (int k = 0; k < s.x().length; k++) {
                sb.append(String.format(
                        Locale.ROOT,
                        "<circle cx='%.1f' cy='%.1f' r='2.5' fill='%s'><title>%s: %s, %s</title></circle>",
                        LEFT + px(s.x()[k], maxX),
                        y(s.y()[k], maxY),
                        color,
                        Html.escape(s.name()),
                        fmt(s.x()[k]),
                        fmt(s.y()[k])));
            }
            legend(sb, i, s.name(), color);
        }
        return sb.append("</svg>").toString();
    }

    /**
     * Grouped bars on a log scale: one group per category, one bar per series value. Log scale
     * because p99.9 is often a hundred times p50 and would flatten the rest.
     */
    static String logBars(
            String title, String yLabel, List<String> categories, List<String> seriesNames, double[][] values) {
        double max = 0;
        double min = Double.MAX_VALUE;
        for (double[] row : values) {
            for (double v : row) {
                if (v > 0) {
                    max = Math.max(max, v);
                    min = Math.min(min, v);
                }
            }
        }
        if (max == 0) {
            max = 1;
            min = 0.1;
        }
        int lo = (int) Math.floor(Math.log10(min));
        int hi = (int) Math.ceil(Math.log10(max));
        if (hi == lo) {
            hi++;
        }
        StringBuilder sb = frame(title, "", yLabel);
        double plotH = H - TOP - BOTTOM;
        for (int e = lo; e <= hi; e++) {
            gridLineAt(sb, TOP + plotH - (e - lo) / (double) (hi - lo) * plotH, fmt(Math.pow(10, e)));
        }
        int low = lo;
        int high = hi;
        groupedBars(
                sb,
                categories,
                seriesNames,
                values,
                v -> v <= 0 ? 0 : Math.max(1, (Math.log10(v) - low) / (high - low) * plotH),
                " ms");
        sb.append(String.format(
                Locale.ROOT,
                "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#333'/>",
                LEFT,
                W - RIGHT,
                TOP + plotH,
                TOP + plotH));
        return sb.append("</svg>").toString();
    }

    /** Grouped bars on a linear scale from zero: one group per category, one bar per series value. */
    static String bars(
            String title, String yLabel, List<String> categories, List<String> seriesNames, double[][] values) {
        double max = 0;
        for (double[] row : values) {
            for (double v : row) {
                max = Math.max(max, v);
            }
        }
        max = niceCeiling(max);
        StringBuilder sb = frame(title, "", yLabel);
        double plotH = H - TOP - BOTTOM;
        for (int k = 0; k <= 4; k++) {
            yGridLine(sb, max * k / 4, max);
        }
        double top = max;
        groupedBars(sb, categories, seriesNames, values, v -> Math.max(0, v) / top * plotH, "");
        return sb.append("</svg>").toString();
    }

    /**
     * Draws one group of bars per category, one bar per series, {@code height(value)} pixels tall
     * (negative values drawn as zero), with category labels and the legend; {@code unit} follows
     * each value in its tooltip.
     */
    private static void groupedBars(
            StringBuilder sb,
            List<String> categories,
            List<String> seriesNames,
            double[][] values,
            DoubleUnaryOperator height,
            String unit) {
        double plotH = H - TOP - BOTTOM;
        double plotW = W - LEFT - RIGHT;
        double groupW = plotW / Math.max(1, categories.size());
        double barW = groupW * 0.8 / Math.max(1, seriesNames.size());
        for (int c = 0; c < categories.size(); c++) {
            double gx = LEFT + c * groupW + groupW * 0.1;
            for (int s = 0; s < seriesNames.size(); s++) {
                double v = Math.max(0, values[c][s]);
                double h = height.applyAsDouble(v);
                sb.append(String.format(
                        Locale.ROOT,
                        "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'><title>%s %s: %s%s</title></rect>",
                        gx + s * barW,
                        TOP + plotH - h,
                        barW - 1,
                        h,
                        COLORS[s % COLORS.length],
                        Html.escape(categories.get(c)),
                        Html.escape(seriesNames.get(s)),
                        fmt(v),
                        unit));
            }
            sb.append(String.format(
                    Locale.ROOT,
                    "<text x='%.1f' y='%d' font-size='11' text-anchor='middle'>%s</text>",
                    gx + groupW * 0.4,
                    H - BOTTOM + 15,
                    Html.escape(categories.get(c))));
        }
        for (int s = 0; s < seriesNames.size(); s++) {
            legend(sb, s, seriesNames.get(s), COLORS[s % COLORS.length]);
        }
    }

    private static StringBuilder frame(String title, String xLabel, String yLabel) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d' font-family='sans-serif' role='img'>",
                W,
                H,
                W,
                H));
        sb.append("<title>").append(Html.escape(title)).append("</title>");
        sb.append(String.format(
                Locale.ROOT,
                "<text x='%d' y='18' font-size='14' font-weight='bold'>%s</text>",
                LEFT,
                Html.escape(title)));
        sb.append(String.format(
                Locale.ROOT,
                "<text x='%d' y='%d' font-size='12' text-anchor='middle'>%s</text>",
                LEFT + (W - LEFT - RIGHT) / 2,
                H - 8,
                Html.escape(xLabel)));
        sb.append(String.format(
                Locale.ROOT,
                "<text x='14' y='%d' font-size='12' text-anchor='middle' transform='rotate(-90 14 %d)'>%s</text>",
                TOP + (H - TOP - BOTTOM) / 2,
                TOP + (H - TOP - BOTTOM) / 2,
                Html.escape(yLabel)));
        return sb;
    }

    /** A horizontal grid line at {@code v} on a y axis topped by {@code maxY}, labelled on the left. */
    private static void yGridLine(StringBuilder sb, double v, double maxY) {
        gridLineAt(sb, y(v, maxY), fmt(v));
    }

    /** A horizontal grid line at pixel height {@code yy}, labelled {@code label} on the left. */
    private static void gridLineAt(StringBuilder sb, double yy, String label) {
        sb.append(String.format(
                Locale.ROOT,
                "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/><text x='%d' y='%.1f' font-size='11' text-anchor='end'>%s</text>",
                LEFT,
                W - RIGHT,
                yy,
                yy,
                LEFT - 6,
                yy + 4,
                label));
    }

    private static void axes(StringBuilder sb, double maxX, double maxY) {
        double plotH = H - TOP - BOTTOM;
        for (int k = 0; k <= 4; k++) {
            yGridLine(sb, maxY * k / 4, maxY);
            double xv = maxX * k / 4;
            sb.append(String.format(
                    Locale.ROOT,
                    "<text x='%.1f' y='%.1f' font-size='11' text-anchor='middle'>%s</text>",
                    LEFT + px(xv, maxX),
                    TOP + plotH + 15,
                    fmt(xv)));
        }
        sb.append(String.format(
                Locale.ROOT,
                "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#333'/>",
                LEFT,
                W - RIGHT,
                TOP + plotH,
                TOP + plotH));
    }

    private static void legend(StringBuilder sb, int i, String name, String color) {
        int ly = TOP + 10 + i * 18;
        sb.append(String.format(
                Locale.ROOT,
                "<rect x='%d' y='%d' width='12' height='12' fill='%s'/><text x='%d' y='%d' font-size='12'>%s</text>",
                W - RIGHT + 12,
                ly - 10,
                color,
                W - RIGHT + 30,
                ly,
                Html.escape(name)));
    }

    private static double px(double x, double maxX) {
        return x / maxX * (W - LEFT - RIGHT);
    }

    private static double y(double v, double maxY) {
        double plotH = H - TOP - BOTTOM;
        return TOP + plotH - (maxY <= 0 ? 0 : v / maxY * plotH);
    }

    /** Rounds up to 1, 2 or 5 times a power of ten, for readable axis ticks. */
    static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static String fmt(double v) {
        if (v != 0 && Math.abs(v) < 0.01) {
            return String.format(Locale.ROOT, "%.4f", v);
        }
        if (Math.abs(v) < 10) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
