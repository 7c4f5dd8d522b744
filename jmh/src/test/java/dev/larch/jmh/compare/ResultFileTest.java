package dev.larch.jmh.compare;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultFileTest {

    /** The shape JMH 1.37 writes with -rf json, trimmed to the fields that matter. */
    private static final String JMH_JSON = """
            [
              {
                "jmhVersion" : "1.37",
                "benchmark" : "dev.larch.jmh.StoreBenchmark.equalityLookup",
                "mode" : "avgt",
                "threads" : 1,
                "forks" : 1,
                "params" : { "entries" : "100000" },
                "primaryMetric" : {
                  "score" : 5.25,
                  "scoreError" : 0.5,
                  "scoreConfidence" : [ 4.75, 5.75 ],
                  "scoreUnit" : "us/op",
                  "rawData" : [ [ 5.0, 5.5 ] ]
                },
                "secondaryMetrics" : { }
              },
              {
                "jmhVersion" : "1.37",
                "benchmark" : "dev.larch.jmh.DnBenchmark.parseMixedCaseDn",
                "mode" : "avgt",
                "primaryMetric" : { "score" : 900.0, "scoreError" : "NaN", "scoreUnit" : "ns/op" }
              }
            ]
            """;

    @Test
    void readsScoresErrorsUnitsAndParams() throws IOException {
        List<Score> scores = ResultFile.parse(JMH_JSON);
        assertEquals(2, scores.size());
        Score lookup = scores.get(0);
        assertEquals("dev.larch.jmh.StoreBenchmark.equalityLookup", lookup.benchmark());
        assertEquals(Map.of("entries", "100000"), lookup.params());
        assertEquals(5.25, lookup.score());
        assertEquals(0.5, lookup.error());
        assertEquals("us/op", lookup.unit());
        assertEquals("StoreBenchmark.equalityLookup [entries=100000]", lookup.displayName());
        assertTrue(Double.isNaN(scores.get(1).error()), "JMH writes an unknown error as \"NaN\"");
    }

    @Test
    void refusesWhatIsNotAJmhResult() {
        assertThrows(IllegalArgumentException.class, () -> ResultFile.parse("{\"benchmark\": 1}"));
        assertThrows(IllegalArgumentException.class, () -> ResultFile.parse("[{\"score\": 1}]"));
    }
}
