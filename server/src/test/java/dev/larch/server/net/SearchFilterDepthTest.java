package dev.larch.server.net;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchFilterDepthTest {

    private static byte[] equality(String attribute, String value) {
        return Fixtures.tlv(
                0xA3,
                Fixtures.concat(
                        Fixtures.tlv(0x04, attribute.getBytes(StandardCharsets.UTF_8)),
                        Fixtures.tlv(0x04, value.getBytes(StandardCharsets.UTF_8))));
    }

    /** Measures a whole SearchRequest PDU as the decoder does: envelope first, then the operation. */
    private static SearchFilterDepth.Verdict measure(byte[] pdu, int max) {
        return measure(new SearchFilterDepth(max), pdu);
    }

    private static SearchFilterDepth.Verdict measure(SearchFilterDepth depth, byte[] pdu) {
        ByteBuf buf = Unpooled.wrappedBuffer(pdu);
        LdapMessageEnvelope envelope = new LdapMessageEnvelope();
        assertTrue(envelope.read(buf), "test PDU envelope");
        assertEquals(BerTags.SEARCH_REQUEST, envelope.protocolOpTag(), "test PDU operation");
        return depth.measure(buf, envelope.protocolOpValueIndex(), envelope.protocolOpEnd());
    }

    @Test
    void onlyAndOrNotAddDepth() {
        // (!(|(cn=a)(sn=b))) is 3 deep; the equality leaves' own structure does not count.
        byte[] filter =
                Fixtures.tlv(0xA2, Fixtures.tlv(0xA1, Fixtures.concat(equality("cn", "a"), equality("sn", "b"))));
        byte[] pdu = Fixtures.searchRequest(1, filter);
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(pdu, 3));
        assertEquals(SearchFilterDepth.Verdict.TOO_DEEP, measure(pdu, 2));
    }

    @Test
    void siblingsDoNotAddUp() {
        // (&(&(a=*))(&(a=*))(&(a=*))) is 3 deep however many siblings follow.
        byte[] inner = Fixtures.tlv(0xA0, Fixtures.tlv(0x87, new byte[] {'a'}));
        byte[] pdu = Fixtures.searchRequest(1, Fixtures.tlv(0xA0, Fixtures.concat(inner, inner, inner)));
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(pdu, 3));
        assertEquals(SearchFilterDepth.Verdict.TOO_DEEP, measure(pdu, 2));
    }

    @Test
    void everyFilterElementCountsConnectivesIncluded() {
        // (!(|(cn=a)(sn=b))) has 4 elements: not, or and two equalities.
        byte[] filter =
                Fixtures.tlv(0xA2, Fixtures.tlv(0xA1, Fixtures.concat(equality("cn", "a"), equality("sn", "b"))));
        byte[] pdu = Fixtures.searchRequest(1, filter);
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(new SearchFilterDepth(10, 4), pdu));
        assertEquals(SearchFilterDepth.Verdict.TOO_MANY_ELEMENTS, measure(new SearchFilterDepth(10, 3), pdu));
    }

    @Test
    void aWideFlatOrIsCountedElementByElement() {
        byte[] term = equality("cn", "x");
        byte[][] terms = new byte[20_000][];
        Arrays.fill(terms, term);
        byte[] pdu = Fixtures.searchRequest(1, Fixtures.tlv(0xA1, Fixtures.concat(terms)));
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(new SearchFilterDepth(2, 20_001), pdu));
        assertEquals(SearchFilterDepth.Verdict.TOO_MANY_ELEMENTS, measure(new SearchFilterDepth(2, 20_000), pdu));
    }

    @Test
    void aPlainFilterIsOneDeep() {
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(Fixtures.searchWithFilterDepth(1, 1), 1));
        assertEquals(SearchFilterDepth.Verdict.TOO_DEEP, measure(Fixtures.searchWithFilterDepth(1, 2), 1));
    }

    @Test
    void emptyConnectivesCloseWhereTheyOpen() {
        // (&(&)(|)(a=*)) is 2 deep: the empty and / or hold nothing.
        byte[] filter = Fixtures.tlv(
                0xA0,
                Fixtures.concat(
                        Fixtures.tlv(0xA0, new byte[0]),
                        Fixtures.tlv(0xA1, new byte[0]),
                        Fixtures.tlv(0x87, new byte[] {'a'})));
        byte[] pdu = Fixtures.searchRequest(1, filter);
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(pdu, 2));
        assertEquals(SearchFilterDepth.Verdict.TOO_DEEP, measure(pdu, 1));
    }

    @Test
    void tenThousandLevelsAreMeasuredWithoutRecursion() {
        assertEquals(SearchFilterDepth.Verdict.TOO_DEEP, measure(Fixtures.searchWithFilterDepth(1, 10_000), 1000));
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(Fixtures.searchWithFilterDepth(1, 1000), 1000));
    }

    @Test
    void oneInstanceMeasuresOneRequestAfterAnother() {
        // The stack grows and is reused; a deep request leaves nothing behind for the next.
        SearchFilterDepth depth = new SearchFilterDepth(100);
        assertEquals(SearchFilterDepth.Verdict.TOO_DEEP, measure(depth, Fixtures.searchWithFilterDepth(1, 101)));
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(depth, Fixtures.searchWithFilterDepth(2, 100)));
        assertEquals(SearchFilterDepth.Verdict.WITHIN_LIMIT, measure(depth, Fixtures.searchWithFilterDepth(3, 1)));
        assertEquals(SearchFilterDepth.Verdict.TOO_DEEP, measure(depth, Fixtures.searchWithFilterDepth(4, 101)));
    }

    @Test
    void aNestedLengthOverrunningItsParentIsMalformed() {
        // (&(uid=jdoe)(mail=*)) whose equalityMatch claims 0x20 octets where its and holds 0x13.
        assertEquals(SearchFilterDepth.Verdict.MALFORMED, measure(Fixtures.SEARCH_FILTER_OVERRUN, 50));
    }

    @Test
    void aLengthThatWouldOverflowAnIndexIsMalformed() {
        // present [7] with a four-octet length of 2^31 - 7 inside an and: past the end of the int range.
        byte[] filter = Fixtures.concat(Fixtures.hex("a0 06"), Fixtures.hex("87 84 7f ff ff f9"));
        assertEquals(SearchFilterDepth.Verdict.MALFORMED, measure(Fixtures.searchRequest(1, filter), 50));
    }

    @Test
    void brokenHeadersInTheFilterAreMalformed() {
        for (String filter : new String[] {"a0 80 87 01 61 00 00", "a0 03 bf 01 00", "a0 06 87 85 00 00 00 00"}) {
            assertEquals(
                    SearchFilterDepth.Verdict.MALFORMED,
                    measure(Fixtures.searchRequest(1, Fixtures.hex(filter)), 50),
                    filter);
        }
    }

    @Test
    void aBrokenFieldBeforeTheFilterIsMalformed() {
        // baseObject claims more octets than the whole SearchRequest holds.
        byte[] pdu = Fixtures.SEARCH.clone();
        pdu[8] = 0x7f;
        assertEquals(SearchFilterDepth.Verdict.MALFORMED, measure(pdu, 50));
    }

    @Test
    void aSearchRequestWithoutAFilterIsMalformed() {
        // The six fields before the filter, then nothing.
        byte[] op = Fixtures.concat(
                Fixtures.tlv(0x04, new byte[0]), Fixtures.hex("0a 01 00  0a 01 00  02 01 00  02 01 00  01 01 00"));
        byte[] pdu = Fixtures.tlv(0x30, Fixtures.concat(Fixtures.hex("02 01 01"), Fixtures.tlv(0x63, op)));
        assertEquals(SearchFilterDepth.Verdict.MALFORMED, measure(pdu, 50));
    }
}
