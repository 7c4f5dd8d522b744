package dev.larch.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.larch.bench.report.BenchResult.Latency;
import org.HdrHistogram.Histogram;

/** Small hand-made results for report tests. */
final class Results {
    private Results() {}

    static BenchResult.Operation op(String name, double opsPerSecond, double p99) {
        return new BenchResult.Operation(
                name,
                (long) (opsPerSecond * 10),
                opsPerSecond,
                new Latency(p99 / 4, p99 / 5, p99 / 2, p99, p99 * 2, p99 * 3),
                1.0,
                0,
                0,
                0,
                Map.of(),
                List.of());
    }

    static BenchResult.Run run(int number, double... opsPerOperation) {
        List<BenchResult.Operation> ops = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        double total = 0;
        for (int i = 0; i < opsPerOperation.length; i++) {
            BenchResult.Operation op = op("op" + i, opsPerOperation[i], 2.0);
            ops.add(op);
            Histogram h = RunHistograms.empty();
            h.recordValueWithCount(2_000_000, Math.max(1, op.ops()));
            histograms.put(op.name(), h);
            total += opsPerOperation[i];
        }
        BenchResult.Interval warm =
                new BenchResult.Interval("warm-up", 0, 1, total * 0.8, 0.4, 2, 0, 0, Map.of(), 30.0, null, null);
        BenchResult.Interval measure =
                new BenchResult.Interval("measure", 1, 1, total, 0.4, 2, 0, 0, Map.of(), 30.0, null, null);
        return new BenchResult.Run(
                number,
                2,
                4,
                10,
                (long) (total * 10),
                total,
                new Latency(0.5, 0.4, 1, 2, 4, 6),
                0,
                0,
                1,
                Map.of("91 connect error", 1L),
                ops,
                op("connect+bind", 5, 1),
                List.of(warm, measure),
                new BenchResult.Cpu(2, 3, 30, 15, null, null, null),
                new RunHistograms(RunHistograms.sum(histograms.values()), histograms, RunHistograms.empty()),
                null,
                null);
    }

    static BenchResult result(List<BenchResult.Run> runs, BenchResult.Ramp ramp) {
        BenchResult.Config config = new BenchResult.Config(
                "addressing",
                "built-in:addressing",
                "ab".repeat(32),
                "persistent",
                Map.of("op0", 50.0, "op1", 50.0),
                1,
                "d.ldif",
                1007,
                1000,
                10,
                2,
                4,
                1,
                10,
                1,
                runs.size(),
                ramp != null,
                List.of(new BenchResult.Generator("host-a", "/tmp/a", 2, 4, "2025-01-01T00:00:00Z")),
                0.0,
                null,
                null,
                null,
                null,
                null,
                null);
        BenchResult.Server server = new BenchResult.Server("127.0.0.1", 389, "unknown", "unknown", null, null);
        return new BenchResult(
                "larch client-bench",
                "test",
                "2025-01-01T00:00:00Z",
                config,
                server,
                List.of("a note <with> markup"),
                runs,
                Stats.summarize(runs),
                ramp);
    }
}
