package dev.larch.bench.report;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The tag of one histogram in histograms.hlog: {@code run=R;phase=P;all} (every operation),
 * {@code run=R;phase=P;connect} (connect + bind) or {@code run=R;phase=P;op=NAME} (one operation,
 * NAME URL-encoded because HdrHistogram's log format ends a tag at a comma or a space).
 *
 * @param run run number, 1-based
 * @param phase "warm-up" or "measure"
 * @param kind which histogram of the interval
 * @param operation the operation's name for {@link Kind#OPERATION}, else null
 */
public record HistogramTag(int run, String phase, Kind kind, String operation) {
    /** What the tagged histogram counts. */
    public enum Kind {
        ALL,
        CONNECT,
        OPERATION
    }

    public static HistogramTag all(int run, String phase) {
        return new HistogramTag(run, phase, Kind.ALL, null);
    }

    public static HistogramTag connect(int run, String phase) {
        return new HistogramTag(run, phase, Kind.CONNECT, null);
    }

    public static HistogramTag operation(int run, String phase, String name) {
        return new HistogramTag(run, phase, Kind.OPERATION, name);
    }

    /** The tag as written to the log. */
    public String format() {
        String head = "run=" + run + ";phase=" + phase + ";";
        return switch (kind) {
            case ALL -> head + "all";
            case CONNECT -> head + "connect";
            case OPERATION -> head + "op=" + URLEncoder.encode(operation, StandardCharsets.UTF_8);
        };
    }

    /**
     * Reads a tag written by {@link #format()}.
     *
     * @throws IllegalArgumentException if {@code tag} is null or not of that form
     */
    public static HistogramTag parse(String tag) {
        String[] parts = tag == null ? new String[0] : tag.split(";", -1);
        if (parts.length != 3 || !parts[0].startsWith("run=") || !parts[1].startsWith("phase=")) {
            throw new IllegalArgumentException("not a larch histogram tag: " + tag);
        }
        int run;
        try {
            run = Integer.parseInt(parts[0].substring(4));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a larch histogram tag: " + tag, e);
        }
        String phase = parts[1].substring(6);
        if (parts[2].equals("all")) {
            return all(run, phase);
        }
        if (parts[2].equals("connect")) {
            return connect(run, phase);
        }
        if (parts[2].startsWith("op=")) {
            return operation(run, phase, URLDecoder.decode(parts[2].substring(3), StandardCharsets.UTF_8));
        }
        throw new IllegalArgumentException("not a larch histogram tag: " + tag);
    }
}
