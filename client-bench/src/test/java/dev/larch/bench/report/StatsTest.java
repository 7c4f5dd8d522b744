package dev.larch.bench.report;

import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class StatsTest {
    @Test
    void latencyIsReportedInMillisecondsFromNanoseconds() {
        Histogram h = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 1_000_000L); // 1..1000 ms
        }
        BenchResult.Latency l = Stats.latency(h);
        assertEquals(500.5, l.mean(), 0.5);
        assertEquals(500, l.p50(), 1);
        assertEquals(900, l.p90(), 1);
        assertEquals(990, l.p99(), 1);
        assertEquals(999, l.p999(), 1);
        assertEquals(1000, l.max(), 1);
        assertEquals(BenchResult.Latency.NONE, Stats.latency(new Histogram(3)));
    }

    @Test
    void spreadIsTheDifferenceOverTheMean() {
        assertEquals(20.0, Stats.spreadPercent(900, 1100), 1e-9);
        assertEquals(0.0, Stats.spreadPercent(0, 0));
    }

    @Test
    void percentChangeIsRelativeToTheBaseline() {
        assertEquals(25.0, Stats.percentChange(800, 1000), 1e-9);
        assertEquals(-20.0, Stats.percentChange(1000, 800), 1e-9);
    }

    @Test
    void summaryIsTheMeanOfTheLastTwoRuns() {
        BenchResult.Summary s =
                Stats.summarize(List.of(Results.run(1, 100, 100), Results.run(2, 300, 100), Results.run(3, 500, 100)));
        assertEquals("mean of runs 2 and 3", s.basis());
        assertEquals(500.0, s.opsPerSecond(), 1e-9); // (400 + 600) / 2
        assertEquals(40.0, s.spreadPercent(), 1e-9); // |400 - 600| / 500
        assertEquals(400.0, s.operations().get(0).opsPerSecond(), 1e-9);
        assertEquals(100.0, s.operations().get(1).opsPerSecond(), 1e-9);
        assertEquals(0.0, s.operations().get(1).spreadPercent(), 1e-9);
        assertEquals(2, s.errors());
    }

    @Test
    void summaryPercentilesComeFromTheRunsHistogramsAddedTogether() {
        BenchResult.Run fast = withLatency(Results.run(2, 100), 1_000_000L, 900);
        BenchResult.Run slow = withLatency(Results.run(3, 100), 100_000_000L, 100);
        BenchResult.Summary s = Stats.summarize(List.of(Results.run(1, 100), fast, slow));
        Histogram union = new Histogram(3);
        union.add(fast.histograms().all());
        union.add(slow.histograms().all());
        assertEquals(Stats.latency(union), s.latencyMs());
        // 90% of the requests took 1 ms: the union's p50 is 1 ms, where a mean of p50s says 50.5 ms.
        assertEquals(1.0, s.latencyMs().p50(), 0.01);
        assertEquals(Stats.latency(union), s.operations().get(0).latencyMs());
    }

    @Test
    void summarisingTwoRunsWithoutHistogramsIsRefused() {
        BenchResult.Run a = Results.run(1, 100);
        BenchResult.Run b = Results.run(2, 100);
        BenchResult.Run bare = new BenchResult.Run(
                b.run(),
                b.clients(),
                b.threads(),
                b.measuredSeconds(),
                b.ops(),
                b.opsPerSecond(),
                b.latencyMs(),
                b.partial(),
                b.wrongAnswers(),
                b.errors(),
                b.errorsByResultCode(),
                b.operations(),
                b.connections(),
                b.intervals(),
                b.cpu(),
                null,
                null,
                null);
        assertThrows(IllegalArgumentException.class, () -> Stats.summarize(List.of(a, bare)));
        assertEquals("run 2", Stats.summarize(List.of(bare)).basis(), "one run needs no histogram");
    }

    @Test
    void summaryAddsUpAnswersThatWereNotPlainSuccesses() {
        BenchResult.Summary s = Stats.summarize(List.of(Results.run(1, 100), Results.run(2, 100)));
        BenchResult.OperationSummary op = s.operations().get(0);
        assertEquals(1.0, op.entriesPerSearch(), 1e-9);
        assertEquals(0, op.wrongAnswers());
    }

    /** The run with one operation "op0" whose {@code count} requests each took {@code nanos}. */
    private static BenchResult.Run withLatency(BenchResult.Run r, long nanos, long count) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(nanos, count);
        return new BenchResult.Run(
                r.run(),
                r.clients(),
                r.threads(),
                r.measuredSeconds(),
                r.ops(),
                r.opsPerSecond(),
                Stats.latency(h),
                r.partial(),
                r.wrongAnswers(),
                r.errors(),
                r.errorsByResultCode(),
                r.operations(),
                r.connections(),
                r.intervals(),
                r.cpu(),
                new RunHistograms(h, Map.of("op0", h), new Histogram(3)),
                null,
                null);
    }

    @Test
    void singleRunIsItsOwnSummary() {
        BenchResult.Summary s = Stats.summarize(List.of(Results.run(1, 100)));
        assertEquals("run 1", s.basis());
        assertEquals(100.0, s.opsPerSecond(), 1e-9);
        assertEquals(0.0, s.spreadPercent());
        assertThrows(IllegalArgumentException.class, () -> Stats.summarize(List.of()));
    }
}
