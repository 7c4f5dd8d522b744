package dev.larch.bench.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistogramLogFileTest {
    private static Histogram values(long nanos, long count) {
        Histogram h = RunHistograms.empty();
        h.recordValueWithCount(nanos, count);
        return h;
    }

    private static void interval(IntervalHistograms log, int run, String phase, long start, long scale) {
        Map<String, Histogram> ops = new LinkedHashMap<>();
        ops.put("exact-name", values(1_000_000 * scale, 10));
        ops.put("odd, name", values(5_000_000 * scale, 5));
        Histogram all = RunHistograms.sum(ops.values());
        log.interval(run, phase, start, start + 1_000_000_000L, ops, all, values(300_000, 2));
    }

    @Test
    void intervalsComeBackTaggedAndOnlyMeasuredOnesAreSummed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(HistogramLogFile.NAME);
        long t0 = System.nanoTime();
        long before = System.currentTimeMillis();
        try (HistogramLogFile log = HistogramLogFile.create(file)) {
            interval(log, 1, "warm-up", t0, 100);
            interval(log, 1, "measure", t0 + 1_000_000_000L, 1);
            interval(log, 1, "measure", t0 + 2_000_000_000L, 2);
            interval(log, 2, "measure", t0 + 3_000_000_000L, 3);
        }
        HistogramLogContent c = HistogramLogContent.read(file);
        assertEquals(4, c.intervals().size());
        assertEquals(1, c.intervals(1, "warm-up").size());
        assertEquals(2, c.intervals(1, "measure").size());

        RunHistograms run1 = c.measured(1);
        assertEquals(30, run1.all().getTotalCount(), "warm-up is not counted");
        assertEquals(
                List.of("exact-name", "odd, name"),
                List.copyOf(run1.operations().keySet()));
        assertEquals(20, run1.operations().get("exact-name").getTotalCount());
        assertEquals(4, run1.connections().getTotalCount());
        assertTrue(run1.all().getMaxValue() < 20_000_000, "the 100x warm-up values stayed out");
        assertEquals(15, c.measured(2).all().getTotalCount());
        assertThrows(IllegalArgumentException.class, () -> c.measured(3));

        HistogramLogContent.Interval first = c.intervals().get(0);
        assertTrue(Math.abs(first.startEpochMillis() - before) < 2_000, "absolute epoch timestamps");
        assertEquals(1.0, first.seconds(), 0.002);
        assertEquals(1000.0, (double) (c.intervals().get(1).startEpochMillis() - first.startEpochMillis()), 1.0);
        assertTrue(Files.readString(file).contains("#[BaseTime: 0.000"));
    }

    @Test
    void theCallersHistogramsAreLeftUntagged(@TempDir Path dir) throws Exception {
        Histogram all = values(1000, 1);
        try (HistogramLogFile log = HistogramLogFile.create(dir.resolve("h.hlog"))) {
            log.interval(1, "measure", 0, 1, Map.of(), all, values(1, 1));
        }
        assertNull(all.getTag());
    }

    @Test
    void aMissingOrForeignLogIsBadInput(@TempDir Path dir) throws Exception {
        assertThrows(IllegalArgumentException.class, () -> HistogramLogContent.read(dir.resolve("none.hlog")));
        Path foreign = dir.resolve("foreign.hlog");
        Files.writeString(
                foreign, "Tag=x,1.0,1.0,1.0,HISTFAAAACl4nJNpmSzMwMDAxQABzFCaEUzLGdgyUwj0DO0ybjsMNgYAjL0F0Q==\n");
        assertThrows(IllegalArgumentException.class, () -> HistogramLogContent.read(foreign));
    }
}
