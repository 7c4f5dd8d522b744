package dev.larch.server.net;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.protocol.SearchDone;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.message.AliasDerefMode;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Decodes the common SearchRequest (RFC 4511 §4.5.1) straight from the framed PDU into the model the
 * Apache decoder builds for it — a {@link SearchRequestImpl} with the same base {@link Dn}, scope,
 * deref, limits, typesOnly, {@link ExprNode} filter and attribute list — without the Apache decoder's
 * TLV objects, intermediate filter objects and per-element state machine, which cost a sixth of the
 * event loop's time on an equality-search load.
 *
 * <pre>
 * SearchRequest ::= [APPLICATION 3] SEQUENCE {
 *      baseObject LDAPDN, scope ENUMERATED, derefAliases ENUMERATED,
 *      sizeLimit INTEGER (0 .. maxInt), timeLimit INTEGER (0 .. maxInt), typesOnly BOOLEAN,
 *      filter Filter, attributes AttributeSelection }
 * </pre>
 *
 * <p>Answers null, "not sure", for anything outside that common shape, and the caller leaves the PDU
 * to the Apache decoder, whose answer (decoded request or error) is then exactly what it always was:
 * an integer or boolean in an unusual encoding or out of range, a base DN the Apache {@link Dn} parser
 * refuses, a filter {@link FilterReader} does not read, any element that does not nest exactly.
 * Whatever it does return equals what the Apache decoder returns for the same bytes
 * (SearchRequestReaderTest compares the two on random requests).
 *
 * <p>Mutable and reused; not thread-safe (one per decoder).
 */
final class SearchRequestReader {

    private static final int BOOLEAN_TRUE = 0xFF;
    /** The largest scope the Apache model knows: wholeSubtree (subordinates is patched elsewhere). */
    private static final int MAX_SCOPE = 2;
    /** derefAlways. */
    private static final int MAX_DEREF = 3;
    /** Integers up to maxInt take at most four octets. */
    private static final int MAX_INTEGER_OCTETS = 4;

    private final BerHeader header = new BerHeader();
    private final FilterReader filterReader = new FilterReader();
    /**
     * The last base DN parsed and its bytes: a client's searches mostly share one base (its suffix),
     * and parsing it anew cost a search more than every other decoding step together. A {@link Dn} is
     * immutable, so requests may share one.
     */
    private byte[] lastBaseBytes;

    /**
     * The longest base DN or attribute list (in bytes) a connection remembers: the lists clients send
     * again and again are short, and a connection must not keep what a hostile client made big (a
     * 256 KB list on each of many anonymous connections) once its request is done.
     */
    static final int MAX_REMEMBERED_BYTES = 1024;

    private Dn lastBase;
    /** The last attribute list read and its bytes, for the same reason: a client asks for the same list. */
    private byte[] lastAttributesBytes;

    private String[] lastAttributes;

    /**
     * The SearchRequest whose fields (inside its [APPLICATION 3] header) fill {@code [index, end)} of
     * {@code pdu} exactly, under {@code messageId}; null when the Apache decoder must decode it. Reads
     * without moving the buffer's indices.
     */
    SearchRequest read(ByteBuf pdu, int messageId, int index, int end) {
        if (!element(pdu, index, end, BerTags.OCTET_STRING)) {
            return null;
        }
        int baseIndex = header.valueIndex();
        int baseLength = header.valueLength();

        int scope = smallEnumerated(pdu, header.endIndex(), end, MAX_SCOPE);
        if (scope < 0) {
            return null;
        }
        int deref = smallEnumerated(pdu, header.endIndex(), end, MAX_DEREF);
        if (deref < 0) {
            return null;
        }
        int sizeLimit = nonNegativeInteger(pdu, header.endIndex(), end);
        if (sizeLimit < 0) {
            return null;
        }
        int timeLimit = nonNegativeInteger(pdu, header.endIndex(), end);
        if (timeLimit < 0) {
            return null;
        }
        if (!element(pdu, header.endIndex(), end, BerTags.BOOLEAN) || header.valueLength() != 1) {
            return null;
        }
        int typesOnly = pdu.getUnsignedByte(header.valueIndex());
        if (typesOnly != 0 && typesOnly != BOOLEAN_TRUE) {
            return null;
        }

        int filterIndex = header.endIndex();
        if (header.readElement(pdu, filterIndex, end) != BerHeader.Status.COMPLETE) {
            return null;
        }
        int attributesIndex = header.endIndex();
        ExprNode filter = filterReader.read(pdu, filterIndex, attributesIndex);
        if (filter == null || !element(pdu, attributesIndex, end, BerTags.SEQUENCE) || header.endIndex() != end) {
            return null;
        }

        SearchRequestImpl request = new EndsWithSearchDone();
        if (!readAttributes(pdu, header.valueIndex(), end, request)) {
            return null;
        }
        Dn base = dn(pdu, baseIndex, baseLength);
        if (base == null) {
            return null;
        }
        request.setMessageId(messageId);
        request.setBase(base);
        request.setScope(SearchScope.getSearchScope(scope));
        request.setDerefAliases(AliasDerefMode.getDerefMode(deref));
        request.setSizeLimit(sizeLimit);
        request.setTimeLimit(timeLimit);
        request.setTypesOnly(typesOnly != 0);
        request.setFilter(filter);
        return request;
    }

