package dev.larch.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** Writes and reads result.json. Reading tolerates fields added by later harness versions. */
public final class JsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private JsonReport() {}

    public static void write(BenchResult result, Path file) throws IOException {
        MAPPER.writeValue(file.toFile(), result);
    }

    public static String toJson(BenchResult result) {
        try {
            return MAPPER.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a result record failed to serialise", e);
        }
    }

    /** The JSON tree of a result record, for field-by-field comparison of records that grow. */
    static JsonNode tree(Object record) {
        return MAPPER.valueToTree(record);
    }

    /** A record of type {@code type} from a JSON tree made by {@link #tree(Object)}. */
    static <T> T fromTree(JsonNode node, Class<T> type) {
        try {
            return MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a result record failed to read back", e);
        }
    }

    /**
     * @throws IllegalArgumentException if the file is missing or is not a bench result
     */
    public static BenchResult read(Path file) {
        try {
            BenchResult r = MAPPER.readValue(Files.readAllBytes(file), BenchResult.class);
            if (r == null || r.summary() == null || r.config() == null) {
                throw new IllegalArgumentException(file + " is not a larch bench result (no config or summary)");
            }
            return r;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("result file not found: " + file);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(file + " is not a larch bench result: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        }
    }
}
