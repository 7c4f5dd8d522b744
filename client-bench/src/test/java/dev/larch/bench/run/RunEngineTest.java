package dev.larch.bench.run;

import java.util.List;
import java.util.Map;

import dev.larch.bench.report.BenchResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunEngineTest {
    @Test
    void intervalsEndExactlyAtTheWarmUpAndAtTheEnd() {
        assertEquals(List.of(1.0, 2.0, 3.0, 4.0, 5.0), RunEngine.boundaries(2, 3, 1));
        assertEquals(List.of(2.5, 7.5), RunEngine.boundaries(2.5, 5, 5));
        assertEquals(List.of(5.0, 10.0), RunEngine.boundaries(0, 10, 5));
    }

    @Test
    void intervalLineMarksWarmUp() {
        BenchResult.Interval warm =
                new BenchResult.Interval("warm-up", 0, 1, 1234.5, 0.5, 2.25, 0, 0, Map.of(), 40.0, null, null);
        String line = RunEngine.line(1, 2, 4, warm);
        assertTrue(line.contains("[warm-up]") && line.contains("1234.5") && line.contains("2.250 ms"), line);
        assertTrue(line.contains("harness cpu"), line);
    }

    @Test
    void eachRunHasItsOwnScriptAndTheSameRunRepeatsIt() {
        long run1 = RunEngine.scriptSeed(1, 1, 0, 0);
        assertEquals(run1, RunEngine.scriptSeed(1, 1, 0, 0));
        assertNotEquals(run1, RunEngine.scriptSeed(1, 2, 0, 0), "run 2 must not replay run 1");
        assertNotEquals(run1, RunEngine.scriptSeed(1, 1, 1, 0), "clients differ");
        assertNotEquals(run1, RunEngine.scriptSeed(1, 1, 0, 1), "threads differ");
        assertNotEquals(run1, RunEngine.scriptSeed(2, 1, 0, 0), "seeds differ");
        // (client 1, thread 0) and (client 0, thread 1) must not share a script either.
        assertNotEquals(RunEngine.scriptSeed(1, 1, 1, 0), RunEngine.scriptSeed(1, 1, 0, 1));
    }
}
