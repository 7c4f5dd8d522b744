package dev.larch.bench.resource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the Prometheus text exposition format (version 0.0.4), the format Larch's metrics endpoint
 * and most exporters serve: {@code name{label="value",...} value [timestamp]} lines, with comment
 * lines starting with {@code #}. Label values may hold escaped {@code \\}, {@code \"} and {@code \n},
 * and commas or braces inside quotes. The Prometheus Java client writes this format but has no parser.
 */
public final class PrometheusText {
    private PrometheusText() {}

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    /**
     * Every sample, in order.
     *
     * @throws IllegalArgumentException naming the line that is not a sample
     */
    public static List<Sample> parse(String text) {
        List<Sample> samples = new ArrayList<>();
        int lineNumber = 0;
        for (String line : text.split("\n")) {
            lineNumber++;
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            try {
                samples.add(sample(l));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "not Prometheus text format at line " + lineNumber + " (" + e.getMessage() + "): " + l, e);
            }
        }
        return samples;
    }

    private static Sample sample(String line) {
        int i = 0;
        while (i < line.length() && isNameChar(line.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("no metric name");
        }
        String name = line.substring(0, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
        }
        String[] rest = line.substring(i).strip().split("\\s+");
        if (rest.length < 1 || rest[0].isEmpty()) {
            throw new IllegalArgumentException("no value");
        }
        return new Sample(name, labels, value(rest[0]));
    }

    /** Reads {@code a="x",b="y"}} from {@code i}; returns the index after the closing brace. */
    private static int labels(String line, int i, Map<String, String> labels) {
        while (true) {
            while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == ',')) {
                i++;
            }
            if (i >= line.length()) {
                throw new IllegalArgumentException("unclosed label set");
            }
            if (line.charAt(i) == '}') {
                return i + 1;
            }
            int start = i;
            while (i < line.length() && isNameChar(line.charAt(i))) {
                i++;
            }
            String key = line.substring(start, i);
            if (key.isEmpty() || i + 1 >= line.length() || line.charAt(i) != '=' || line.charAt(i + 1) != '"') {
                throw new IllegalArgumentException("bad label at column " + (start + 1));
            }
            i += 2;
            StringBuilder value = new StringBuilder();
            while (true) {
                if (i >= line.length()) {
                    throw new IllegalArgumentException("unclosed label value");
                }
                char c = line.charAt(i++);
                if (c == '"') {
                    break;
                }
                if (c == '\\' && i < line.length()) {
                    char e = line.charAt(i++);
                    value.append(e == 'n' ? '\n' : e);
                } else {
                    value.append(c);
                }
            }
            labels.put(key, value.toString());
        }
    }

    private static double value(String s) {
        return switch (s) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(s);
        };
    }

    private static boolean isNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':';
    }
}
