package dev.larch.server.net;

import java.util.Arrays;

import io.netty.buffer.ByteBuf;

/**
 * Measures, straight from the BER and without recursion, how deep the filter of a SearchRequest PDU
 * nests, so that a hostile filter is refused before the Apache decoder (whose filter-to-{@code ExprNode}
 * conversion recurses) and the search engine see it.
 *
 * <p>Depth counts filter elements on the path from the top: {@code (cn=x)} is 1, {@code (&(cn=x))} is
 * 2. Only and, or and not (RFC 4511 §4.5.1.7) contain filters; every other choice is a leaf.
 * Stateless and thread-safe.
 */
final class SearchFilterDepth {

    /** SearchRequest fields before the filter: baseObject, scope, derefAliases, sizeLimit, timeLimit, typesOnly. */
    private static final int FIELDS_BEFORE_FILTER = 6;

    private SearchFilterDepth() {}

    /**
     * True when {@code pdu} (one whole LDAPMessage, from its reader index) is a SearchRequest whose
     * filter nests deeper than {@code maxDepth}. False for any other PDU, for a shallow enough filter,
     * and for BER too broken to tell (the real decoder then rejects it).
     */
    static boolean exceeds(ByteBuf pdu, int maxDepth) {
        BerHeader h = new BerHeader();
        int end = pdu.writerIndex();
        int index = pdu.readerIndex();
        if (h.read(pdu, index, end) != BerHeader.Status.COMPLETE || h.tag() != BerHeader.SEQUENCE) {
            return false;
        }
        index += h.headerLength();
        if (h.read(pdu, index, end) != BerHeader.Status.COMPLETE) {
            return false;
        }
        index += (int) h.elementLength(); // messageID
        if (h.read(pdu, index, end) != BerHeader.Status.COMPLETE || h.tag() != BerHeader.SEARCH_REQUEST) {
            return false;
        }
        long opEnd = index + h.elementLength();
        if (opEnd > end) {
            return false;
        }
        index += h.headerLength();
        for (int i = 0; i < FIELDS_BEFORE_FILTER; i++) {
            if (h.read(pdu, index, (int) opEnd) != BerHeader.Status.COMPLETE || index + h.elementLength() > opEnd) {
                return false;
            }
            index += (int) h.elementLength();
        }
        if (h.read(pdu, index, (int) opEnd) != BerHeader.Status.COMPLETE || index + h.elementLength() > opEnd) {
            return false;
        }
        return filterExceeds(pdu, index, (int) (index + h.elementLength()), maxDepth, h);
    }

    /** Walks the filter element in [start, end) with an explicit stack of open connectives' end offsets. */
    private static boolean filterExceeds(ByteBuf pdu, int start, int end, int maxDepth, BerHeader h) {
        int[] openEnds = new int[Math.min(maxDepth, 64)];
        int open = 0;
        int index = start;
        while (index < end) {
            while (open > 0 && index >= openEnds[open - 1]) {
                open--;
            }
            int limit = open > 0 ? openEnds[open - 1] : end;
            if (h.read(pdu, index, limit) != BerHeader.Status.COMPLETE || index + h.elementLength() > limit) {
                return false;
            }
            if (open + 1 > maxDepth) {
                return true;
            }
            int tag = h.tag();
            if (tag == BerHeader.FILTER_AND || tag == BerHeader.FILTER_OR || tag == BerHeader.FILTER_NOT) {
                if (open == openEnds.length) {
                    openEnds = Arrays.copyOf(openEnds, Math.min(maxDepth, openEnds.length * 2));
                }
                openEnds[open++] = index + (int) h.elementLength();
                index += h.headerLength();
            } else {
                index += (int) h.elementLength();
            }
        }
        return false;
    }
}
