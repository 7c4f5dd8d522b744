package dev.larch.server.monitor;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4) for tests: every line is
 * a {@code # HELP}, a {@code # TYPE} or a sample whose metric family was typed before it, label values
 * are quoted and escaped, values parse as numbers, and no series appears twice. Throws on the first
 * line that breaks a rule, naming it.
 */
final class Exposition {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") .*");
    private static final Pattern TYPE = Pattern.compile(
            "# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped|info|stateset|gaugehistogram|unknown)");
    private static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\"");
    private static final Pattern SAMPLE =
            Pattern.compile("(" + NAME + ")(\\{(?:" + LABEL + ")(?:," + LABEL + ")*,?\\})? (\\S+)( -?\\d+)?");

    private Exposition() {}

    /** Series (name with its labels, as written) to value, in order. */
    static Map<String, Double> parse(String text) {
        Map<String, String> types = new HashMap<>();
        Map<String, Double> samples = new LinkedHashMap<>();
        Set<String> helped = new HashSet<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isEmpty()) {
                continue;
            }
            Matcher help = HELP.matcher(line);
            Matcher type = TYPE.matcher(line);
            Matcher sample = SAMPLE.matcher(line);
            if (help.matches()) {
                if (!helped.add(help.group(1))) {
                    throw new AssertionError("line " + n + ": second HELP for " + help.group(1));
                }
            } else if (type.matches()) {
                if (types.put(type.group(1), type.group(2)) != null) {
                    throw new AssertionError("line " + n + ": second TYPE for " + type.group(1));
                }
            } else if (line.startsWith("#")) {
                throw new AssertionError("line " + n + ": a comment that is neither HELP nor TYPE: " + line);
            } else if (sample.matches()) {
                Matcher m = sample;
                String name = m.group(1);
                if (family(name, types) == null) {
                    throw new AssertionError("line " + n + ": sample of an untyped family: " + line);
                }
                double value = value(m.group(m.groupCount() - 1), n);
                String series = line.substring(
                                0,
                                line.length()
                                        - m.group(m.groupCount() - 1).length()
                                        - (m.group(m.groupCount()) == null
                                                ? 0
                                                : m.group(m.groupCount()).length()))
                        .strip();
                if (samples.put(series, value) != null) {
                    throw new AssertionError("line " + n + ": series written twice: " + series);
                }
            } else {
                throw new AssertionError("line " + n + ": not a valid exposition line: " + line);
            }
        }
        return samples;
    }

    /** The typed family a sample belongs to: itself, or itself without a histogram/counter suffix. */
    private static String family(String sample, Map<String, String> types) {
        if (types.containsKey(sample)) {
            return sample;
        }
        for (String suffix : new String[] {"_total", "_bucket", "_count", "_sum", "_created", "_info"}) {
            if (sample.endsWith(suffix)) {
                String base = sample.substring(0, sample.length() - suffix.length());
                if (types.containsKey(base)) {
                    return base;
                }
            }
        }
        return null;
    }

    private static double value(String text, int line) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                try {
                    yield Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new AssertionError("line " + line + ": not a number: " + text, e);
                }
            }
        };
    }
}
