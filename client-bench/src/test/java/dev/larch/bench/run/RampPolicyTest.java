package dev.larch.bench.run;

import java.util.List;

import dev.larch.bench.report.BenchResult.RampStep;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RampPolicyTest {
    /** p99 50 ms, 2% gain, 1% errors, no wrong answers, harness 80% of the machine. */
    private final RampPolicy policy = new RampPolicy(50, 2, 1, 0, 80);

    private static RampStep step(int clients, double ops, double p99) {
        return step(clients, 4, ops, p99, 0, 0, 10);
    }

    private static RampStep step(
            int clients, int threads, double ops, double p99, double errorPct, long wrong, double harnessPct) {
        return new RampStep(
                clients, threads, ops, p99, harnessPct, 1, 0, errorPct, wrong, null, null, List.of(clients));
    }

    @Test
    void keepsRampingWhileThroughputRisesWithinEveryBound() {
        assertNull(policy.stop(List.of(step(1, 1000, 5))));
        assertNull(policy.stop(List.of(step(1, 1000, 5), step(2, 1800, 6))));
    }

    @Test
    void stopsWhenThroughputStopsRising() {
        RampPolicy.Stop stop = policy.stop(List.of(step(1, 1000, 5), step(2, 1800, 6), step(3, 1810, 9)));
        assertEquals(RampPolicy.NO_GAIN, stop.kind());
        assertTrue(stop.reason().startsWith("throughput stopped rising"), stop.reason());
    }

    @Test
    void stepsOfEqualLoadAreNotComparedWithEachOther() {
        // 2x4 and 4x2 both run 8 threads: the second need not beat the first, only the lighter 1x4
        List<RampStep> steps =
                List.of(step(1, 4, 1000, 5, 0, 0, 10), step(2, 4, 1800, 6, 0, 0, 10), step(4, 2, 1790, 6, 0, 0, 10));
        assertNull(policy.stop(steps));
    }

    @Test
    void stopsWhenP99PassesTheBoundAndSuchAStepIsNeverThePeak() {
        List<RampStep> steps = List.of(step(1, 1000, 5), step(2, 1800, 6), step(3, 2500, 80));
        RampPolicy.Stop stop = policy.stop(steps);
        assertEquals(RampPolicy.P99, stop.kind());
        assertTrue(stop.reason().startsWith("p99 80.00 ms passed"), stop.reason());
        assertEquals(1, policy.peak(steps));
    }

    @Test
    void stopsOnErrorsPastTheBoundAndSuchAStepIsNeverThePeak() {
        List<RampStep> within = List.of(step(1, 4, 1000, 5, 0, 0, 10), step(2, 4, 2000, 6, 1.0, 0, 10));
        assertNull(policy.stop(within), "exactly the bound is still within it");
        List<RampStep> steps = List.of(step(1, 4, 1000, 5, 0, 0, 10), step(2, 4, 2000, 6, 1.5, 0, 10));
        RampPolicy.Stop stop = policy.stop(steps);
        assertEquals(RampPolicy.ERRORS, stop.kind());
        assertTrue(stop.reason().contains("errors 1.500%"), stop.reason());
        assertEquals(0, policy.peak(steps));
    }

    @Test
    void anyWrongAnswerStopsTheRampByDefault() {
        List<RampStep> steps = List.of(step(1, 4, 1000, 5, 0, 0, 10), step(2, 4, 2000, 6, 0, 1, 10));
        RampPolicy.Stop stop = policy.stop(steps);
        assertEquals(RampPolicy.WRONG_ANSWERS, stop.kind());
        assertEquals(0, policy.peak(steps));
        assertNull(new RampPolicy(50, 2, 1, 5, 80).stop(steps), "a bound of 5 tolerates one");
    }

    @Test
    void aSaturatedLoadGeneratorStopsTheRampAsGeneratorBoundButItsStepMayBeThePeak() {
        List<RampStep> steps = List.of(step(1, 4, 1000, 5, 0, 0, 40), step(2, 4, 2000, 6, 0, 0, 85));
        RampPolicy.Stop stop = policy.stop(steps);
        assertEquals(RampPolicy.GENERATOR_BOUND, stop.kind());
        assertTrue(stop.reason().contains("load generator's limit"), stop.reason());
        assertEquals(1, policy.peak(steps));
    }

    @Test
    void p99IsCheckedBeforeTheOtherBounds() {
        RampPolicy.Stop stop = policy.stop(List.of(step(1, 4, 1000, 90, 5, 3, 95)));
        assertEquals(RampPolicy.P99, stop.kind());
    }

    @Test
    void peakIsTheHighestThroughputWithinTheBoundsAndNoneWhenNoStepIs() {
        assertEquals(2, policy.peak(List.of(step(1, 1000, 5), step(2, 1800, 6), step(3, 1900, 7), step(4, 1850, 8))));
        assertEquals(-1, policy.peak(List.of(step(1, 1000, 90))));
        assertFalse(policy.withinBounds(step(1, 4, 1000, 5, 0, 1, 10)));
    }
}
