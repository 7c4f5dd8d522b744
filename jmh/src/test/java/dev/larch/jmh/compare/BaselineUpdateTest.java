package dev.larch.jmh.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BaselineUpdateTest {
    @TempDir
    Path dir;

    private static String entry(String method, String entries, double score) {
        String params = entries == null ? "" : "\"params\" : { \"entries\" : \"" + entries + "\" },";
        return "{ \"benchmark\" : \"dev.larch.jmh.StoreBenchmark." + method + "\", \"mode\" : \"avgt\", " + params
                + " \"primaryMetric\" : { \"score\" : " + score
                + ", \"scoreError\" : 0.1, \"scoreUnit\" : \"us/op\" } }";
    }

    private Path file(String name, String... entries) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, "[" + String.join(",", entries) + "]");
        return f;
    }

    @Test
    void theSameBenchmarkAndParamsAreReplacedOthersKeptInOrderNewOnesAdded() throws IOException {
        Path baseline = file(
                "baseline.json",
                entry("equalityLookup", "100000", 3.0),
                entry("equalityLookup", "10000", 2.0),
                entry("oneLevelWalk", "100000", 1800.0));
        Path recorded = file("recorded.json", entry("equalityLookup", "100000", 2.5), entry("equalityMiss", null, 4.0));

        assertEquals(1, BaselineUpdate.merge(baseline, recorded));

        List<Score> merged = ResultFile.read(baseline);
        assertEquals(
                List.of(
                        "dev.larch.jmh.StoreBenchmark.equalityLookup [entries=100000] 2.5",
                        "dev.larch.jmh.StoreBenchmark.equalityLookup [entries=10000] 2.0",
                        "dev.larch.jmh.StoreBenchmark.oneLevelWalk [entries=100000] 1800.0",
                        "dev.larch.jmh.StoreBenchmark.equalityMiss 4.0"),
                merged.stream().map(s -> s.key() + " " + s.score()).toList());
    }

    @Test
    void aFileThatIsNotAJmhResultIsRefusedAndTheBaselineLeftAsItWas() throws IOException {
        Path baseline = file("baseline.json", entry("equalityLookup", "100000", 3.0));
        String before = Files.readString(baseline);
        Path notJmh = dir.resolve("x.json");
        Files.writeString(notJmh, "{\"benchmark\": 1}");
        assertThrows(IOException.class, () -> BaselineUpdate.merge(baseline, notJmh));
        Files.writeString(notJmh, "[{\"score\": 1}]");
        assertThrows(IOException.class, () -> BaselineUpdate.merge(baseline, notJmh));
        assertEquals(before, Files.readString(baseline));
    }
}
