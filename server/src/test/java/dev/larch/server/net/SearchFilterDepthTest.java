package dev.larch.server.net;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchFilterDepthTest {

    private static byte[] equality(String attribute, String value) {
        return Fixtures.tlv(
                0xA3,
                Fixtures.concat(
                        Fixtures.tlv(0x04, attribute.getBytes(StandardCharsets.UTF_8)),
                        Fixtures.tlv(0x04, value.getBytes(StandardCharsets.UTF_8))));
    }

    private static boolean exceeds(byte[] pdu, int max) {
        return SearchFilterDepth.exceeds(Unpooled.wrappedBuffer(pdu), max);
    }

    @Test
    void onlyAndOrNotAddDepth() {
        // (!(|(cn=a)(sn=b))) is 3 deep; the equality leaves' own structure does not count.
        byte[] filter =
                Fixtures.tlv(0xA2, Fixtures.tlv(0xA1, Fixtures.concat(equality("cn", "a"), equality("sn", "b"))));
        byte[] pdu = Fixtures.searchRequest(1, filter);
        assertFalse(exceeds(pdu, 3));
        assertTrue(exceeds(pdu, 2));
    }

    @Test
    void siblingsDoNotAddUp() {
        // (&(&(a=*))(&(a=*))(&(a=*))) is 3 deep however many siblings follow.
        byte[] inner = Fixtures.tlv(0xA0, Fixtures.tlv(0x87, new byte[] {'a'}));
        byte[] pdu = Fixtures.searchRequest(1, Fixtures.tlv(0xA0, Fixtures.concat(inner, inner, inner)));
        assertFalse(exceeds(pdu, 3));
        assertTrue(exceeds(pdu, 2));
    }

    @Test
    void aPlainFilterIsOneDeep() {
        assertFalse(exceeds(Fixtures.searchWithFilterDepth(1, 1), 1));
        assertTrue(exceeds(Fixtures.searchWithFilterDepth(1, 2), 1));
    }

    @Test
    void tenThousandLevelsAreMeasuredWithoutRecursion() {
        assertTrue(exceeds(Fixtures.searchWithFilterDepth(1, 10_000), 1000));
        assertFalse(exceeds(Fixtures.searchWithFilterDepth(1, 1000), 1000));
    }

    @Test
    void otherOperationsAndBrokenBerAreLeftToTheDecoder() {
        assertFalse(exceeds(Fixtures.BIND, 1));
        assertFalse(exceeds(Fixtures.BAD_BER, 1));
        byte[] truncated = Arrays.copyOf(Fixtures.searchWithFilterDepth(1, 50), 60);
        assertFalse(exceeds(truncated, 1));
    }
}
