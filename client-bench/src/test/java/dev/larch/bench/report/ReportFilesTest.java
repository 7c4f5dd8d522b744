package dev.larch.bench.report;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportFilesTest {
    private final BenchResult result = Results.result(
            List.of(Results.run(1, 100, 50), Results.run(2, 120, 60)),
            new BenchResult.Ramp(
                    List.of(
                            new BenchResult.RampStep(2, 4, 150, 2, 10, 1, 0, 0, 0, null, null, List.of(1)),
                            new BenchResult.RampStep(4, 4, 220, 3, 20, 1, 0, 0, 0, null, null, List.of(2))),
                    100,
                    "reached --ramp-max-clients 4",
                    220,
                    4,
                    4,
                    110,
                    "last-step",
                    false,
                    new BenchResult.Capacity(110, "50% of peak", 110, null),
                    0,
                    null));

    @Test
    void csvHasOneRowPerRunAndOperationPlusTotalsAndSummary() {
        List<String> lines = CsvReport.results(result).lines().toList();
        assertEquals(CsvReport.RESULT_HEADER, lines.get(0));
        assertEquals(1 + 2 * 3 + 3, lines.size());
        assertTrue(lines.get(1).startsWith("1,2,4,op0,1000,100.000,"), lines.get(1));
        assertTrue(lines.get(lines.size() - 1).startsWith("summary,2,4,ALL,,165.000,"), lines.get(lines.size() - 1));
        int columns = lines.get(0).split(",", -1).length;
        lines.forEach(l -> assertEquals(columns, l.split(",", -1).length, l));
    }

    @Test
    void csvNumbersIgnoreTheDefaultLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertTrue(CsvReport.results(result).contains("100.000"));
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void intervalsCsvMarksWarmUp() {
        List<String> lines = CsvReport.intervals(result).lines().toList();
        assertEquals(5, lines.size());
        assertTrue(lines.get(1).startsWith("1,warm-up,"));
        assertTrue(lines.get(2).startsWith("1,measure,"));
    }

    @Test
    void htmlIsSelfContainedWithChartsAndEscapedText() {
        String html = HtmlReport.render(result);
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertEquals(4, html.split("<svg ", -1).length - 1, "latency, throughput and two ramp charts");
        assertTrue(html.contains("Throughput over time"));
        assertTrue(html.contains("Latency percentiles per operation"));
        assertTrue(html.contains("Ramp: throughput by client count"));
        assertTrue(html.contains("a note &lt;with&gt; markup"));
        assertTrue(html.contains("host-a: 2 clients x 4 threads, /tmp/a"), "the load generator is named");
        assertFalse(html.contains("<script"));
        assertFalse(html.contains("src=") || html.contains("href="), "no external resources");
    }

    @Test
    void niceCeilingRoundsUpToOneTwoOrFive() {
        assertEquals(1.0, SvgChart.niceCeiling(0.7), 1e-9);
        assertEquals(2000.0, SvgChart.niceCeiling(1234), 1e-9);
        assertEquals(5000.0, SvgChart.niceCeiling(4321), 1e-9);
        assertEquals(10000.0, SvgChart.niceCeiling(9999), 1e-9);
    }
}
