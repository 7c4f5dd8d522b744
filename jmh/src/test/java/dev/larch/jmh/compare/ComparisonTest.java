package dev.larch.jmh.compare;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComparisonTest {

    private static Score avgt(String name, double score, double error) {
        return new Score("dev.larch.jmh.X." + name, Map.of(), "avgt", score, error, "us/op");
    }

    private static Score thrpt(String name, double score, double error) {
        return new Score("dev.larch.jmh.X." + name, Map.of(), "thrpt", score, error, "ops/s");
    }

    private static Comparison compare(Score baseline, Score result) {
        return Comparison.of(List.of(baseline), List.of(result), 10);
    }

    @Test
    void slowerBeyondErrorBarsAndThresholdIsARegression() {
        Comparison c = compare(avgt("a", 100, 2), avgt("a", 130, 3));
        assertEquals(Verdict.SLOWER, c.rows().get(0).verdict());
        assertEquals(30.0, c.rows().get(0).changePercent(), 1e-9);
        assertTrue(c.hasRegression());
        assertEquals(1, c.exitStatus());
    }

    @Test
    void fewerOperationsPerSecondIsSlowerToo() {
        Comparison c = compare(thrpt("a", 1000, 10), thrpt("a", 700, 10));
        assertEquals(Verdict.SLOWER, c.rows().get(0).verdict());
        assertEquals(1, c.exitStatus());
    }

    @Test
    void fasterBeyondErrorBarsIsAnImprovementAndPasses() {
        Comparison c = compare(avgt("a", 100, 2), avgt("a", 70, 2));
        assertEquals(Verdict.FASTER, c.rows().get(0).verdict());
        assertEquals(0, c.exitStatus());
        Comparison t = compare(thrpt("a", 1000, 10), thrpt("a", 1500, 10));
        assertEquals(Verdict.FASTER, t.rows().get(0).verdict());
    }

    @Test
    void aSmallChangeWithTightErrorsIsTheSame() {
        Comparison c = compare(avgt("a", 100, 2), avgt("a", 105, 2));
        assertEquals(Verdict.SAME, c.rows().get(0).verdict());
        assertEquals(0, c.exitStatus());
    }

    @Test
    void aSmallChangeBeyondTheErrorBarsIsStillTheSame() {
        // Real but below the threshold: not worth failing a build for.
        Comparison c = compare(avgt("a", 100, 1), avgt("a", 108, 1));
        assertEquals(Verdict.SAME, c.rows().get(0).verdict());
    }

    @Test
    void errorWiderThanTheThresholdIsNoisyAndDoesNotFail() {
        Comparison c = compare(avgt("a", 100, 2), avgt("a", 125, 35));
        Row row = c.rows().get(0);
        assertEquals(Verdict.NOISY, row.verdict());
        assertTrue(row.note().contains("result error ±28% is wider than the 10% threshold"), row.note());
        assertEquals(0, c.exitStatus());
        String report = Report.render(c, "base.json", "new.json");
        assertTrue(report.contains("The noise is too high to judge any benchmark"), report);
        assertTrue(report.contains("No regression"), report);
    }

    @Test
    void aBaselineErrorAbove10PercentIsReportedAsBaselineTooNoisyAndDoesNotFail() {
        Comparison c = compare(avgt("a", 100, 11), avgt("a", 105, 1));
        Row row = c.rows().get(0);
        assertEquals(Verdict.BASELINE_NOISY, row.verdict());
        assertTrue(row.note().contains("baseline error ±11% is above 10% of its score"), row.note());
        assertEquals(0, c.exitStatus());
        String report = Report.render(c, "base.json", "new.json");
        assertTrue(report.contains("0 noisy, 1 baseline too noisy"), report);
        assertTrue(report.contains("WARNING: the baseline is too noisy to judge X.a"), report);
        assertTrue(report.contains("./larch jmh --record-baseline"), report);
    }

    @Test
    void aBaselineErrorOfExactly10PercentIsStillJudged() {
        assertEquals(
                Verdict.SAME,
                compare(avgt("a", 100, 10), avgt("a", 101, 1)).rows().get(0).verdict());
    }

    @Test
    void aBaselineWithoutAnErrorEstimateIsTooNoisy() {
        Comparison c = compare(avgt("a", 100, Double.NaN), avgt("a", 101, 1));
        assertEquals(Verdict.BASELINE_NOISY, c.rows().get(0).verdict());
        assertTrue(c.rows().get(0).note().contains("no error estimate in the baseline"));
    }

    @Test
    void aBaselineTooNoisyDoesNotHideARegressionBeyondBothErrorBars() {
        Comparison c = compare(avgt("a", 100, 20), avgt("a", 160, 3));
        assertEquals(Verdict.SLOWER, c.rows().get(0).verdict());
        assertEquals(1, c.exitStatus());
    }

    @Test
    void aBigChangeHiddenInsideTheErrorBarsIsNoisyNotSlower() {
        Comparison c = compare(avgt("a", 100, 8), avgt("a", 115, 9));
        assertEquals(Verdict.NOISY, c.rows().get(0).verdict());
        assertEquals(0, c.exitStatus());
    }

    @Test
    void aRegressionFarBeyondEvenWideErrorBarsStillFails() {
        Comparison c = compare(avgt("a", 100, 15), avgt("a", 300, 40));
        assertEquals(Verdict.SLOWER, c.rows().get(0).verdict());
        assertEquals(1, c.exitStatus());
    }

    @Test
    void aMissingErrorEstimateIsNoisy() {
        Comparison c = compare(avgt("a", 100, 2), avgt("a", 200, Double.NaN));
        assertEquals(Verdict.NOISY, c.rows().get(0).verdict());
        assertTrue(c.rows().get(0).note().contains("no error estimate"));
        assertEquals(0, c.exitStatus());
    }

    @Test
    void theThresholdIsConfigurable() {
        Comparison strict = Comparison.of(List.of(avgt("a", 100, 1)), List.of(avgt("a", 106, 1)), 5);
        assertEquals(Verdict.SLOWER, strict.rows().get(0).verdict());
        assertThrows(IllegalArgumentException.class, () -> Comparison.of(List.of(), List.of(), 0));
    }

    @Test
    void differentTimeUnitsAreConverted() {
        Score result = new Score("dev.larch.jmh.X.a", Map.of(), "avgt", 130_000, 1_000, "ns/op");
        Comparison c = compare(avgt("a", 100, 2), result);
        Row row = c.rows().get(0);
        assertEquals(Verdict.SLOWER, row.verdict());
        assertEquals("us/op", row.result().unit());
        assertEquals(130.0, row.result().score(), 1e-9);
    }

    @Test
    void benchmarksMissingFromEitherFileAreReportedAndDoNotFail() {
        Comparison c = Comparison.of(
                List.of(avgt("kept", 100, 1), avgt("removed", 100, 1)),
                List.of(avgt("kept", 101, 1), avgt("added", 50, 1)),
                10);
        assertEquals(1, c.rows().size());
        assertEquals(
                List.of("X.removed"),
                c.onlyInBaseline().stream().map(Score::displayName).toList());
        assertEquals(
                List.of("X.added"),
                c.onlyInResult().stream().map(Score::displayName).toList());
        assertEquals(0, c.exitStatus());
        String report = Report.render(c, "base.json", "new.json");
        assertTrue(report.contains("Only in the baseline (not in this result): X.removed"), report);
        assertTrue(report.contains("Only in this result (no baseline yet): X.added"), report);
    }

    @Test
    void benchmarksWhoseParamsDifferArePairedWithANote() {
        Score full = new Score("dev.larch.jmh.X.walk", Map.of("entries", "100000"), "avgt", 100, 1, "us/op");
        Score quick = new Score("dev.larch.jmh.X.walk", Map.of("entries", "20000"), "avgt", 101, 1, "us/op");
        Comparison c = compare(full, quick);
        assertEquals(1, c.rows().size());
        assertTrue(c.onlyInBaseline().isEmpty());
        assertTrue(
                c.rows().get(0).note().contains("params differ: [entries=100000] vs [entries=20000]"),
                c.rows().get(0).note());
    }

    @Test
    void sameBenchmarkWithSeveralParamsIsMatchedByParams() {
        Score small = new Score("dev.larch.jmh.X.walk", Map.of("entries", "20000"), "avgt", 10, 0.1, "us/op");
        Score big = new Score("dev.larch.jmh.X.walk", Map.of("entries", "100000"), "avgt", 50, 0.5, "us/op");
        Score bigSlower = new Score("dev.larch.jmh.X.walk", Map.of("entries", "100000"), "avgt", 80, 0.5, "us/op");
        Comparison c = Comparison.of(List.of(small, big), List.of(bigSlower, small), 10);
        assertEquals(2, c.rows().size());
        assertEquals(Verdict.SAME, c.rows().get(0).verdict());
        assertEquals(Verdict.SLOWER, c.rows().get(1).verdict());
    }

    @Test
    void theReportNamesEveryRegression() {
        Comparison c = Comparison.of(
                List.of(avgt("walk", 100, 1), avgt("lookup", 10, 0.1)),
                List.of(avgt("walk", 150, 1), avgt("lookup", 10, 0.1)),
                10);
        String report = Report.render(c, "base.json", "new.json");
        assertTrue(report.contains("REGRESSION: X.walk +50.0%"), report);
        assertTrue(report.contains("1 slower, 0 faster, 1 same, 0 noisy, 0 baseline too noisy"), report);
        assertFalse(report.contains("noise is too high"), report);
    }
}
