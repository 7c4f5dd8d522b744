package dev.larch.bench.run;

import java.util.List;

import dev.larch.bench.report.BenchResult.RampStep;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RampPolicyTest {
    private final RampPolicy policy = new RampPolicy(50, 2);

    private static RampStep step(int clients, double ops, double p99) {
        return new RampStep(clients, 4, ops, p99, 10);
    }

    @Test
    void keepsRampingWhileThroughputRises() {
        assertNull(policy.stopReason(List.of(step(1, 1000, 5))));
        assertNull(policy.stopReason(List.of(step(1, 1000, 5), step(2, 1800, 6))));
    }

    @Test
    void stopsWhenThroughputStopsRising() {
        String reason = policy.stopReason(List.of(step(1, 1000, 5), step(2, 1800, 6), step(3, 1810, 9)));
        assertTrue(reason.startsWith("throughput stopped rising"), reason);
    }

    @Test
    void stopsWhenP99PassesTheBoundAndSuchAStepIsNeverThePeak() {
        List<RampStep> steps = List.of(step(1, 1000, 5), step(2, 1800, 6), step(3, 2500, 80));
        assertTrue(policy.stopReason(steps).startsWith("p99 80.00 ms passed"));
        assertEquals(1, policy.peak(steps));
    }

    @Test
    void peakIsTheHighestThroughputWithinTheBound() {
        assertEquals(2, policy.peak(List.of(step(1, 1000, 5), step(2, 1800, 6), step(3, 1900, 7), step(4, 1850, 8))));
        assertEquals(0, policy.peak(List.of(step(1, 1000, 90))));
    }
}
