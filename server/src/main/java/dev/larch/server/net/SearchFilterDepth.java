package dev.larch.server.net;

import java.util.Arrays;

import io.netty.buffer.ByteBuf;

/**
 * Measures, straight from the BER and without recursion, how deep the filter of a SearchRequest
 * nests and how many elements it has, so that a hostile filter is refused before the Apache decoder
 * (whose filter-to-{@code ExprNode} conversion recurses and allocates per element) and the search
 * engine (which plans and evaluates every element) see it. Walks only the fields up to and
 * including the filter; every length on the way must fit inside its parent.
 *
 * <p>Depth counts filter elements on the path from the top: {@code (cn=x)} is 1, {@code (&(cn=x))} is
 * 2. Only and, or and not (RFC 4511 §4.5.1.7) contain filters; every other choice is a leaf. Elements
 * count every filter choice, connectives included: {@code (|(cn=a)(cn=b))} has 3.
 *
 * <p>Keeps its stack between calls so that a measurement allocates nothing; not thread-safe (one per
 * decoder).
 */
final class SearchFilterDepth {

    enum Verdict {
        WITHIN_LIMIT,
        TOO_DEEP,
        /** More filter elements than the limit. */
        TOO_MANY_ELEMENTS,
        /** A header is broken, or a length overruns the element that contains it. */
        MALFORMED
    }

    /** SearchRequest fields before the filter: baseObject, scope, derefAliases, sizeLimit, timeLimit, typesOnly. */
    private static final int FIELDS_BEFORE_FILTER = 6;

    private static final int SCOPE_FIELD = 1;

    private final int maxDepth;
    private final int maxElements;
    private final BerHeader header = new BerHeader();
    /** End offsets of the and, or and not elements enclosing the current position, innermost last. */
    private int[] openEnds;
    /** Whether the last request measured has scope 3 (subordinates) or an empty and/or (RFC 4526). */
    private boolean beyondTheCodec;

    /** A measure of depth only: any number of elements is within the limit. */
    SearchFilterDepth(int maxDepth) {
        this(maxDepth, Integer.MAX_VALUE);
    }

    /**
     * @param maxDepth the deepest filter accepted, at least 1
     * @param maxElements the most filter elements accepted, at least 1
     */
    SearchFilterDepth(int maxDepth, int maxElements) {
        if (maxDepth < 1) {
            throw new IllegalArgumentException("maxDepth must be at least 1, was " + maxDepth);
        }
        if (maxElements < 1) {
            throw new IllegalArgumentException("maxElements must be at least 1, was " + maxElements);
        }
        this.maxDepth = maxDepth;
        this.maxElements = maxElements;
        this.openEnds = new int[Math.min(maxDepth, 16)];
    }

    /**
     * Judges the SearchRequest whose value (the fields inside its [APPLICATION 3] header) lies in
     * {@code [valueIndex, end)} of {@code pdu}. Bytes after the filter are not looked at.
     */
    Verdict measure(ByteBuf pdu, int valueIndex, int end) {
        beyondTheCodec = false;
        int index = valueIndex;
        for (int i = 0; i < FIELDS_BEFORE_FILTER; i++) {
            if (header.readElement(pdu, index, end) != BerHeader.Status.COMPLETE) {
                return Verdict.MALFORMED;
            }
            if (i == SCOPE_FIELD
                    && header.valueLength() == 1
                    && pdu.getUnsignedByte(header.valueIndex()) == SearchRequestPatch.SUBORDINATES) {
                beyondTheCodec = true;
            }
            index = header.endIndex();
        }
        if (header.readElement(pdu, index, end) != BerHeader.Status.COMPLETE) {
            return Verdict.MALFORMED;
        }
        return measureFilter(pdu, index, header.endIndex());
    }

    /**
     * Whether the request last {@linkplain #measure measured} (within the limits) uses what the Apache
     * decoder refuses: the subordinates scope or an absolute true or false filter; {@link
     * SearchRequestPatch} rewrites it first.
     */
    boolean beyondTheCodec() {
        return beyondTheCodec;
    }

    /** Walks the filter element in [start, end) with an explicit stack of open connectives' end offsets. */
    private Verdict measureFilter(ByteBuf pdu, int start, int end) {
        int open = 0;
        int elements = 0;
        int index = start;
        while (index < end) {
            while (open > 0 && index == openEnds[open - 1]) {
                open--;
            }
            int limit = open > 0 ? openEnds[open - 1] : end;
            if (header.readElement(pdu, index, limit) != BerHeader.Status.COMPLETE) {
                return Verdict.MALFORMED;
            }
            if (open == maxDepth) {
                return Verdict.TOO_DEEP;
            }
            if (++elements > maxElements) {
                return Verdict.TOO_MANY_ELEMENTS;
            }
            int tag = header.tag();
            if ((tag == BerTags.FILTER_AND || tag == BerTags.FILTER_OR) && header.valueLength() == 0) {
                beyondTheCodec = true;
            }
            if (tag == BerTags.FILTER_AND || tag == BerTags.FILTER_OR || tag == BerTags.FILTER_NOT) {
                if (open == openEnds.length) {
                    openEnds = Arrays.copyOf(openEnds, Math.min(maxDepth, openEnds.length * 2));
                }
                openEnds[open++] = header.endIndex();
                index = header.valueIndex();
            } else {
                index = header.endIndex();
            }
        }
        return Verdict.WITHIN_LIMIT;
    }
}
