package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.unboundid.ldap.sdk.ResultCode;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.Stats;
import org.HdrHistogram.Histogram;

/** Sums interval snapshots of one operation over a measured run. Not thread-safe. */
final class OpTotals {
    private final Histogram latency = new Histogram(OpMetrics.SIGNIFICANT_DIGITS);
    private final Map<Integer, Long> errors = new TreeMap<>();
    private long entries;
    private long partial;
    private long wrong;
    private final List<String> wrongExamples = new ArrayList<>();

    void add(OpMetrics.Snapshot s) {
        latency.add(s.latency());
        entries += s.entries();
        partial += s.partial();
        wrong += s.wrong();
        for (String e : s.wrongExamples()) {
            if (wrongExamples.size() < OpMetrics.EXAMPLES) {
                wrongExamples.add(e);
            }
        }
        s.errors().forEach((code, n) -> errors.merge(code, n, Long::sum));
    }

    Histogram latency() {
        return latency;
    }

    long successes() {
        return latency.getTotalCount();
    }

    long wrong() {
        return wrong;
    }

    long partial() {
        return partial;
    }

    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    Map<Integer, Long> errors() {
        return errors;
    }

    BenchResult.Operation toOperation(String name, double seconds) {
        long ops = successes();
        return new BenchResult.Operation(
                name,
                ops,
                seconds > 0 ? ops / seconds : 0,
                Stats.latency(latency),
                ops == 0 ? 0 : (double) entries / ops,
                partial,
                wrong,
                errorCount(),
                label(errors),
                List.copyOf(wrongExamples));
    }

    /** Result codes as "49 invalidCredentials", so the JSON reads without a code table. */
    static Map<String, Long> label(Map<Integer, Long> byCode) {
        Map<String, Long> out = new LinkedHashMap<>();
        byCode.forEach(
                (code, n) -> out.put(code + " " + ResultCode.valueOf(code).getName(), n));
        return out;
    }
}
