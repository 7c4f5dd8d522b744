package dev.larch.server.fuzz;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import io.netty.util.ResourceLeakDetector;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fuzzer's slice, which every build runs, and its entry point for long runs. {@code ./larch test}
 * (so CI) passes a seed made from the commit, so each commit tries new cases; a plain {@code mvn}
 * build runs {@link #DEFAULT_SEED}. The seed is printed, and every failure names its replay command.
 * Long runs:
 * {@code ./larch fuzz [--cases N] [--seed S] [--first F] [--case K]} runs
 * {@link #fixedSeedSliceKeepsEveryOracle} with the system properties {@code fuzz.cases}, {@code fuzz.seed},
 * {@code fuzz.first} (the index of the first case, to split a long run across processes) and
 * {@code fuzz.case} (one case, to reproduce a failure). The slice runs with Netty's leak detector at PARANOID, so every buffer is tracked.
 */
class PduFuzzTest {
    static final long DEFAULT_SEED = 20261123L;
    /** Well under a minute here, leak detection at PARANOID included. */
    static final long DEFAULT_CASES = 2_000;

    @Test
    void fixedSeedSliceKeepsEveryOracle(@TempDir Path dir) {
        long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
        Long single = Long.getLong("fuzz.case");
        long first = single == null ? Long.getLong("fuzz.first", 0) : single;
        long count = single == null ? Long.getLong("fuzz.cases", DEFAULT_CASES) : 1;
        if (System.getProperty("fuzz.cases") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
        System.out.println("fuzz: seed " + seed + ", cases " + first + " to " + (first + count - 1)
                + " (replay one: ./larch fuzz --seed " + seed + " --case K)");
        FuzzRunner.Result result = new FuzzRunner(System.out).run(dir, seed, first, count);
        assertEquals(List.of(), result.failures(), "fuzz failures; each names its replay command");
        assertEquals(count, result.cases());
    }

    @Test
    void theCorpusHoldsEveryOperation() {
        Set<Integer> operationTags = new TreeSet<>();
        for (byte[] pdu : new PduCorpus().seeds()) {
            List<BerElements.Element> elements = BerElements.of(pdu);
            assertEquals(pdu.length, elements.getFirst().end(), "one whole PDU");
            operationTags.add(pdu[elements.get(2).start()] & 0xff); // after the SEQUENCE and the message ID
        }
        // bind, unbind, search, modify, add, delete, modify DN, compare, abandon, extended
        assertEquals(Set.of(0x60, 0x42, 0x63, 0x66, 0x68, 0x4a, 0x6c, 0x6e, 0x50, 0x77), operationTags);
    }

    @Test
    void aCaseIsAFunctionOfSeedAndIndex() {
        PduCorpus corpus = new PduCorpus();
        for (long index = 0; index < 50; index++) {
            assertEquals(
                    FuzzCase.generate(7, index, corpus).describe(),
                    FuzzCase.generate(7, index, corpus).describe());
        }
        assertNotEquals(
                FuzzCase.generate(7, 1, corpus).describe(),
                FuzzCase.generate(8, 1, corpus).describe());
    }

    /** The oracles can fail: a search the handler never answers is a hang and an unanswered request. */
    @Test
    void anUnansweredSearchIsReportedAsAHang(@TempDir Path dir) {
        PduCorpus corpus = new PduCorpus();
        try (FuzzHarness harness = new FuzzHarness(dir, corpus, DropSearches::new, 200)) {
            FuzzCase search = new FuzzCase(0, 0, List.of(corpus.probeSearch(3)), -1, -1);
            List<String> problems = harness.run(search);
            assertTrue(problems.stream().anyMatch(p -> p.startsWith("hang")), problems::toString);
            assertTrue(problems.stream().anyMatch(p -> p.contains("not answered")), problems::toString);
        }
    }

    /** The oracles can fail: a second completion is logged as a warning, which the log oracle reports. */
    @Test
    void aSecondCompletionIsReported(@TempDir Path dir) {
        PduCorpus corpus = new PduCorpus();
        try (FuzzHarness harness = new FuzzHarness(dir, corpus, CompletesTwice::new, FuzzHarness.MAX_SETTLE_ROUNDS)) {
            FuzzCase search = new FuzzCase(0, 0, List.of(corpus.probeSearch(3)), -1, -1);
            List<String> problems = harness.run(search);
            assertTrue(problems.stream().anyMatch(p -> p.contains("completed more than once")), problems::toString);
            assertEquals(List.of(), harness.probe());
        }
    }

    /** Passes everything on but searches, which it leaves unanswered. */
    private record DropSearches(RequestHandler real) implements RequestHandler {
        @Override
        public void handle(Operation operation) {
            if (!(operation.request() instanceof SearchRequest)) {
                real.handle(operation);
            }
        }
    }

    /**
     * Answers searches twice: once as the real handler does, then again with the same response as soon
     * as the first has ended (from {@code ended}, so also when the real handler completes from a worker).
     */
    private record CompletesTwice(RequestHandler real) implements RequestHandler {
        @Override
        public void handle(Operation operation) {
            real.handle(operation);
        }

        @Override
        public void ended(Operation operation, ResultResponse response) {
            real.ended(operation, response);
            if (operation.request() instanceof SearchRequest && response != null) {
                operation.complete(response);
            }
        }
    }
}
