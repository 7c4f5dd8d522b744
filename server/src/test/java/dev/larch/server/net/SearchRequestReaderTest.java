package dev.larch.server.net;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.apache.directory.api.asn1.ber.Asn1Decoder;
import org.apache.directory.api.asn1.ber.tlv.TLVStateEnum;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.model.filter.BranchNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.LeafNode;
import org.apache.directory.api.ldap.model.filter.SimpleNode;
import org.apache.directory.api.ldap.model.filter.SubstringNode;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Differential: whatever {@link SearchRequestReader} reads must equal what the Apache decoder decodes
 * from the same bytes (class, message id, Dn, scope, deref, limits, typesOnly, filter tree node by
 * node with its raw values, attributes), and it must leave to the Apache decoder every request that
 * decoder refuses.
 */
class SearchRequestReaderTest {

    private static final LdapApiService CODEC = LdapApiServiceFactory.getSingleton();
    private static final int SEEDS = 40;
    private static final int REQUESTS_PER_SEED = 100;

    @Test
    void commonRequestsAreReadExactlyAsTheApacheDecoderReadsThem() throws Exception {
        int read = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            RandomSearchRequests requests = new RandomSearchRequests(seed);
            for (int i = 0; i < REQUESTS_PER_SEED; i++) {
                for (byte[] pdu : List.of(requests.unboundId(false), ApacheSearchRequests.encoded(requests, CODEC))) {
                    for (byte[] variant : List.of(pdu, RandomSearchRequests.longFormLengths(pdu))) {
                        Object expected = apacheDecode(variant);
                        SearchRequest actual = readDirectly(variant);
                        String where = "seed " + seed + ", request " + i;
                        if (expected instanceof SearchRequest search) {
                            assertNotNull(actual, where + ": a request the Apache decoder reads was left to it");
                            assertSameRequest(search, actual, where);
                            read++;
                        } else {
                            assertNull(
                                    actual,
                                    where + ": read a request the Apache decoder refuses: " + describe(expected));
                        }
                    }
                }
            }
        }
        // The bases include DNs the Apache parser refuses; most requests must still take the direct path.
        assertTrue(read > SEEDS * REQUESTS_PER_SEED * 2, "read directly: " + read);
    }

    @Test
    void unusualRequestsAreReadAsTheApacheDecoderReadsThemOrLeftToIt() throws Exception {
        int read = 0;
        int left = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            RandomSearchRequests requests = new RandomSearchRequests(1000 + seed);
            for (int i = 0; i < REQUESTS_PER_SEED; i++) {
                byte[] pdu = requests.unboundId(true);
                SearchRequest actual = readDirectly(pdu);
                if (actual == null) {
                    left++;
                } else {
                    assertSameRequest(assertInstanceOf(SearchRequest.class, apacheDecode(pdu)), actual, "seed " + seed);
                    read++;
                }
            }
        }
        assertTrue(read > 0 && left > 0, "read " + read + ", left " + left);
    }

    @Test
    void mutatedRequestsAreNeverReadDifferentlyFromTheApacheDecoder() throws Exception {
        int read = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            RandomSearchRequests requests = new RandomSearchRequests(2000 + seed);
            for (int i = 0; i < REQUESTS_PER_SEED; i++) {
                byte[] pdu = requests.random.nextBoolean()
                        ? requests.unboundId(requests.random.nextBoolean())
                        : ApacheSearchRequests.encoded(requests, CODEC);
                for (int m = 0; m < 5; m++) {
                    byte[] mutated = requests.mutated(pdu);
                    SearchRequest actual = readDirectly(mutated);
                    if (actual != null) {
                        Object expected = apacheDecode(mutated);
                        String where = "seed " + seed + ", request " + i + ": " + hex(mutated);
                        assertSameRequest(
                                assertInstanceOf(SearchRequest.class, expected, where + " " + describe(expected)),
                                actual,
                                where);
                        read++;
                    }
                }
            }
        }
        assertTrue(read > 0, "no mutated request was read directly");
    }

    @Test
    void oneReaderReadingRequestAfterRequestReadsEachBaseAsTheApacheDecoderDoes() throws Exception {
        // A decoder keeps one reader, which remembers the last base and attribute list it read: a
        // repeated one, one of the same length with other bytes and a refused one after an accepted one
        // must all still read exactly as the Apache decoder reads them.
        SearchRequestReader reader = new SearchRequestReader();
        int read = 0;
        int repeated = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            RandomSearchRequests requests = new RandomSearchRequests(3000 + seed);
            for (int i = 0; i < REQUESTS_PER_SEED; i++) {
                byte[] pdu = requests.unboundId(false);
                List<byte[]> run = List.of(
                        pdu,
                        pdu,
                        withBaseByteChanged(pdu, requests),
                        pdu,
                        withLastByteChanged(pdu, requests),
                        pdu,
                        requests.mutated(pdu));
                for (int r = 0; r < run.size(); r++) {
                    byte[] variant = run.get(r);
                    Object expected = apacheDecode(variant);
                    SearchRequest actual = readDirectly(reader, variant);
                    String where = "seed " + seed + ", request " + i + ", read " + r + ": " + hex(variant);
                    if (actual == null) {
                        continue; // left to the Apache decoder, which then answers as it always did
                    }
                    assertSameRequest(
                            assertInstanceOf(SearchRequest.class, expected, where + " " + describe(expected)),
                            actual,
                            where);
                    read++;
                    repeated += r == 1 ? 1 : 0;
                }
            }
        }
        assertTrue(repeated > SEEDS * REQUESTS_PER_SEED / 2, "the same request read twice in a row: " + repeated);
        assertTrue(read > repeated * 2, "read directly: " + read);
    }

    @Test
    void aBaseOrAttributeListLongerThanTheRememberedBoundIsReadRightButNotKept() throws Exception {
        // A connection keeps its last base and list for the next request; a long one (a hostile client
        // can send 256 KB of names on each of many connections) must not stay once read.
        StringBuilder base = new StringBuilder("dc=example,dc=com");
        while (base.length() <= SearchRequestReader.MAX_REMEMBERED_BYTES) {
            base.insert(0, "ou=unit" + base.length() + ",");
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; names.size() * 8 <= SearchRequestReader.MAX_REMEMBERED_BYTES; i++) {
            names.add("attr" + i);
        }
        byte[] longBoth = new LDAPMessage(
                        7,
                        new SearchRequestProtocolOp(
                                base.toString(),
                                SearchScope.SUB,
                                DereferencePolicy.NEVER,
                                0,
                                0,
                                false,
                                Filter.createEqualityFilter("uid", "jdoe"),
                                names))
                .encode()
                .encode();
        SearchRequestReader reader = new SearchRequestReader();
        SearchRequest first = readDirectly(reader, longBoth);
        SearchRequest second = readDirectly(reader, longBoth);
        SearchRequest expected = assertInstanceOf(SearchRequest.class, apacheDecode(longBoth));
        assertNotNull(first, "the first read was left to the Apache decoder");
        assertNotNull(second, "the second read was left to the Apache decoder");
        assertSameRequest(expected, first, "first read");
        assertSameRequest(expected, second, "second read");
        assertNotSame(first.getBase(), second.getBase(), "a long base was kept and handed out again");
        assertEquals(names, second.getAttributes());
    }

    @Test
    void integersAndBooleansInUnusualEncodingsAreLeftToTheApacheDecoder() {
        // typesOnly TRUE as 0x01: the Apache decoder takes it (and logs a warning)
        assertLeftButDecoded(search(tlv(0x01, 0x01), tlv(0x02, 0x05)));
        // scope 1 in two octets
        assertLeftButDecoded(searchWithScope(tlv(0x0A, 0x00, 0x01)));
        // sizeLimit 2^31 - 1 in five octets
        assertLeftButDecoded(search(tlv(0x01, 0x00), tlv(0x02, 0x00, 0x7F, 0xFF, 0xFF, 0xFF)));
        // refused by the Apache decoder too: a negative sizeLimit, typesOnly of two octets
        assertLeftAndRefused(search(tlv(0x01, 0x00), tlv(0x02, 0xFF)));
        assertLeftAndRefused(search(tlv(0x01, 0x00, 0x00), tlv(0x02, 0x05)));
    }

    @Test
    void filtersOutsideTheCommonShapesAreLeftToTheApacheDecoder() {
        byte[] cn = tlv(0x04, "cn".getBytes(UTF_8));
        byte[] a = "a".getBytes(UTF_8);
        // taken by the Apache decoder: (cn=*) with an empty attribute, an extensible match
        assertLeftButDecoded(searchWithFilter(tlv(0x87, new byte[0])));
        assertLeftButDecoded(searchWithFilter(tlv(0xA9, tlv(0x82, a), tlv(0x83, a))));
        // refused by it: an empty substring, initial after any, a not of two filters, an empty attribute
        assertLeftAndRefused(searchWithFilter(tlv(0xA4, cn, tlv(0x30, tlv(0x80, new byte[0])))));
        assertLeftAndRefused(searchWithFilter(tlv(0xA4, cn, tlv(0x30, tlv(0x81, a), tlv(0x80, a)))));
        assertLeftAndRefused(searchWithFilter(tlv(0xA2, ava(0xA3, "cn", "a"), ava(0xA3, "cn", "b"))));
        assertLeftAndRefused(searchWithFilter(ava(0xA3, "", "a")));
    }

    @Test
    void substringsInRfcOrderAndEmptyValuesAreReadAsTheApacheDecoderReadsThem() throws Exception {
        byte[] cn = tlv(0x04, "cn".getBytes(UTF_8));
        byte[] a = "a".getBytes(UTF_8);
        for (byte[] pdu : List.of(
                searchWithFilter(tlv(0xA4, cn, tlv(0x30, tlv(0x80, a), tlv(0x81, a), tlv(0x81, a), tlv(0x82, a)))),
                searchWithFilter(tlv(0xA4, cn, tlv(0x30, tlv(0x82, a)))),
                searchWithFilter(ava(0xA3, "cn", "")),
                searchWithFilter(ava(0xA8, "cn", "")))) {
            assertSameRequest(assertInstanceOf(SearchRequest.class, apacheDecode(pdu)), readDirectly(pdu), hex(pdu));
        }
    }

    @Test
    void leadingZerosAndTheLargestLimitAreReadAsTheApacheDecoderReadsThem() throws Exception {
        for (byte[] pdu : List.of(
                search(tlv(0x01, 0xFF), tlv(0x02, 0x00, 0x00, 0x00, 0x05)),
                search(tlv(0x01, 0x00), tlv(0x02, 0x7F, 0xFF, 0xFF, 0xFF)),
                search(tlv(0x01, 0x00), tlv(0x02, 0x00, 0x80)))) {
            assertSameRequest(assertInstanceOf(SearchRequest.class, apacheDecode(pdu)), readDirectly(pdu), hex(pdu));
        }
    }

    @Test
    void theDecoderReadsSearchesDirectlyFromSlicedAndDirectBuffers() throws Exception {
        RandomSearchRequests requests = new RandomSearchRequests(7);
        byte[] pdu = requests.unboundId(false);
        while (!(apacheDecode(pdu) instanceof SearchRequest)) {
            pdu = requests.unboundId(false);
        }
        SearchRequest expected = (SearchRequest) apacheDecode(pdu);
        LdapMessageDecoder decoder = new LdapMessageDecoder(CODEC, 1 << 20, 50);
        byte[] padded = new byte[pdu.length + 9];
        System.arraycopy(pdu, 0, padded, 5, pdu.length);
        ByteBuf direct = Unpooled.directBuffer(padded.length).writeBytes(padded);
        try {
            for (ByteBuf buf :
                    List.of(Unpooled.wrappedBuffer(padded).slice(5, pdu.length), direct.slice(5, pdu.length))) {
                Object decoded = decoder.decode(buf);
                assertSameRequest(expected, assertInstanceOf(SearchRequest.class, decoded), "slice");
                assertEquals(0, buf.readerIndex());
            }
        } finally {
            direct.release();
        }
    }

    @Test
    void aSearchWithControlsIsLeftToTheApacheDecoder() {
        byte[] plain = search(tlv(0x01, 0x00), tlv(0x02, 0x05));
        byte[] controls = tlv(0xA0, tlv(0x30, tlv(0x04, "1.2.3".getBytes(UTF_8))));
        byte[] inner = Arrays.copyOfRange(plain, 2, plain.length);
        byte[] withControls = tlv(0x30, inner, controls);
        ByteBuf buf = Unpooled.wrappedBuffer(withControls);
        LdapMessageEnvelope envelope = new LdapMessageEnvelope();
        assertTrue(envelope.read(buf));
        assertTrue(envelope.protocolOpEnd() < buf.writerIndex());
        SearchRequest decoded =
                assertInstanceOf(SearchRequest.class, new LdapMessageDecoder(CODEC, 1 << 20, 50).decode(buf));
        assertEquals(1, decoded.getControls().size());
    }

    /** {@code pdu} with one octet of its base DN replaced by a printable one (the base keeps its length). */
    private static byte[] withBaseByteChanged(byte[] pdu, RandomSearchRequests requests) {
        ByteBuf buf = Unpooled.wrappedBuffer(pdu);
        LdapMessageEnvelope envelope = new LdapMessageEnvelope();
        BerHeader base = new BerHeader();
        if (!envelope.read(buf)
                || base.readElement(buf, envelope.protocolOpValueIndex(), envelope.protocolOpEnd())
                        != BerHeader.Status.COMPLETE
                || base.valueLength() == 0) {
            return pdu;
        }
        byte[] copy = pdu.clone();
        copy[base.valueIndex() + requests.random.nextInt(base.valueLength())] =
                (byte) (' ' + requests.random.nextInt(95));
        return copy;
    }

    /**
     * {@code pdu} with its last octet replaced by a printable one: the last attribute's last letter
     * when it asks for attributes (the list keeps its length).
     */
    private static byte[] withLastByteChanged(byte[] pdu, RandomSearchRequests requests) {
        byte[] copy = pdu.clone();
        copy[copy.length - 1] = (byte) (' ' + requests.random.nextInt(95));
        return copy;
    }

    /** A new {@link SearchRequestReader} as {@link LdapMessageDecoder} calls it, on a heap buffer. */
    private static SearchRequest readDirectly(byte[] pdu) {
        return readDirectly(new SearchRequestReader(), pdu);
    }

    /** {@code reader} as {@link LdapMessageDecoder} calls it, on a heap buffer. */
    private static SearchRequest readDirectly(SearchRequestReader reader, byte[] pdu) {
        ByteBuf buf = Unpooled.wrappedBuffer(pdu);
        LdapMessageEnvelope envelope = new LdapMessageEnvelope();
        if (!envelope.read(buf)
                || envelope.protocolOpTag() != BerTags.SEARCH_REQUEST
                || envelope.protocolOpEnd() != buf.writerIndex()) {
            return null;
        }
        return reader.read(buf, envelope.messageId(), envelope.protocolOpValueIndex(), envelope.protocolOpEnd());
    }

    /** The Apache decoder alone: the decoded message, or what it failed with. */
    private static Object apacheDecode(byte[] pdu) {
        LdapMessageContainer<Message> container = new LdapMessageContainer<>(CODEC);
        ByteBuffer buffer = ByteBuffer.wrap(pdu);
        try {
            Asn1Decoder.decode(buffer, container);
            if (container.getState() != TLVStateEnum.PDU_DECODED || buffer.hasRemaining()) {
                return "incomplete or trailing bytes";
            }
            return container.getMessage();
        } catch (Exception | StackOverflowError e) {
            return e;
        }
    }

    /**
     * What the Apache decoder answered, for a failure message. Never a request's own toString: like its
     * equals and hashCode, it sorts the filter's children in place (BranchNormalizedVisitor).
     */
    private static String describe(Object decoded) {
        return decoded instanceof Message ? decoded.getClass().getSimpleName() : String.valueOf(decoded);
    }

    private static void assertLeftButDecoded(byte[] pdu) {
        assertNull(readDirectly(pdu), hex(pdu));
        assertInstanceOf(SearchRequest.class, apacheDecode(pdu), hex(pdu));
    }

    private static void assertLeftAndRefused(byte[] pdu) {
        assertNull(readDirectly(pdu), hex(pdu));
        assertFalse(apacheDecode(pdu) instanceof SearchRequest, hex(pdu));
    }

    static void assertSameRequest(SearchRequest expected, SearchRequest actual, String where) {
        assertNotNull(actual, where);
        // The API's request, but ending with a done that makes its maps only when needed (SearchDoneTest).
        assertInstanceOf(expected.getClass(), actual, where);
        assertEquals(expected.getMessageId(), actual.getMessageId(), where);
        assertEquals(
                expected.getResultResponse().getType(),
                actual.getResultResponse().getType(),
                where);
        assertEquals(
                expected.getResultResponse().getMessageId(),
                actual.getResultResponse().getMessageId(),
                where);
        assertEquals(expected.getBase(), actual.getBase(), where);
        assertEquals(expected.getBase().getName(), actual.getBase().getName(), where);
        assertEquals(expected.getBase().getNormName(), actual.getBase().getNormName(), where);
        assertEquals(expected.getBase().isSchemaAware(), actual.getBase().isSchemaAware(), where);
        assertEquals(expected.getScope(), actual.getScope(), where);
        assertEquals(expected.getDerefAliases(), actual.getDerefAliases(), where);
        assertEquals(expected.getSizeLimit(), actual.getSizeLimit(), where);
        assertEquals(expected.getTimeLimit(), actual.getTimeLimit(), where);
        assertEquals(expected.getTypesOnly(), actual.getTypesOnly(), where);
        assertEquals(expected.getAttributes(), actual.getAttributes(), where);
        assertEquals(expected.getControls(), actual.getControls(), where);
        assertSameFilter(expected.getFilter(), actual.getFilter(), where);
        // Last: SearchRequestImpl.equals sorts both filters' children in place before comparing them.
        assertEquals(expected, actual, where);
    }

    private static void assertSameFilter(ExprNode expected, ExprNode actual, String where) {
        assertSame(expected.getClass(), actual.getClass(), where);
        assertEquals(expected.toString(), actual.toString(), where);
        assertEquals(expected, actual, where);
        if (expected instanceof BranchNode branch) {
            List<ExprNode> children = ((BranchNode) actual).getChildren();
            assertEquals(branch.getChildren().size(), children.size(), where);
            for (int i = 0; i < children.size(); i++) {
                assertSameFilter(branch.getChildren().get(i), children.get(i), where);
            }
        }
        if (expected instanceof LeafNode leaf) {
            assertEquals(leaf.getAttribute(), ((LeafNode) actual).getAttribute(), where);
            assertEquals(leaf.isSchemaAware(), actual.isSchemaAware(), where);
        }
        if (expected instanceof SimpleNode<?> simple) {
            SimpleNode<?> other = (SimpleNode<?>) actual;
            assertArrayEquals(simple.getValue().getBytes(), other.getValue().getBytes(), where);
            assertEquals(simple.getValue().isSchemaAware(), other.getValue().isSchemaAware(), where);
            assertEquals(simple.getEscapedValue(), other.getEscapedValue(), where);
        }
        if (expected instanceof SubstringNode substring) {
            SubstringNode other = (SubstringNode) actual;
            assertEquals(substring.getInitial(), other.getInitial(), where);
            assertEquals(substring.getAny(), other.getAny(), where);
            assertEquals(substring.getFinal(), other.getFinal(), where);
        }
    }

    /** A SearchRequest for (uid=x) with message id 1, base dc=x, scope and deref 0, given typesOnly and sizeLimit. */
    private static byte[] search(byte[] typesOnly, byte[] sizeLimit) {
        return message(tlv(0x0A, 0x00), sizeLimit, typesOnly, ava(0xA3, "uid", "x"));
    }

    private static byte[] searchWithScope(byte[] scope) {
        return message(scope, tlv(0x02, 0x00), tlv(0x01, 0x00), ava(0xA3, "uid", "x"));
    }

    private static byte[] searchWithFilter(byte[] filter) {
        return message(tlv(0x0A, 0x02), tlv(0x02, 0x00), tlv(0x01, 0x00), filter);
    }

    private static byte[] ava(int tag, String attribute, String value) {
        return tlv(tag, tlv(0x04, attribute.getBytes(UTF_8)), tlv(0x04, value.getBytes(UTF_8)));
    }

    private static byte[] message(byte[] scope, byte[] sizeLimit, byte[] typesOnly, byte[] filter) {
        byte[] op = tlv(
                0x63,
                tlv(0x04, "dc=x".getBytes(UTF_8)),
                scope,
                tlv(0x0A, 0x00),
                sizeLimit,
                tlv(0x02, 0x00),
                typesOnly,
                filter,
                tlv(0x30, new byte[0]));
        return tlv(0x30, tlv(0x02, 0x01), op);
    }

    private static byte[] tlv(int tag, int... value) {
        byte[] bytes = new byte[value.length];
        for (int i = 0; i < value.length; i++) {
            bytes[i] = (byte) value[i];
        }
        return tlv(tag, bytes);
    }

    private static byte[] tlv(int tag, byte[]... parts) {
        ByteArrayOutputStream value = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            value.write(part, 0, part.length);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = value.size();
        if (length < 0x80) {
            out.write(length);
        } else {
            out.write(0x82);
            out.write(length >>> 8);
            out.write(length);
        }
        out.writeBytes(value.toByteArray());
        return out.toByteArray();
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
