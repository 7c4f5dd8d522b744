package dev.larch.jmh.compare;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BaselineNoiseTest {

    private static Score avgt(String name, double score, double error) {
        return new Score("dev.larch.jmh.X." + name, Map.of(), "avgt", score, error, "us/op");
    }

    @Test
    void errorsAboveTenPercentOrUnknownAreTooNoisy() {
        List<Score> scores = List.of(
                avgt("tight", 100, 2),
                avgt("edge", 100, 10),
                avgt("wide", 100, 10.5),
                avgt("unknown", 100, Double.NaN));
        assertEquals(
                List.of("X.wide", "X.unknown"),
                BaselineNoise.tooNoisy(scores).stream().map(Score::displayName).toList());
        String report = BaselineNoise.report("b.json", scores, false);
        assertTrue(report.contains("2 of 4 benchmarks have an error above 10%"), report);
        assertTrue(report.contains("X.wide  100 ± 10.5 us/op  (±11%)"), report);
        assertTrue(report.contains("./larch jmh --record-baseline -f 10 'X.wide$|X.unknown$'"), report);
        assertTrue(BaselineNoise.report("q.json", scores, true)
                .contains("./larch jmh --quick --record-baseline -f 10 'X.wide$|X.unknown$'"));
    }

    @Test
    void aPreciseRunPasses() {
        List<Score> scores = List.of(avgt("a", 100, 2), avgt("b", 5, 0.1));
        assertTrue(BaselineNoise.tooNoisy(scores).isEmpty());
        assertTrue(BaselineNoise.report("b.json", scores, false)
                .contains("all 2 benchmarks have an error of at most 10%"));
    }
}
