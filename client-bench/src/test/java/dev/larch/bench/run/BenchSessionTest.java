package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.BenchResult.Latency;
import dev.larch.bench.report.RunHistograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The session's plan logic with a fake engine: which loads run, how steps and summaries are formed. */
class BenchSessionTest {
    private static final RampPolicy POLICY = new RampPolicy(50, 2, 1, 0, 80);

    /** Every one of {@code count} requests took {@code p99Ms}: the run's histograms. */
    private static RunHistograms histograms(long count, double p99Ms) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount((long) (p99Ms * 1_000_000), Math.max(1, count));
        return new RunHistograms(h, Map.of("lookup", h), RunHistograms.empty());
    }

    /** A run whose figures the test chooses. */
    static BenchResult.Run run(
            int number,
            int clients,
            int threads,
            double ops,
            double p99,
            long wrong,
            double harnessPct,
            Double opsPerCpu) {
        BenchResult.Operation op = new BenchResult.Operation(
                "lookup", (long) ops, ops, new Latency(1, 1, 1, p99, p99, p99), 1, 0, wrong, 0, Map.of());
        return new BenchResult.Run(
                number,
                clients,
                threads,
                1,
                (long) ops,
                ops,
                new Latency(1, 1, 1, p99, p99, p99),
                0,
                wrong,
                0,
                Map.of(),
                List.of(op),
                op,
                List.of(),
                new BenchResult.Cpu(2, 1, harnessPct * 2, harnessPct, opsPerCpu == null ? null : 50.0, null, null),
                histograms((long) ops, p99),
                new BenchResult.Resources(opsPerCpu, null, null, null, List.of()),
                null);
    }

    /** Records every call; the figures come from {@code ops} applied to the total thread count and the call. */
    private static final class FakeEngine implements BenchSession.Runner {
        final List<int[]> calls = new ArrayList<>();
        private final OpsModel model;

        FakeEngine(OpsModel model) {
            this.model = model;
        }

        @Override
        public BenchResult.Run run(int number, int clients, int threads) {
            calls.add(new int[] {number, clients, threads});
            return model.run(number, clients, threads, calls.size());
        }
    }

    @FunctionalInterface
    interface OpsModel {
        BenchResult.Run run(int number, int clients, int threads, int call);
    }

    private static BenchSession session(FakeEngine engine, List<String> lines) {
        return new BenchSession(engine, lines::add, 2);
    }

    private static BenchSession.Plan ramp(List<RampLoads.Load> loads, int repeats, int thenRuns) {
        return new BenchSession.Plan(1, 1, 3, true, loads, repeats, thenRuns, POLICY);
    }

    /** Throughput rises to 2 clients and falls after: 1000, 2000, 1990 ... ops/s. */
    private static double saturatesAtTwo(int clients) {
        return clients >= 2 ? 2000.0 - 10 * (clients - 2) : 1000.0 * clients;
    }

    @Test
    void fixedLoadRunsAreTheSummaryOfTheirLastTwo() {
        FakeEngine engine = new FakeEngine((n, c, t, call) -> run(n, c, t, 1000 + 100 * call, 5, 0, 10, null));
        BenchSession.Outcome o = session(engine, new ArrayList<>())
                .execute(new BenchSession.Plan(2, 4, 3, false, List.of(), 1, 0, POLICY));
        assertEquals(3, o.runs().size());
        assertEquals(1250, o.summary().opsPerSecond(), 1e-9);
        assertNull(o.ramp());
    }

    @Test
    void thenRunsGoToThePeakAndTheSummaryIsTheMeanOfTheirLastTwo() {
        FakeEngine engine = new FakeEngine((n, c, t, call) -> call <= 3
                ? run(n, c, t, saturatesAtTwo(c), 5, 0, 10, null)
                : run(n, c, t, 1700 + 100 * (call - 3), 5, 0, 10, null)); // then-runs: 1800, 1900, 2000
        BenchSession.Outcome o = session(engine, new ArrayList<>()).execute(ramp(RampLoads.linear(1, 1, 8, 2), 1, 3));

        assertEquals(RampPolicy.NO_GAIN, o.ramp().stopKind());
        assertEquals(3, o.ramp().steps().size());
        assertEquals(2, o.ramp().peakClients());
        assertEquals(6, o.runs().size(), "3 ramp steps, then 3 runs");
        for (int[] call : engine.calls.subList(3, 6)) {
            assertEquals(2, call[1], "then-runs use the peak's clients");
            assertEquals(2, call[2], "and its threads");
        }
        assertEquals(
                List.of(4, 5, 6),
                o.runs().subList(3, 6).stream().map(BenchResult.Run::run).toList());
        assertEquals(1950, o.summary().opsPerSecond(), 1e-9, "mean of 1900 and 2000, not the first then-run");
        assertTrue(
                o.summary().basis().contains("then 3 runs: mean of runs 5 and 6"),
                o.summary().basis());
        assertEquals(3, o.ramp().thenRuns());
        assertEquals(975, o.ramp().capacity().opsPerSecond(), 1e-9, "half the then-runs' summary");
    }

    @Test
    void eachStepRepeatsAndItsFigureIsTheMeanOfItsRepeatsWithSpread() {
        FakeEngine engine = new FakeEngine(
                (n, c, t, call) -> run(n, c, t, 1000.0 * c + (call % 2 == 0 ? 100 : -100), 5, 0, 10, null));
        List<String> lines = new ArrayList<>();
        BenchSession.Outcome o = session(engine, lines).execute(ramp(RampLoads.linear(1, 1, 2, 1), 2, 0));
        assertEquals(4, o.runs().size());
        BenchResult.RampStep first = o.ramp().steps().get(0);
        assertEquals(2, first.repeats());
        assertEquals(1000, first.opsPerSecond(), 1e-9);
        assertEquals(20, first.spreadPercent(), 1e-9);
        assertEquals(List.of(1, 2), first.runs());
        assertEquals(List.of(3, 4), o.ramp().steps().get(1).runs());
        assertEquals(RampPolicy.LAST_STEP, o.ramp().stopKind());
        assertEquals(new BenchResult.RampBounds(2, 50, 2, 1, 0, 80), o.ramp().bounds());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("ramp step 1: 1 clients x 1 threads, mean of 2 runs")));
        assertTrue(o.summary().basis().startsWith("ramp peak 2 clients x 1 threads: mean of runs 3 and 4"));
    }

    @Test
    void aGeneratorBoundPeakIsFlaggedAsTheGeneratorsLimit() {
        FakeEngine engine = new FakeEngine((n, c, t, call) -> run(n, c, t, 1000.0 * c, 5, 0, c >= 3 ? 90 : 40, null));
        BenchSession.Outcome o = session(engine, new ArrayList<>()).execute(ramp(RampLoads.linear(1, 1, 8, 1), 1, 0));
        assertEquals(RampPolicy.GENERATOR_BOUND, o.ramp().stopKind());
        assertTrue(o.ramp().generatorBound());
        assertEquals(3, o.ramp().peakClients());
    }

    @Test
    void aGeneratorBoundStepThatIsNotThePeakLeavesThePeakUnflagged() {
        FakeEngine engine = new FakeEngine(
                (n, c, t, call) -> run(n, c, t, c >= 3 ? 500 : 1000.0 * c, 5, 0, c >= 3 ? 90 : 40, null));
        BenchSession.Outcome o = session(engine, new ArrayList<>()).execute(ramp(RampLoads.linear(1, 1, 8, 1), 1, 0));
        assertEquals(RampPolicy.GENERATOR_BOUND, o.ramp().stopKind());
        assertFalse(o.ramp().generatorBound());
        assertEquals(2, o.ramp().peakClients());
    }

    @Test
    void whenNoStepIsWithinTheBoundsTheReasonSaysSo() {
        FakeEngine engine = new FakeEngine((n, c, t, call) -> run(n, c, t, 1000, 5, 3, 10, null));
        BenchSession.Outcome o = session(engine, new ArrayList<>()).execute(ramp(RampLoads.linear(1, 1, 8, 1), 1, 0));
        assertEquals(RampPolicy.WRONG_ANSWERS, o.ramp().stopKind());
        assertEquals(1, o.runs().size(), "the first step's wrong answers end the ramp");
        assertTrue(
                o.ramp().stopReason().contains("no step was within"), o.ramp().stopReason());
    }

    @Test
    void capacityFollowsTheServerCpuRuleWhenTheServerIsKnown() {
        // 1,500 ops per server CPU-second on 2 cores: half the machine serves 1,500 ops/s, below 50% of 4,000
        FakeEngine engine = new FakeEngine((n, c, t, call) -> run(n, c, t, 1000.0 * c, 5, 0, 10, 1500.0));
        BenchSession.Outcome o = session(engine, new ArrayList<>()).execute(ramp(RampLoads.linear(1, 1, 4, 1), 1, 0));
        assertEquals(4000, o.ramp().peakOpsPerSecond(), 1e-9);
        assertEquals(1500, o.ramp().recommendedCapacityOpsPerSecond(), 1e-9);
        assertTrue(
                o.ramp().capacity().rule().startsWith("server CPU at 50%"),
                o.ramp().capacity().rule());
        assertEquals(1500, o.summary().opsPerServerCpuSecond(), 1e-9);
        assertEquals(1500, o.ramp().steps().get(0).opsPerServerCpuSecond(), 1e-9);
    }
}
