package dev.larch.jmh.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.openjdk.jmh.util.ListStatistics;

/**
 * Pools several JMH result files of the same benchmarks (rounds of one comparison, run at different
 * moments of a sitting) into one result whose every benchmark holds the forks of all rounds: the
 * score is the mean of every measured iteration and the error is JMH's own 99.9% confidence half-width
 * over them, exactly as JMH computes it for forks of one run.
 *
 * <p>Every input must hold the same benchmarks (name, params, mode): a round that lost a benchmark
 * is refused rather than leaving the pooled side with fewer forks than the other.
 */
public final class RoundsMerge {
    /** JMH's confidence level for {@code scoreError}. */
    private static final double CONFIDENCE = 0.999;

    private static final ObjectMapper JSON = new ObjectMapper();

    private RoundsMerge() {}

    /**
     * Writes the pooled result of {@code inputs} to {@code output}.
     *
     * @return the number of benchmarks written
     * @throws IOException when an input cannot be read or is not a JMH JSON result with raw data
     * @throws IllegalArgumentException when the inputs do not hold the same benchmarks
     */
    public static int merge(Path output, List<Path> inputs) throws IOException {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no result files to merge");
        }
        Map<String, ObjectNode> pooled = new LinkedHashMap<>();
        Map<String, ArrayNode> forks = new LinkedHashMap<>();
        for (int i = 0; i < inputs.size(); i++) {
            Path input = inputs.get(i);
            Map<String, JsonNode> runs = runs(input);
            if (i > 0 && !runs.keySet().equals(pooled.keySet())) {
                throw new IllegalArgumentException(input + " holds other benchmarks than " + inputs.get(0) + " ("
                        + runs.keySet() + " vs " + pooled.keySet() + "): did a round fail?");
            }
            for (Map.Entry<String, JsonNode> run : runs.entrySet()) {
                JsonNode raw = run.getValue().path("primaryMetric").path("rawData");
                if (!raw.isArray() || raw.isEmpty()) {
                    throw new IOException(input + ": " + run.getKey() + " has no primaryMetric.rawData");
                }
                pooled.computeIfAbsent(run.getKey(), k -> run.getValue().deepCopy());
                ArrayNode all = forks.computeIfAbsent(run.getKey(), k -> JSON.createArrayNode());
                raw.forEach(all::add);
            }
        }
        ArrayNode out = JSON.createArrayNode();
        for (Map.Entry<String, ObjectNode> entry : pooled.entrySet()) {
            ObjectNode run = entry.getValue();
            ArrayNode allForks = forks.get(entry.getKey());
            ListStatistics stats = new ListStatistics();
            allForks.forEach(fork -> fork.forEach(iteration -> stats.addValue(iteration.asDouble())));
            ObjectNode metric = (ObjectNode) run.get("primaryMetric");
            double error = stats.getN() > 2 ? stats.getMeanErrorAt(CONFIDENCE) : Double.NaN;
            metric.put("score", stats.getMean());
            if (Double.isFinite(error)) {
                metric.put("scoreError", error);
            } else {
                metric.put("scoreError", "NaN"); // as JMH writes an unknown error
            }
            metric.set("rawData", allForks);
            metric.remove("scoreConfidence");
            metric.remove("scorePercentiles");
            run.put("forks", allForks.size());
            run.remove("secondaryMetrics");
            out.add(run);
        }
        Files.writeString(output, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
        return out.size();
    }

    /** The runs of one file by benchmark, params and mode. */
    private static Map<String, JsonNode> runs(Path input) throws IOException {
        JsonNode root = JSON.readTree(Files.readString(input));
        if (root == null || !root.isArray()) {
            throw new IOException(input + ": not a JMH JSON result (expected an array of benchmarks)");
        }
        Map<String, JsonNode> runs = new LinkedHashMap<>();
        for (JsonNode run : root) {
            String key = run.path("benchmark").asText() + " " + run.path("params") + " "
                    + run.path("mode").asText();
            if (runs.put(key, run) != null) {
                throw new IOException(input + ": " + key + " appears twice");
            }
        }
        return runs;
    }
}
