package dev.larch.jmh.compare;

import java.util.Map;

/** Converts JMH score units ({@code ns/op}, {@code ops/ms}, ...) so two runs can be compared. */
final class Units {
    private static final Map<String, Double> SECONDS =
            Map.of("ns", 1e-9, "us", 1e-6, "ms", 1e-3, "s", 1.0, "min", 60.0, "hr", 3600.0);

    private Units() {}

    /**
     * The factor that turns a value in {@code from} into one in {@code to}, or NaN when the units are
     * not the same kind ({@code x/op} time against {@code ops/x} throughput, or unknown).
     */
    static double factor(String from, String to) {
        if (from.equals(to)) {
            return 1.0;
        }
        double f = seconds(from, true);
        double t = seconds(to, true);
        if (Double.isFinite(f) && Double.isFinite(t)) {
            return f / t;
        }
        f = seconds(from, false);
        t = seconds(to, false);
        if (Double.isFinite(f) && Double.isFinite(t)) {
            return t / f;
        }
        return Double.NaN;
    }

    /** The seconds in the time part of {@code unit} when it is a time per op (or ops per time). */
    private static double seconds(String unit, boolean timePerOp) {
        String[] parts = unit.split("/");
        if (parts.length != 2) {
            return Double.NaN;
        }
        String time = timePerOp ? parts[0] : parts[1];
        String ops = timePerOp ? parts[1] : parts[0];
        if (!ops.equals("op") && !ops.equals("ops")) {
            return Double.NaN;
        }
        Double s = SECONDS.get(time);
        return s == null ? Double.NaN : s;
    }
}
