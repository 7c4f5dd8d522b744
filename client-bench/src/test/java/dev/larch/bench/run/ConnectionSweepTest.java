package dev.larch.bench.run;

import java.util.List;
import java.util.Map;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.BenchResult.Latency;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionSweepTest {
    private static final ConnectionSweep.Plan PLAN = new ConnectionSweep.Plan(10, 10, 100, 10, 50, 1, 2);

    private static BenchResult.Run run(double seconds, long ok, double p99, long errors, long wrong) {
        return new BenchResult.Run(
                1,
                10,
                1,
                seconds,
                ok,
                ok / seconds,
                new Latency(1, 1, 1, p99, p99, p99),
                0,
                wrong,
                errors,
                Map.of(),
                List.of(),
                null,
                List.of(),
                null,
                null,
                null,
                null);
    }

    @Test
    void aStepWithinEveryBoundIsSustained() {
        assertNull(ConnectionSweep.failure(PLAN, 100, run(10, 995, 20, 5, 0)));
    }

    @Test
    void p99PastTheBoundFails() {
        String f = ConnectionSweep.failure(PLAN, 100, run(10, 1000, 50.5, 0, 0));
        assertNotNull(f);
        assertTrue(f.contains("p99"), f);
    }

    @Test
    void errorsAndWrongAnswersPastTheBoundFail() {
        assertTrue(ConnectionSweep.failure(PLAN, 100, run(10, 985, 20, 10, 6)).contains("wrong answers"));
        assertNull(ConnectionSweep.failure(PLAN, 100, run(10, 990, 20, 5, 5)), "exactly 1% holds");
        assertNotNull(ConnectionSweep.failure(PLAN, 100, run(10, 0, 0, 0, 0)), "no answers at all");
    }

    @Test
    void achievedRateShortOfTheOfferedFails() {
        String f = ConnectionSweep.failure(PLAN, 100, run(10, 970, 20, 0, 0));
        assertNotNull(f);
        assertTrue(f.contains("below the offered"), f);
        assertNull(ConnectionSweep.failure(PLAN, 100, run(10, 985, 20, 0, 0)), "1.5% short holds");
    }

    @Test
    void oneMissingAnswerInAShortStepIsNotAShortfall() {
        // 25 expected, 24 answered: 4% short, but one answer landing after the window is granularity.
        assertNull(ConnectionSweep.failure(PLAN, 25, run(1, 24, 20, 0, 0)));
        assertNotNull(ConnectionSweep.failure(PLAN, 25, run(1, 22, 20, 0, 0)));
    }
}
