package dev.larch.jmh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import dev.larch.jmh.compare.ResultFile;
import dev.larch.jmh.compare.Score;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command's exit status on synthetic result files: the comparison can fail, and says why. */
class JmhMainTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void capture() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    /** A quick run's JMH JSON: the store lookup and a filter check, with the given scores and errors. */
    private Path result(String name, double lookup, double lookupError, double filter, double filterError)
            throws IOException {
        String json = String.format(Locale.ROOT, """
                [
                  { "benchmark" : "dev.larch.jmh.StoreBenchmark.equalityLookup", "mode" : "avgt",
                    "forks" : 1, "measurementIterations" : 8, "params" : { "entries" : "10000" },
                    "primaryMetric" : { "score" : %s, "scoreError" : %s, "scoreUnit" : "us/op" } },
                  { "benchmark" : "dev.larch.jmh.FilterBenchmark.evaluateEquality", "mode" : "avgt",
                    "forks" : 1, "measurementIterations" : 8,
                    "primaryMetric" : { "score" : %s, "scoreError" : %s, "scoreUnit" : "ns/op" } }
                ]
                """, lookup, lookupError, filter, filterError);
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    private int run(String... args) {
        return JmhMain.run(args);
    }

    @Test
    void aRunThirtyPercentSlowerWithTightErrorsFails() throws IOException {
        Path baseline = result("quick-baseline.json", 3.00, 0.06, 30.0, 0.5);
        Path slower = result("run.json", 3.90, 0.08, 30.2, 0.6);
        assertEquals(1, run("--compare", baseline.toString(), "--against", slower.toString()));
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("SLOWER"), report);
        assertTrue(report.contains("REGRESSION: StoreBenchmark.equalityLookup [entries=10000] +30.0%"), report);
    }

    @Test
    void aRunWithinTheErrorBarsPasses() throws IOException {
        Path baseline = result("quick-baseline.json", 3.00, 0.06, 30.0, 0.5);
        Path same = result("run.json", 3.04, 0.07, 29.8, 0.6);
        assertEquals(0, run("--compare", baseline.toString(), "--against", same.toString()));
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("0 slower, 0 faster, 2 same"), report);
        assertTrue(report.contains("No regression"), report);
    }

    @Test
    void aNoisyBaselineIsReportedButDoesNotFail() throws IOException {
        Path baseline = result("quick-baseline.json", 3.00, 0.60, 30.0, 0.5);
        Path slower = result("run.json", 3.30, 0.05, 30.0, 0.5);
        assertEquals(0, run("--compare", baseline.toString(), "--against", slower.toString()));
        String report = out.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("baseline too noisy (baseline error ±20% is above 10% of its score)"), report);
    }

    @Test
    void recordingABaselineNeedsItsFolderBeforeAnythingRuns() {
        Path missing = dir.resolve("no-such-folder").resolve("baseline.json");
        assertEquals(2, run("--record-baseline", "-rff", missing.toString(), "Filter"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no folder"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void recordingOneBenchmarkIntoABaselineReplacesItsEntryAndKeepsTheOthers() throws IOException {
        Path baseline = result("baseline.json", 3.00, 0.06, 30.0, 0.5);
        // In this JVM (-f 0) and briefly: the test is about the file, not the score, so it may run
        // beside another JMH run (which holds JMH's machine-wide lock).
        String ignoreLock = System.setProperty("jmh.ignoreLock", "true");
        int status;
        try {
            status = run(
                    "--record-baseline",
                    "-rff",
                    baseline.toString(),
                    "-f",
                    "0",
                    "-wi",
                    "0",
                    "-i",
                    "2",
                    "-r",
                    "100ms",
                    "FilterBenchmark.evaluateEquality$");
        } finally {
            if (ignoreLock == null) {
                System.clearProperty("jmh.ignoreLock");
            } else {
                System.setProperty("jmh.ignoreLock", ignoreLock);
            }
        }
        assertTrue(
                status == 0 || status == 1,
                "0, or 1 for a noisy recording: " + status + " " + err.toString(StandardCharsets.UTF_8));
        List<Score> scores = ResultFile.read(baseline);
        assertEquals(2, scores.size(), scores.toString());
        Score lookup = scores.get(0);
        assertEquals("dev.larch.jmh.StoreBenchmark.equalityLookup", lookup.benchmark());
        assertEquals(3.00, lookup.score(), "kept as it was");
        Score filter = scores.get(1);
        assertEquals("dev.larch.jmh.FilterBenchmark.evaluateEquality", filter.benchmark());
        assertNotEquals(30.0, filter.score(), "recorded anew");
        assertTrue(
                out.toString(StandardCharsets.UTF_8).contains("(1 replaced, the others kept)"),
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aMissingResultFileIsAFileErrorNotAPass() {
        assertEquals(
                2,
                run(
                        "--compare",
                        dir.resolve("none.json").toString(),
                        "--against",
                        dir.resolve("x.json").toString()));
    }
}
