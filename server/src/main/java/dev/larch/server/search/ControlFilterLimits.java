package dev.larch.server.search;

import java.util.Arrays;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * The bounds a filter carried inside a control (the assertion control, RFC 4528, and the matched
 * values control, RFC 3876) is held to: the same as a search filter's ({@code listen.max-filter-depth},
 * {@code listen.max-filter-elements}), measured on the BER before anything decodes it, without
 * recursion, so a control cannot carry the filter a search request may not.
 *
 * <p>The bounds are the listener's, process-wide as the listener's are: set once at start
 * ({@link #set}); until then the listener's defaults apply. Thread-safe.
 */
public final class ControlFilterLimits {
    /** The listener's defaults ({@code dev.larch.server.net.ListenerOptions}). */
    static final int DEFAULT_MAX_DEPTH = 100;

    static final int DEFAULT_MAX_ELEMENTS = 10_000;

    private static final int FILTER_AND = 0xA0;
    private static final int FILTER_OR = 0xA1;
    private static final int FILTER_NOT = 0xA2;

    private static volatile Bounds bounds = new Bounds(DEFAULT_MAX_DEPTH, DEFAULT_MAX_ELEMENTS);

    private record Bounds(int maxDepth, int maxElements) {}

    private ControlFilterLimits() {}

    /** Holds control filters to the listener's bounds from now on. */
    public static void set(int maxDepth, int maxElements) {
        if (maxDepth < 1 || maxElements < 1) {
            throw new IllegalArgumentException("filter bounds must be >= 1, were " + maxDepth + " and " + maxElements);
        }
        bounds = new Bounds(maxDepth, maxElements);
    }

    /**
     * Refuses a control whose filter elements, taken together, nest deeper or count more than a search
     * filter may; {@code elements} are the BER-encoded filters of one control (one for the assertion,
     * one per item for matched values). Malformed BER is left to the decoder that follows.
     *
     * @throws ResultCodeException as for a search filter: protocolError past the depth, adminLimitExceeded
     *     past the element count, each naming its key
     */
    public static void check(String control, byte[]... elements) {
        Bounds b = bounds;
        long count = 0;
        for (byte[] element : elements) {
            if (element == null) {
                continue;
            }
            count += measure(element, b, control, count);
        }
    }

    /** The elements of one BER filter, refusing it past the bounds; {@code before} elements came earlier. */
    private static long measure(byte[] ber, Bounds b, String control, long before) {
        // Iterative: the ends of the open and/or/not elements, innermost last.
        int[] open = new int[Math.min(b.maxDepth(), 64) + 1];
        int depth = 0;
        long count = 0;
        int index = 0;
        while (index < ber.length) {
            while (depth > 0 && index >= open[depth - 1]) {
                depth--;
            }
            int tag = ber[index] & 0xFF;
            int[] header = header(ber, index);
            if (header == null) {
                return count; // malformed: the decoder says so
            }
            int valueStart = header[0];
            int end = valueStart + header[1];
            if (++count + before > b.maxElements()) {
                throw new ResultCodeException(
                        ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                        "the " + control + " control's filter has more than " + b.maxElements()
                                + " elements (listen.max-filter-elements)");
            }
            if (tag == FILTER_AND || tag == FILTER_OR || tag == FILTER_NOT) {
                if (depth + 1 > b.maxDepth()) {
                    throw new ResultCodeException(
                            ResultCodeEnum.PROTOCOL_ERROR,
                            "the " + control + " control's filter nests deeper than " + b.maxDepth()
                                    + " (listen.max-filter-depth)");
                }
                if (depth == open.length) {
                    open = Arrays.copyOf(open, open.length * 2);
                }
                open[depth++] = end;
                index = valueStart;
            } else {
                // A leaf one level below the open connectives: its depth is depth + 1.
                if (depth + 1 > b.maxDepth()) {
                    throw new ResultCodeException(
                            ResultCodeEnum.PROTOCOL_ERROR,
                            "the " + control + " control's filter nests deeper than " + b.maxDepth()
                                    + " (listen.max-filter-depth)");
                }
                index = end;
            }
        }
        return count;
    }

    /** {value start, value length} of the BER element at {@code index}, or null when it is cut short or too long. */
    private static int[] header(byte[] ber, int index) {
        if (index + 2 > ber.length) {
            return null;
        }
        int first = ber[index + 1] & 0xFF;
        int at = index + 2;
        long length;
        if (first < 0x80) {
            length = first;
        } else {
            int octets = first & 0x7F;
            if (octets == 0 || octets > 4 || at + octets > ber.length) {
                return null;
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = (length << 8) | (ber[at++] & 0xFF);
            }
        }
        if (at + length > ber.length) {
            return null;
        }
        return new int[] {at, (int) length};
    }
}
