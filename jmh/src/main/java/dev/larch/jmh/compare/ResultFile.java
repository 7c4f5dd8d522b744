package dev.larch.jmh.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads the primary scores of a JMH result file written with {@code -rf json}. */
public final class ResultFile {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultFile() {}

    /** @throws IOException when the file cannot be read or is not a JMH JSON result */
    public static List<Score> read(Path file) throws IOException {
        try {
            return parse(Files.readString(file));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** @throws IllegalArgumentException when {@code json} is not a JMH JSON result */
    public static List<Score> parse(String json) throws IOException {
        JsonNode root = JSON.readTree(json);
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException("not a JMH JSON result (expected an array of benchmarks)");
        }
        List<Score> scores = new ArrayList<>();
        for (JsonNode run : root) {
            JsonNode metric = run.path("primaryMetric");
            if (!run.hasNonNull("benchmark") || metric.isMissingNode()) {
                throw new IllegalArgumentException(
                        "not a JMH JSON result (an element lacks benchmark or primaryMetric)");
            }
            Map<String, String> params = new LinkedHashMap<>();
            run.path("params")
                    .properties()
                    .forEach(e -> params.put(e.getKey(), e.getValue().asText()));
            scores.add(new Score(
                    run.get("benchmark").asText(),
                    params,
                    run.path("mode").asText(),
                    number(metric.path("score")),
                    number(metric.path("scoreError")),
                    metric.path("scoreUnit").asText()));
        }
        return scores;
    }

    /** JMH writes unknown values as the string "NaN". */
    private static double number(JsonNode node) {
        if (node.isNumber()) {
            return node.asDouble();
        }
        try {
            return Double.parseDouble(node.asText());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
