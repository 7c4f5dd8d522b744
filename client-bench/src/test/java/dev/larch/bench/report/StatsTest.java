package dev.larch.bench.report;

import java.util.List;

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
    void singleRunIsItsOwnSummary() {
        BenchResult.Summary s = Stats.summarize(List.of(Results.run(1, 100)));
        assertEquals("run 1", s.basis());
        assertEquals(100.0, s.opsPerSecond(), 1e-9);
        assertEquals(0.0, s.spreadPercent());
        assertThrows(IllegalArgumentException.class, () -> Stats.summarize(List.of()));
    }
}
