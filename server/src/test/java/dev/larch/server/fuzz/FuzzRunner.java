package dev.larch.server.fuzz;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * Runs a range of fuzz cases through one {@link FuzzHarness}, probes the store every
 * {@link #PROBE_EVERY} cases and at the end, prints progress (cases and cases/s) at intervals, and
 * collects failures with what reproduces them. Stops early after {@link #MAX_FAILURES} failures.
 * Runs on the calling thread.
 */
final class FuzzRunner {
    static final int PROBE_EVERY = 1000;
    static final int MAX_FAILURES = 10;
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The outcome of a run: how many cases ran, in how long, and each failure described. */
    record Result(long cases, long nanos, List<String> failures) {
        double casesPerSecond() {
            return nanos == 0 ? 0 : cases * 1e9 / nanos;
        }

        String summary() {
            return String.format(
                    Locale.ROOT,
                    "fuzz: %,d cases in %.1f s (%,.0f cases/s), %d failure(s)",
                    cases,
                    nanos / 1e9,
                    casesPerSecond(),
                    failures.size());
        }
    }

    private final PduCorpus corpus = new PduCorpus();
    private final PrintStream progress;

    FuzzRunner(PrintStream progress) {
        this.progress = progress;
    }

    /** Runs cases {@code first} to {@code first + count - 1} of {@code seed} over a store in {@code dataDir}. */
    Result run(Path dataDir, long seed, long first, long count) {
        List<String> failures = new ArrayList<>();
        long start = System.nanoTime();
        long lastReport = start;
        long ran = 0;
        long slowest = 0;
        long slowestIndex = -1;
        try (FuzzHarness harness = new FuzzHarness(dataDir, corpus)) {
            for (long index = first; index < first + count && failures.size() < MAX_FAILURES; index++) {
                FuzzCase fuzzCase = FuzzCase.generate(seed, index, corpus);
                long caseStart = System.nanoTime();
                List<String> problems = harness.run(fuzzCase);
                long caseNanos = System.nanoTime() - caseStart;
                if (caseNanos > slowest) {
                    slowest = caseNanos;
                    slowestIndex = index;
                }
                ran++;
                if (!problems.isEmpty()) {
                    failures.add(describe(fuzzCase, problems));
                    progress.println("fuzz: FAILURE in case " + index + "\n" + failures.getLast());
                }
                if (ran % PROBE_EVERY == 0) {
                    probe(harness, "after case " + index, failures);
                }
                long now = System.nanoTime();
                if (now - lastReport >= PROGRESS_NANOS) {
                    lastReport = now;
                    progress.println(new Result(ran, now - start, failures).summary());
                }
            }
            probe(harness, "at the end", failures);
            leaks(harness, failures);
        }
        Result result = new Result(ran, System.nanoTime() - start, failures);
        progress.println(result.summary());
        progress.printf(Locale.ROOT, "fuzz: slowest case %d took %.1f ms%n", slowestIndex, slowest / 1e6);
        return result;
    }

    private static void probe(FuzzHarness harness, String when, List<String> failures) {
        List<String> problems = harness.probe();
        if (!problems.isEmpty()) {
            failures.add("store probe " + when + ": " + String.join("; ", problems));
        }
    }

    /**
     * Makes the leak detector report what it has found: buffers it tracks are collected, and it reports
     * when the next buffers are allocated. Reports name where a buffer was last touched, not the case.
     */
    private static void leaks(FuzzHarness harness, List<String> failures) {
        harness.loggedProblems(); // whatever the last case logged was already judged with it
        for (int i = 0; i < 3; i++) {
            System.gc();
            for (int k = 0; k < 64; k++) {
                ByteBuf probe = PooledByteBufAllocator.DEFAULT.directBuffer(64);
                probe.release();
            }
        }
        List<String> leaks = harness.loggedProblems().stream()
                .filter(p -> p.contains("LEAK"))
                .toList();
        if (!leaks.isEmpty()) {
            failures.add("ByteBuf leaks: " + String.join("\n", leaks));
        }
    }

    private static String describe(FuzzCase fuzzCase, List<String> problems) {
        return String.join("\n", problems) + "\n" + fuzzCase.describe();
    }
}
