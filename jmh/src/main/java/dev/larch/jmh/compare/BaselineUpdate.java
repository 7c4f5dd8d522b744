package dev.larch.jmh.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

/**
 * Records some benchmarks into an existing baseline: each newly recorded benchmark replaces the
 * baseline's entry for the same benchmark, parameters and mode, or is added; every other entry is
 * kept as it was. Re-recording one noisy benchmark must not throw away the rest of a baseline that
 * took most of an hour to record.
 */
public final class BaselineUpdate {
    private static final ObjectMapper JSON = new ObjectMapper();

    private BaselineUpdate() {}

    /**
     * Writes {@code baseline} with the entries of {@code recorded} put in, atomically (a temporary
     * file beside it, then a rename), and returns how many of its entries were replaced.
     *
     * @throws IOException when either file cannot be read, is not a JMH JSON result, or the
     *     baseline cannot be written
     */
    public static int merge(Path baseline, Path recorded) throws IOException {
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        for (JsonNode entry : array(baseline)) {
            entries.put(key(entry), entry);
        }
        int replaced = 0;
        for (JsonNode entry : array(recorded)) {
            if (entries.put(key(entry), entry) != null) {
                replaced++;
            }
        }
        ArrayNode merged = JSON.createArrayNode();
        entries.values().forEach(merged::add);
        Path folder = baseline.toAbsolutePath().getParent();
        Path temporary = Files.createTempFile(folder, ".baseline-", ".json");
        try {
            Files.writeString(temporary, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(merged) + "\n");
            Files.move(temporary, baseline, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
        return replaced;
    }

    private static ArrayNode array(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        if (root == null || !root.isArray()) {
            throw new IOException(file + ": not a JMH JSON result (expected an array of benchmarks)");
        }
        for (JsonNode entry : root) {
            if (!entry.hasNonNull("benchmark")) {
                throw new IOException(file + ": not a JMH JSON result (an element lacks benchmark)");
            }
        }
        return (ArrayNode) root;
    }

    /** The same measurement in both files: benchmark, mode, then params in name order. */
    private static String key(JsonNode entry) {
        Map<String, String> params = new TreeMap<>();
        entry.path("params")
                .properties()
                .forEach(e -> params.put(e.getKey(), e.getValue().asText()));
        return entry.get("benchmark").asText() + " " + entry.path("mode").asText() + " " + params;
    }
}
