package dev.larch.bench.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * The latency histograms (nanoseconds, successful requests) of one measured run: all operations
 * together, each operation by name, and connection setup. Held in memory beside a {@link
 * BenchResult.Run} so that summaries and merges combine runs by adding histograms instead of
 * averaging percentiles; on disk they live in histograms.hlog, never in result.json.
 *
 * @param all every operation's successful requests
 * @param operations per operation, in mix order
 * @param connections connect + bind
 */
public record RunHistograms(Histogram all, Map<String, Histogram> operations, Histogram connections) {
    public RunHistograms {
        operations = Collections.unmodifiableMap(new LinkedHashMap<>(operations));
    }

    /** An empty histogram with the harness's precision (three significant digits, auto-resizing). */
    public static Histogram empty() {
        return new Histogram(3);
    }

    /** A new histogram holding the sum of {@code parts}; the parts are not changed. */
    public static Histogram sum(Iterable<Histogram> parts) {
        Histogram total = empty();
        for (Histogram h : parts) {
            total.add(h);
        }
        return total;
    }
}
