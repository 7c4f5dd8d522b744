package dev.larch.bench.run;

import dev.larch.bench.report.BenchResult.Capacity;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CapacityAdviceTest {
    @Test
    void halfOfPeakWhenTheServerCpuIsUnknown() {
        Capacity c = CapacityAdvice.of(10_000, null, 2);
        assertEquals(5_000, c.opsPerSecond(), 1e-9);
        assertNull(c.halfServerCpuOpsPerSecond());
        assertTrue(c.rule().startsWith("50% of peak"), c.rule());
    }

    @Test
    void halfOfPeakWhenTheServerNeedsLittleCpu() {
        // 20,000 ops per CPU-second on 2 cores: half the machine would serve 20,000 ops/s, above 5,000
        Capacity c = CapacityAdvice.of(10_000, 20_000.0, 2);
        assertEquals(5_000, c.opsPerSecond(), 1e-9);
        assertEquals(20_000, c.halfServerCpuOpsPerSecond(), 1e-9);
        assertTrue(c.rule().startsWith("50% of peak, below"), c.rule());
    }

    @Test
    void theCpuRuleWhenHalfThePeakWouldTakeMoreThanHalfTheMachine() {
        // 4,000 ops per CPU-second on 2 cores: half the machine serves 4,000 ops/s, below 5,000
        Capacity c = CapacityAdvice.of(10_000, 4_000.0, 2);
        assertEquals(4_000, c.opsPerSecond(), 1e-9);
        assertEquals(5_000, c.halfOfPeakOpsPerSecond(), 1e-9);
        assertTrue(c.rule().startsWith("server CPU at 50% of the machine"), c.rule());
    }
}
