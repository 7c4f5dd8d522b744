package dev.larch.bench.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultMergerTest {
    /** A log holding, for each of {@code runs}, an empty warm-up interval and one measured interval. */
    private static HistogramLogContent log(Path file, BenchResult r, int runs) throws Exception {
        try (HistogramLogFile log = HistogramLogFile.create(file)) {
            for (BenchResult.Run run : r.runs().subList(0, runs)) {
                RunHistograms h = run.histograms();
                Histogram none = RunHistograms.empty();
                log.interval(run.run(), "warm-up", 0, 1_000_000_000L, Map.of(), none, none);
                log.interval(
                        run.run(), "measure", 1_000_000_000L, 2_000_000_000L, h.operations(), h.all(), h.connections());
            }
        }
        return HistogramLogContent.read(file);
    }

    @Test
    void twoGeneratorsAddUpAndKeepTheirPercentiles(@TempDir Path dir) throws Exception {
        BenchResult a = Results.result(List.of(Results.run(1, 100, 50), Results.run(2, 120, 60)), null);
        BenchResult b = Results.result(List.of(Results.run(1, 300, 10), Results.run(2, 320, 20)), null);
        ResultMerger.Merged m = ResultMerger.merge(List.of(
                new ResultMerger.Part("a", a, log(dir.resolve("a.hlog"), a, 2)),
                new ResultMerger.Part("b", b, log(dir.resolve("b.hlog"), b, 2))));
        BenchResult.Run run = m.result().runs().get(1);
        assertEquals(a.runs().get(1).ops() + b.runs().get(1).ops(), run.ops());
        assertEquals(180 + 340, run.opsPerSecond(), 1e-9);
        assertEquals(4, run.clients());
        assertEquals(2, run.errors(), "one connect error per generator");
        assertEquals(Map.of("91 connect error", 2L), run.errorsByResultCode());
        Histogram union = RunHistograms.sum(List.of(
                a.runs().get(1).histograms().all(), b.runs().get(1).histograms().all()));
        assertEquals(Stats.latency(union), run.latencyMs());
        assertEquals(4, m.intervals().size(), "two intervals per run for the merged log");
        assertEquals(2, m.result().config().generators().size());
        assertEquals(4, m.result().config().clients());
        assertTrue(m.result().notes().stream().anyMatch(n -> n.startsWith("Merged from 2 load generators")));
    }

    /** {@code r} as if run with {@code --rate rate}. */
    private static BenchResult rated(BenchResult r, double rate) {
        ObjectNode tree = (ObjectNode) JsonReport.tree(r);
        ((ObjectNode) tree.get("config")).put("rate", rate);
        return JsonReport.fromTree(tree, BenchResult.class);
    }

    @Test
    void fixedRateGeneratorsOfferTheSumOfTheirRatesAndForcedMixedModelsNone(@TempDir Path dir) throws Exception {
        // Histograms live in the runs, not in result.json: the logs are written from the unrated results.
        BenchResult closedA = Results.result(List.of(Results.run(1, 100, 50)), null);
        BenchResult closedB = Results.result(List.of(Results.run(1, 300, 10)), null);
        HistogramLogContent logA = log(dir.resolve("a.hlog"), closedA, 1);
        HistogramLogContent logB = log(dir.resolve("b.hlog"), closedB, 1);
        BenchResult a = rated(closedA, 400);
        ResultMerger.Merged m = ResultMerger.merge(
                List.of(new ResultMerger.Part("a", a, logA), new ResultMerger.Part("b", rated(closedB, 600), logB)));
        assertEquals(1000, m.result().config().rate(), 1e-9);

        // bench merge refuses differing load models unless --force; forced, there is no one rate
        ResultMerger.Merged forced = ResultMerger.merge(
                List.of(new ResultMerger.Part("a", a, logA), new ResultMerger.Part("closed", closedB, logB)));
        assertNull(forced.result().config().rate());
    }

    @Test
    void aLogWithoutTheRunsItsResultListsIsRefused(@TempDir Path dir) throws Exception {
        BenchResult a = Results.result(List.of(Results.run(1, 100), Results.run(2, 100)), null);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ResultMerger.merge(List.of(
                        new ResultMerger.Part("a", a, log(dir.resolve("a.hlog"), a, 2)),
                        new ResultMerger.Part("short", a, log(dir.resolve("s.hlog"), a, 1)))));
        assertTrue(e.getMessage().contains("run 2"), e.getMessage());
    }

    @Test
    void rampsAndSingleResultsAreRefused(@TempDir Path dir) throws Exception {
        BenchResult a = Results.result(List.of(Results.run(1, 100)), null);
        BenchResult ramp = Results.result(
                List.of(Results.run(1, 100)),
                new BenchResult.Ramp(
                        List.of(new BenchResult.RampStep(2, 4, 100, 2, 10, 1, 0, 0, 0, null, null, List.of(1))),
                        100,
                        "x",
                        100,
                        2,
                        4,
                        50,
                        "no-gain",
                        false,
                        null,
                        0,
                        null));
        HistogramLogContent log = log(dir.resolve("a.hlog"), a, 1);
        assertThrows(
                IllegalArgumentException.class, () -> ResultMerger.merge(List.of(new ResultMerger.Part("a", a, log))));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ResultMerger.merge(
                        List.of(new ResultMerger.Part("a", a, log), new ResultMerger.Part("ramp", ramp, log))));
        assertTrue(e.getMessage().contains("ramp is a ramp"), e.getMessage());
    }
}
