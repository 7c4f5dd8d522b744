package dev.larch.server.net;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

import dev.larch.server.protocol.AbsoluteFilters;
import io.netty.buffer.ByteBuf;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * Rewrites the two parts of a SearchRequest that the Apache decoder refuses though LDAP allows them,
 * into forms it accepts, without forking it:
 *
 * <ul>
 *   <li>scope 3, subordinates (draft-sermersheim-ldap-subordinate-scope), becomes subtree; the caller
 *       marks the decoded request ({@code protocol.SubordinateScope}) so the base is left out;
 *   <li>the absolute true and false filters of RFC 4526, an empty and {@code (&)} and an empty or
 *       {@code (|)}, become presence filters on the attributes {@link AbsoluteFilters} names, which the
 *       filter compiler turns back into an empty and and an empty or.
 * </ul>
 *
 * <p>Only requests {@link SearchFilterDepth} flagged come here, after it checked every length and
 * bounded the filter's depth, so the recursion below is bounded and its copies are of rare requests.
 */
final class SearchRequestPatch {
    /** The scope value of subordinates. */
    static final int SUBORDINATES = 3;

    private static final int SUBTREE = 2;
    private static final int SCOPE_FIELD = 1;
    private static final int FILTER_FIELD = 6;

    /** The rewritten PDU, and whether it asked for the subordinates scope. */
    record Patched(byte[] pdu, boolean subordinates) {}

    private SearchRequestPatch() {}

    /** One BER element: a primitive's value, or a constructed element's children. */
    private static final class Element {
        final int tag;
        byte[] value;
        final List<Element> children;

        Element(int tag, byte[] value, List<Element> children) {
            this.tag = tag;
            this.value = value;
            this.children = children;
        }
    }

    /**
     * The readable bytes of {@code pdu}, one whole LDAPMessage holding a SearchRequest, rewritten.
     *
     * @throws IllegalArgumentException when the BER is broken (the caller refuses it as malformed)
     */
    static Patched patch(ByteBuf pdu) {
        byte[] bytes = new byte[pdu.readableBytes()];
        pdu.getBytes(pdu.readerIndex(), bytes);
        int[] position = {0};
        Element message = read(bytes, position, bytes.length);
        if (position[0] != bytes.length || message.children == null || message.children.size() < 2) {
            throw new IllegalArgumentException("not one LDAPMessage");
        }
        Element search = message.children.get(1);
        if (search.tag != BerTags.SEARCH_REQUEST || search.children == null || search.children.size() <= FILTER_FIELD) {
            throw new IllegalArgumentException("not a SearchRequest");
        }
        boolean subordinates = false;
        Element scope = search.children.get(SCOPE_FIELD);
        if (scope.value != null && scope.value.length == 1 && scope.value[0] == SUBORDINATES) {
            scope.value = new byte[] {SUBTREE};
            subordinates = true;
        }
        search.children.set(FILTER_FIELD, absolutesReplaced(search.children.get(FILTER_FIELD)));
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length + 64);
        write(message, out);
        return new Patched(out.toByteArray(), subordinates);
    }

    private static Element absolutesReplaced(Element filter) {
        if ((filter.tag == BerTags.FILTER_AND || filter.tag == BerTags.FILTER_OR) && filter.children != null) {
            if (filter.children.isEmpty()) {
                String attribute = filter.tag == BerTags.FILTER_AND
                        ? AbsoluteFilters.TRUE_ATTRIBUTE
                        : AbsoluteFilters.FALSE_ATTRIBUTE;
                return new Element(BerTags.FILTER_PRESENT, attribute.getBytes(US_ASCII), null);
            }
        }
        if ((filter.tag == BerTags.FILTER_AND || filter.tag == BerTags.FILTER_OR || filter.tag == BerTags.FILTER_NOT)
                && filter.children != null) {
            filter.children.replaceAll(SearchRequestPatch::absolutesReplaced);
        }
        return filter;
    }

    private static Element read(byte[] bytes, int[] position, int limit) {
        int at = position[0];
        if (at + 2 > limit) {
            throw new IllegalArgumentException("truncated element");
        }
        int tag = bytes[at++] & 0xFF;
        int first = bytes[at++] & 0xFF;
        int length;
        if (first < 0x80) {
            length = first;
        } else {
            int octets = first & 0x7F;
            if (octets == 0 || octets > 4 || at + octets > limit) {
                throw new IllegalArgumentException("bad length");
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = (length << 8) | (bytes[at++] & 0xFF);
            }
            if (length < 0) {
                throw new IllegalArgumentException("bad length");
            }
        }
        int end = at + length;
        if (end > limit || end < at) {
            throw new IllegalArgumentException("element overruns its parent");
        }
        position[0] = end;
        if ((tag & 0x20) == 0) {
            byte[] value = new byte[length];
            System.arraycopy(bytes, at, value, 0, length);
            return new Element(tag, value, null);
        }
        List<Element> children = new ArrayList<>();
        int[] inner = {at};
        while (inner[0] < end) {
            children.add(read(bytes, inner, end));
        }
        return new Element(tag, null, children);
    }

    private static void write(Element element, ByteArrayOutputStream out) {
        byte[] value;
        if (element.children == null) {
            value = element.value;
        } else {
            ByteArrayOutputStream inner = new ByteArrayOutputStream();
            for (Element child : element.children) {
                write(child, inner);
            }
            value = inner.toByteArray();
        }
        out.write(element.tag);
        int length = value.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int octets = length > 0xFFFFFF ? 4 : length > 0xFFFF ? 3 : length > 0xFF ? 2 : 1;
            out.write(0x80 | octets);
            for (int i = octets - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.write(value, 0, value.length);
    }
}
