package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import dev.larch.config.IndexKind;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The attribute indexes' key format, byte for byte: a change here is a change of the on-disk format. */
class IndexKeysTest {
    private static final String INTEGER = "1.3.6.1.4.1.1466.115.121.1.27";
    private static final String DIRECTORY_STRING = "1.3.6.1.4.1.1466.115.121.1.15";

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    private static List<String> asStrings(List<byte[]> keys) {
        return keys.stream().map(k -> Arrays.toString(k)).toList();
    }

    @Test
    void equalityIsTheNormalizedValueAndPresenceOneFixedKey() {
        assertEquals(asStrings(List.of(b("lee"))), asStrings(IndexKeys.keys(IndexKind.EQUALITY, b("lee"), null)));
        assertEquals(asStrings(List.of(new byte[] {1})), asStrings(IndexKeys.keys(IndexKind.PRESENCE, b("lee"), null)));
    }

    @Test
    void substringKeysAreTheDistinctGramsFramedByStartAndEndMarkers() {
        List<byte[]> grams = IndexKeys.keys(IndexKind.SUBSTRING, b("abab"), DIRECTORY_STRING);
        List<byte[]> expected = List.of(
                new byte[] {0x02, 'a', 'b'}, new byte[] {'a', 'b', 'a'}, new byte[] {'b', 'a', 'b'}, new byte[] {
                    'a', 'b', 0x03
                });
        assertEquals(asStrings(expected), asStrings(grams));
        // "ab" as an initial piece: its one gram anchors at the start; unanchored it is too short.
        assertEquals(asStrings(List.of(new byte[] {0x02, 'a', 'b'})), asStrings(IndexKeys.grams(b("ab"), true, false)));
        assertEquals(List.of(), IndexKeys.grams(b("ab"), false, false));
        assertEquals(
                asStrings(List.of(new byte[] {0x02, 'a', 0x03})),
                asStrings(IndexKeys.keys(IndexKind.SUBSTRING, b("a"), null)));
    }

    @Test
    void integerOrderingKeysAreSignLengthAndMagnitude() {
        assertArrayEquals(new byte[] {1, 0, 0, 0, 1, 5}, IndexKeys.orderingKey(b("5"), INTEGER));
        assertArrayEquals(new byte[] {1, 0, 0, 0, 2, 1, 0}, IndexKeys.orderingKey(b("256"), INTEGER));
        assertArrayEquals(new byte[] {0, -1, -1, -1, -2, -6}, IndexKeys.orderingKey(b("-5"), INTEGER));
        assertArrayEquals(new byte[] {1, 0, 0, 0, 1, 0}, IndexKeys.orderingKey(b("0"), INTEGER));
        // Not a number, or not an integer attribute: the normalized value as it is.
        assertArrayEquals(b("x1"), IndexKeys.orderingKey(b("x1"), INTEGER));
        assertArrayEquals(b("10"), IndexKeys.orderingKey(b("10"), DIRECTORY_STRING));
    }

    @Test
    void integerOrderingKeysSortAsTheNumbersDoInUnsignedByteOrder() {
        List<String> numbers = List.of(
                "-70000", "-256", "-5", "-1", "0", "1", "5", "255", "256", "70000", "123456789012345678901234567890");
        List<String> shuffled = new ArrayList<>(numbers);
        Collections.reverse(shuffled);
        shuffled.sort(Comparator.comparing(n -> IndexKeys.orderingKey(b(n), INTEGER), Arrays::compareUnsigned));
        assertEquals(numbers, shuffled);
    }

    @Test
    void aStoredKeyIsCutToTheLimitAndAnEmptyOneIsTheByteZero() {
        ByteBuffer reuse = ByteBuffer.allocateDirect(IndexKeys.MAX_KEY_BYTES);
        assertEquals(511, IndexKeys.MAX_KEY_BYTES);
        assertEquals(ByteBuffer.wrap(new byte[] {0}), IndexKeys.stored(reuse, new byte[0]));
        assertEquals(ByteBuffer.wrap(b("lee")), IndexKeys.stored(reuse, b("lee")));
        byte[] longer = new byte[600];
        Arrays.fill(longer, (byte) 7);
        assertEquals(ByteBuffer.wrap(longer, 0, 511), IndexKeys.stored(reuse, longer));
        assertEquals(ByteBuffer.wrap(longer, 0, 511), IndexKeys.cut(longer));
        assertEquals(ByteBuffer.wrap(b("lee")), IndexKeys.cut(b("lee")));
    }
}
