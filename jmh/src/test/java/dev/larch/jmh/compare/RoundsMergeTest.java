package dev.larch.jmh.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.util.ListStatistics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundsMergeTest {
    @TempDir
    Path dir;

    /** A JMH JSON result of one benchmark with these forks of raw iteration scores. */
    private Path result(String name, String benchmark, double[][] forks) throws IOException {
        StringBuilder raw = new StringBuilder("[");
        for (int f = 0; f < forks.length; f++) {
            raw.append(f > 0 ? "," : "").append('[');
            for (int i = 0; i < forks[f].length; i++) {
                raw.append(i > 0 ? "," : "").append(forks[f][i]);
            }
            raw.append(']');
        }
        raw.append(']');
        Path file = dir.resolve(name);
        Files.writeString(file, String.format(Locale.ROOT, """
                [{"benchmark": "%s", "mode": "avgt", "forks": %d, "params": {"entries": "100"},
                  "primaryMetric": {"score": 999, "scoreError": 1, "scoreUnit": "us/op",
                    "scoreConfidence": [998, 1000], "rawData": %s},
                  "secondaryMetrics": {}}]
                """, benchmark, forks.length, raw));
        return file;
    }

    @Test
    void thePooledScoreAndErrorAreJmhsOverEveryIterationOfEveryRound() throws IOException {
        Path a = result("a.json", "dev.larch.jmh.X.lookup", new double[][] {{1, 2, 3}, {2, 3, 4}});
        Path b = result("b.json", "dev.larch.jmh.X.lookup", new double[][] {{10, 11, 12}});
        Path out = dir.resolve("pooled.json");

        assertEquals(1, RoundsMerge.merge(out, List.of(a, b)));

        ListStatistics all = new ListStatistics(new double[] {1, 2, 3, 2, 3, 4, 10, 11, 12});
        Score pooled = ResultFile.read(out).get(0);
        assertEquals("dev.larch.jmh.X.lookup", pooled.benchmark());
        assertEquals(Map.of("entries", "100"), pooled.params());
        assertEquals(all.getMean(), pooled.score(), 1e-9);
        assertEquals(all.getMeanErrorAt(0.999), pooled.error(), 1e-9);
        assertEquals("us/op", pooled.unit());
        String json = Files.readString(out);
        assertTrue(json.contains("\"forks\" : 3"), json);
    }

    @Test
    void roundsWithDifferentBenchmarksAreRefused() throws IOException {
        Path a = result("a.json", "dev.larch.jmh.X.lookup", new double[][] {{1, 2, 3}});
        Path b = result("b.json", "dev.larch.jmh.X.other", new double[][] {{1, 2, 3}});
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> RoundsMerge.merge(dir.resolve("out.json"), List.of(a, b)));
        assertTrue(e.getMessage().contains("did a round fail?"), e.getMessage());
    }

    @Test
    void aResultWithoutRawDataIsRefused() throws IOException {
        Path a = dir.resolve("a.json");
        Files.writeString(a, """
                [{"benchmark": "X.y", "mode": "avgt", "params": {}, "primaryMetric": {"score": 1}}]
                """);
        IOException e = assertThrows(IOException.class, () -> RoundsMerge.merge(dir.resolve("out.json"), List.of(a)));
        assertTrue(e.getMessage().contains("rawData"), e.getMessage());
    }
}
