package dev.larch.bench.report;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultMatchTest {
    private final BenchResult base = Results.result(List.of(Results.run(1, 100), Results.run(2, 100)), null);

    /** {@code base} with one config field changed. */
    private BenchResult with(String field, Object value) {
        ObjectNode tree = (ObjectNode) JsonReport.tree(base.config());
        tree.set(field, JsonReport.tree(value));
        BenchResult.Config c = JsonReport.fromTree(tree, BenchResult.Config.class);
        return new BenchResult(
                base.harness(),
                base.harnessVersion(),
                base.startedAt(),
                c,
                base.server(),
                base.notes(),
                base.runs(),
                base.summary(),
                base.ramp());
    }

    private static String only(List<String> differences) {
        assertEquals(1, differences.size(), differences.toString());
        return differences.get(0);
    }

    @Test
    void identicalResultsMatch() {
        assertEquals(List.of(), ResultMatch.differences(base, base, ResultMatch.COMPARE));
        assertEquals(List.of(), ResultMatch.differences(base, base, ResultMatch.MERGE));
    }

    @Test
    void eachComparedFieldIsNamedWithBothValues() {
        assertTrue(only(ResultMatch.differences(base, with("mix", "messaging"), ResultMatch.COMPARE))
                .startsWith("mix: addressing"));
        assertTrue(only(ResultMatch.differences(base, with("mixSha256", "cd".repeat(32)), ResultMatch.COMPARE))
                .contains("sha256 cdcdcdcdcdcd"));
        assertEquals(
                "data file: d.ldif vs e.ldif",
                only(ResultMatch.differences(base, with("dataFile", "e.ldif"), ResultMatch.COMPARE)));
        assertTrue(only(ResultMatch.differences(base, with("dataEntries", 5), ResultMatch.COMPARE))
                .startsWith("data size: 1007 entries"));
        assertEquals(
                "clients x threads: 2x4 vs 3x4",
                only(ResultMatch.differences(base, with("clients", 3), ResultMatch.COMPARE)));
        assertEquals(
                "clients x threads: 2x4 vs 2x8",
                only(ResultMatch.differences(base, with("threads", 8), ResultMatch.COMPARE)));
        assertEquals(
                "connection model: persistent vs per-lookup",
                only(ResultMatch.differences(base, with("connectionModel", "per-lookup"), ResultMatch.COMPARE)));
        assertEquals(
                "ramp vs fixed: fixed vs ramp",
                only(ResultMatch.differences(base, with("ramp", true), ResultMatch.COMPARE)));
    }

    @Test
    void theBasisMustMatch() {
        BenchResult one = Results.result(List.of(Results.run(1, 100)), null);
        assertEquals(
                "basis: mean of runs 1 and 2 vs run 1", only(ResultMatch.differences(base, one, ResultMatch.COMPARE)));
        assertTrue(only(ResultMatch.differences(base, one, ResultMatch.MERGE)).startsWith("runs: 2 vs 1"));
    }

    @Test
    void mergeAllowsOtherClientCountsAndPathsButNotOtherTiming() {
        assertEquals(List.of(), ResultMatch.differences(base, with("clients", 7), ResultMatch.MERGE));
        assertEquals(List.of(), ResultMatch.differences(base, with("dataFile", "/other/host.ldif"), ResultMatch.MERGE));
        assertTrue(only(ResultMatch.differences(base, with("durationSeconds", 20.0), ResultMatch.MERGE))
                .startsWith("timing"));
    }

    @Test
    void anAbsentLoadModelIsClosedLoop() {
        JsonNode none = JsonReport.tree(base.config());
        ObjectNode closed = ((ObjectNode) none.deepCopy()).put(LoadModel.MODEL_FIELD, "closed");
        ObjectNode rate = ((ObjectNode) none.deepCopy()).put(LoadModel.MODEL_FIELD, "rate");
        rate.put(LoadModel.RATE_FIELD, 5000);
        assertEquals(LoadModel.of(none), LoadModel.of(closed));
        assertEquals("closed", LoadModel.of(none).label());
        assertEquals("rate, 5000 ops/s", LoadModel.of(rate).label());
        assertTrue(!LoadModel.of(none).equals(LoadModel.of(rate)));
    }

    @Test
    void configFieldsAddedLaterAreComparedWhenBothHaveThem() {
        ObjectNode a = (ObjectNode) JsonReport.tree(base.config());
        ObjectNode b = a.deepCopy();
        a.put("keySkew", 0.0);
        b.put("keySkew", 0.99);
        List<String> out = new ArrayList<>();
        ResultMatch.otherFields(a, b, out);
        assertEquals(List.of("config keySkew: 0.0 vs 0.99"), out);
        out.clear();
        ResultMatch.otherFields(a, JsonReport.tree(base.config()), out);
        assertEquals(List.of(), out, "a field one side lacks is not a difference");
    }
}
