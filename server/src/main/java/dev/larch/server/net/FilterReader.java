package dev.larch.server.net;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import org.apache.directory.api.ldap.model.exception.LdapSchemaException;
import org.apache.directory.api.ldap.model.filter.AndNode;
import org.apache.directory.api.ldap.model.filter.ApproximateNode;
import org.apache.directory.api.ldap.model.filter.BranchNode;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.GreaterEqNode;
import org.apache.directory.api.ldap.model.filter.LessEqNode;
import org.apache.directory.api.ldap.model.filter.NotNode;
import org.apache.directory.api.ldap.model.filter.OrNode;
import org.apache.directory.api.ldap.model.filter.PresenceNode;
import org.apache.directory.api.ldap.model.filter.SubstringNode;
import org.apache.directory.api.util.Strings;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Reads a SearchRequest's Filter (RFC 4511 §4.5.1.7) straight from the BER into the {@link ExprNode}
 * tree the Apache decoder builds for it: schema-less nodes holding the attribute description as sent
 * and the assertion value as raw bytes, substrings as strings.
 *
 * <p>Knows only the common shapes and answers null, "not sure", for anything else, so that the caller
 * can leave the PDU to the Apache decoder and its error answers: extensible match, an empty and, or or
 * not, a not with more than one filter, an empty attribute description or substring, substrings out of
 * RFC order, a length that does not end exactly where its parent does, nesting beyond {@link
 * #MAX_DEPTH}.
 *
 * <p>Mutable and reused; not thread-safe (one per decoder).
 */
final class FilterReader {

    /**
     * The deepest filter read here; deeper ones (which {@link SearchFilterDepth} already allowed) go
     * to the Apache decoder, so that this recursion stays shallow whatever the configured limit.
     */
    static final int MAX_DEPTH = 32;

    private final BerHeader header = new BerHeader();
    /** Where the element read last ends: the next sibling's start. */
    private int next;

    /**
     * The filter that fills {@code [index, end)} of {@code pdu} exactly, or null when the Apache
     * decoder must judge it.
     */
    ExprNode read(ByteBuf pdu, int index, int end) {
        ExprNode filter = filter(pdu, index, end, 1);
        return filter != null && next == end ? filter : null;
    }

    private ExprNode filter(ByteBuf pdu, int index, int limit, int depth) {
        if (depth > MAX_DEPTH || header.readElement(pdu, index, limit) != BerHeader.Status.COMPLETE) {
            return null;
        }
        int tag = header.tag();
        int valueIndex = header.valueIndex();
        int end = header.endIndex();
        if (valueIndex == end) {
            return null;
        }
        ExprNode node = switch (tag) {
            case BerTags.FILTER_AND -> children(pdu, new AndNode(), valueIndex, end, depth);
            case BerTags.FILTER_OR -> children(pdu, new OrNode(), valueIndex, end, depth);
            case BerTags.FILTER_NOT -> not(pdu, valueIndex, end, depth);
            case BerTags.FILTER_EQUALITY_MATCH,
                    BerTags.FILTER_GREATER_OR_EQUAL,
                    BerTags.FILTER_LESS_OR_EQUAL,
                    BerTags.FILTER_APPROX_MATCH -> assertion(pdu, tag, valueIndex, end);
            case BerTags.FILTER_SUBSTRINGS -> substrings(pdu, valueIndex, end);
            case BerTags.FILTER_PRESENT -> new PresenceNode(pdu.toString(valueIndex, end - valueIndex, UTF_8));
            default -> null;
        };
        next = end;
        return node;
    }

    private ExprNode children(ByteBuf pdu, BranchNode branch, int index, int end, int depth) {
        int at = index;
        while (at < end) {
            ExprNode child = filter(pdu, at, end, depth + 1);
            if (child == null) {
                return null;
            }
            branch.addNode(child);
            at = next;
        }
        return branch;
    }

    private ExprNode not(ByteBuf pdu, int index, int end, int depth) {
        ExprNode child = filter(pdu, index, end, depth + 1);
        if (child == null || next != end) {
            return null;
        }
        NotNode not = new NotNode();
        not.addNode(child);
        return not;
    }

    /** AttributeValueAssertion ::= SEQUENCE { attributeDesc AttributeDescription, assertionValue AssertionValue } */
    private ExprNode assertion(ByteBuf pdu, int tag, int index, int end) {
        if (!octetString(pdu, index, end) || header.valueLength() == 0) {
            return null;
        }
        String attribute = pdu.toString(header.valueIndex(), header.valueLength(), UTF_8);
        if (!octetString(pdu, header.endIndex(), end) || header.endIndex() != end) {
            return null;
        }
        byte[] value = bytes(pdu, header.valueIndex(), header.valueLength());
        try {
            return switch (tag) {
                case BerTags.FILTER_EQUALITY_MATCH -> new EqualityNode<>(attribute, value);
                case BerTags.FILTER_GREATER_OR_EQUAL -> new GreaterEqNode<>(attribute, value);
                case BerTags.FILTER_LESS_OR_EQUAL -> new LessEqNode<>(attribute, value);
                default -> new ApproximateNode<>(attribute, value);
            };
        } catch (LdapSchemaException e) {
            // Only schema-aware nodes without an ordering rule throw; these nodes carry no schema.
            return null;
        }
    }

    /**
     * SubstringFilter ::= SEQUENCE { type AttributeDescription, substrings SEQUENCE SIZE (1..MAX) OF
     * CHOICE { initial [0], any [1], final [2] } }, initial at most once and first, final at most once
     * and last.
     */
    private ExprNode substrings(ByteBuf pdu, int index, int end) {
        if (!octetString(pdu, index, end) || header.valueLength() == 0) {
            return null;
        }
        String attribute = pdu.toString(header.valueIndex(), header.valueLength(), UTF_8);
        if (header.readElement(pdu, header.endIndex(), end) != BerHeader.Status.COMPLETE
                || header.tag() != BerTags.SEQUENCE
                || header.endIndex() != end
                || header.valueLength() == 0) {
            return null;
        }
        String initial = null;
        String last = null;
        List<String> any = new ArrayList<>(1);
        int at = header.valueIndex();
        boolean first = true;
        while (at < end) {
            if (last != null
                    || header.readElement(pdu, at, end) != BerHeader.Status.COMPLETE
                    || header.valueLength() == 0) {
                return null;
            }
            String part = pdu.toString(header.valueIndex(), header.valueLength(), UTF_8);
            switch (header.tag()) {
                case BerTags.SUBSTRING_INITIAL -> {
                    if (!first) {
                        return null;
                    }
                    initial = part;
                }
                case BerTags.SUBSTRING_ANY -> any.add(part);
                case BerTags.SUBSTRING_FINAL -> last = part;
                default -> {
                    return null;
                }
            }
            first = false;
            at = header.endIndex();
        }
        return new SubstringNode(any, attribute, initial, last);
    }

    private boolean octetString(ByteBuf pdu, int index, int end) {
        return header.readElement(pdu, index, end) == BerHeader.Status.COMPLETE && header.tag() == BerTags.OCTET_STRING;
    }

    private static byte[] bytes(ByteBuf pdu, int index, int length) {
        if (length == 0) {
            return Strings.EMPTY_BYTES;
        }
        byte[] bytes = new byte[length];
        pdu.getBytes(index, bytes);
        return bytes;
    }
}
