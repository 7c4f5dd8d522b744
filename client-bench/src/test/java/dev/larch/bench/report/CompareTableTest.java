package dev.larch.bench.report;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompareTableTest {
    @Test
    void latencyImprovementIsPositiveWhenBIsFaster() {
        assertEquals(25.0, CompareTable.latencyImprovement(4, 3), 1e-9);
        assertEquals(-50.0, CompareTable.latencyImprovement(2, 3), 1e-9);
    }

    @Test
    void tableShowsPercentImprovementPerOperationAndOverall() {
        BenchResult a = Results.result(List.of(Results.run(1, 100, 200)), null);
        BenchResult b = Results.result(List.of(Results.run(1, 150, 200)), null);
        String table = CompareTable.render(a, "a.json", b, "b.json");
        String op0 = table.lines().filter(l -> l.startsWith("op0")).findFirst().orElseThrow();
        assertTrue(op0.contains("100.0") && op0.contains("150.0") && op0.contains("+50.0%"), op0);
        String op1 = table.lines().filter(l -> l.startsWith("op1")).findFirst().orElseThrow();
        assertTrue(op1.contains("+0.0%"), op1);
        String all = table.lines().filter(l -> l.startsWith("ALL")).findFirst().orElseThrow();
        assertTrue(all.contains("+16.7%"), all); // 300 -> 350
    }

    @Test
    void aChangeWithinTheSpreadIsNoise() {
        // spreads: A 100 vs 110 (9.5%), B 104 vs 104 (0%); change of the means 105 -> 104 is -1%
        BenchResult a = Results.result(List.of(Results.run(1, 100), Results.run(2, 110)), null);
        BenchResult b = Results.result(List.of(Results.run(1, 104), Results.run(2, 104)), null);
        BenchResult far = Results.result(List.of(Results.run(1, 200), Results.run(2, 200)), null);
        assertTrue(CompareTable.rows(a, b).get(0).withinNoise());
        assertFalse(CompareTable.rows(a, far).get(0).withinNoise());
        String table = CompareTable.render(a, "a", far, "b");
        String op0 = table.lines().filter(l -> l.startsWith("op0")).findFirst().orElseThrow();
        assertFalse(op0.contains("noise"), op0);
        assertTrue(CompareTable.render(a, "a", b, "b")
                .lines()
                .filter(l -> l.startsWith("op0"))
                .findFirst()
                .orElseThrow()
                .contains("noise"));
    }

    @Test
    void tableShowsSpreadErrorsAndEntriesOfEachSide() {
        BenchResult a = Results.result(List.of(Results.run(1, 100), Results.run(2, 110)), null);
        String table = CompareTable.render(a, "a", a, "b");
        assertTrue(table.contains("A spread") && table.contains("B errors") && table.contains("A entries"), table);
        List<String> all = table.lines().filter(l -> l.startsWith("ALL")).toList();
        assertEquals(2, all.size(), table);
        assertTrue(all.get(1).contains("9.5%") && all.get(1).contains(" 2 "), all.get(1)); // spread, 1 error per run
    }

    @Test
    void htmlComparisonShowsBothSidesChartsAndForcedDifferences() {
        BenchResult a = Results.result(List.of(Results.run(1, 100, 50), Results.run(2, 110, 50)), null);
        BenchResult b = Results.result(List.of(Results.run(1, 150, 50), Results.run(2, 150, 50)), null);
        String html = CompareHtml.render(a, "base/result.json", b, "new/result.json", List.of("mix: x vs <y>"));
        assertTrue(html.contains("base/result.json") && html.contains("new/result.json"));
        assertEquals(3, html.split("<svg ", -1).length - 1, "throughput bars, latency bars, throughput over time");
        assertTrue(html.contains("Throughput per operation, A vs B"));
        assertTrue(html.contains("mix: x vs &lt;y&gt;"));
        assertTrue(html.contains("(within noise)"), "op1 is 50 vs 50");
        assertFalse(html.contains("<script"));
    }

    @Test
    void compareReadsResultsBackFromJson(@TempDir Path dir) throws Exception {
        BenchResult a = Results.result(List.of(Results.run(1, 100), Results.run(2, 110)), null);
        JsonReport.write(a, dir.resolve("a.json"));
        BenchResult back = JsonReport.read(dir.resolve("a.json"));
        assertEquals(a.summary(), back.summary());
        assertEquals(a.config(), back.config());
        assertNull(back.runs().get(0).histograms(), "histograms stay out of result.json");
        assertFalse(JsonReport.toJson(a).contains("histograms"));
        assertTrue(CompareTable.render(back, "a", back, "a").contains("+0.0%"));
    }
}