    /**
     * Adds the AttributeDescriptions in {@code [index, end)} as the Apache decoder does: an empty or
     * blank one is left out. False if an element is not an OCTET STRING ending inside the list.
     */
    private boolean readAttributes(ByteBuf pdu, int index, int end, SearchRequestImpl request) {
        String[] attributes = lastAttributes;
        if (attributes == null || !sameBytes(pdu, index, end - index, lastAttributesBytes)) {
            List<String> names = new ArrayList<>();
            int at = index;
            while (at < end) {
                if (!element(pdu, at, end, BerTags.OCTET_STRING)) {
                    return false;
                }
                if (header.valueLength() > 0) {
                    String attribute = pdu.toString(header.valueIndex(), header.valueLength(), UTF_8);
                    if (!attribute.trim().isEmpty()) {
                        names.add(attribute);
                    }
                }
                at = header.endIndex();
            }
            attributes = names.toArray(String[]::new);
            if (end - index <= MAX_REMEMBERED_BYTES) {
                lastAttributes = attributes;
                lastAttributesBytes = ByteBufUtil.getBytes(pdu, index, end - index);
            }
        }
        if (attributes.length > 0) {
            request.addAttributes(attributes);
        }
        return true;
    }

    /** The base DN as the Apache decoder parses it; null if it refuses it (it then answers invalidDNSyntax). */
    private Dn dn(ByteBuf pdu, int index, int length) {
        if (length == 0) {
            return Dn.EMPTY_DN;
        }
        if (lastBase != null && sameBytes(pdu, index, length, lastBaseBytes)) {
            return lastBase;
        }
        Dn parsed;
        try {
            parsed = new Dn(pdu.toString(index, length, UTF_8));
        } catch (LdapInvalidDnException | RuntimeException e) {
            return null;
        }
        if (length <= MAX_REMEMBERED_BYTES) {
            lastBaseBytes = ByteBufUtil.getBytes(pdu, index, length);
            lastBase = parsed;
        }
        return parsed;
    }

    private static boolean sameBytes(ByteBuf pdu, int index, int length, byte[] bytes) {
        if (length != bytes.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (pdu.getByte(index + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** A one-octet ENUMERATED in 0..max, or -1. */
    private int smallEnumerated(ByteBuf pdu, int index, int end, int max) {
        if (!element(pdu, index, end, BerTags.ENUMERATED) || header.valueLength() != 1) {
            return -1;
        }
        int value = pdu.getUnsignedByte(header.valueIndex());
        return value <= max ? value : -1;
    }

    /** An INTEGER of one to four octets in 0..maxInt, or -1. */
    private int nonNegativeInteger(ByteBuf pdu, int index, int end) {
        if (!element(pdu, index, end, BerTags.INTEGER)
                || header.valueLength() < 1
                || header.valueLength() > MAX_INTEGER_OCTETS
                || pdu.getUnsignedByte(header.valueIndex()) >= 0x80) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < header.valueLength(); i++) {
            value = (value << 8) | pdu.getUnsignedByte(header.valueIndex() + i);
        }
        return value;
    }

    /** Reads the element at {@code index}, which must end by {@code end} and carry {@code tag}. */
    private boolean element(ByteBuf pdu, int index, int end, int tag) {
        return header.readElement(pdu, index, end) == BerHeader.Status.COMPLETE && header.tag() == tag;
    }

    /**
     * The request this reader returns: the API's, but its done is a {@link SearchDone}, which makes
     * no control and parameter maps until one is put (96 bytes a search).
     */
    private static final class EndsWithSearchDone extends SearchRequestImpl {
        private static final long serialVersionUID = 1L;
        private transient SearchResultDone done;

        @Override
        public SearchResultDone getResultResponse() {
            if (done == null) {
                done = new SearchDone(getMessageId());
            }
            return done;
        }
    }
}
