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
