package dev.larch.server.protocol;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BerSequenceOfTest {

    @Test
    void splitsAnAttributeSelectionIntoItsStrings() throws Exception {
        byte[] value = {
            0x30,
            0x07, // SEQUENCE OF
            0x04,
            0x02,
            'c',
            'n', // LDAPString "cn"
            0x04,
            0x01,
            '+' // LDAPString "+"
        };
        List<BerSequenceOf.Element> elements = BerSequenceOf.read(value);
        assertEquals(2, elements.size());
        assertEquals(0x04, elements.get(0).tag());
        assertArrayEquals(new byte[] {'c', 'n'}, elements.get(0).value());
        assertArrayEquals(new byte[] {0x04, 0x02, 'c', 'n'}, elements.get(0).encoded());
        assertArrayEquals(new byte[] {'+'}, elements.get(1).value());
    }

    @Test
    void anEmptySequenceHasNoElements() throws Exception {
        assertEquals(List.of(), BerSequenceOf.read(new byte[] {0x30, 0x00}));
    }

    @Test
    void readsLongFormLengths() throws Exception {
        byte[] value = new byte[4 + 2 + 200];
        value[0] = 0x30;
        value[1] = (byte) 0x81;
        value[2] = (byte) 203; // one element of 3 + 200 octets
        value[3] = 0x04;
        value[4] = (byte) 0x81;
        value[5] = (byte) 200;
        List<BerSequenceOf.Element> elements = BerSequenceOf.read(value);
        assertEquals(1, elements.size());
        assertEquals(200, elements.get(0).value().length);
    }

    @Test
    void everyTruncationOfAWellFormedValueIsRefused() throws Exception {
        byte[] value = {0x30, 0x07, 0x04, 0x02, 'c', 'n', 0x04, 0x01, '+'};
        BerSequenceOf.read(value);
        for (int length = 0; length < value.length; length++) {
            byte[] cut = Arrays.copyOf(value, length);
            assertThrows(BerSequenceOf.MalformedException.class, () -> BerSequenceOf.read(cut), "length " + length);
        }
    }

    @Test
    void refusesWhatRfc4511Section51Forbids() {
        byte[][] malformed = {
            null,
            {0x04, 0x00}, // not a SEQUENCE
            {0x30, 0x00, 0x00}, // trailing octets
            {0x30, (byte) 0x80, 0x00, 0x00}, // indefinite length
            {0x30, (byte) 0x85, 0, 0, 0, 0, 0}, // five length octets
            {0x3F, 0x01, 0x00}, // multi-octet tag
            {0x30, 0x03, 0x1F, 0x01, 0x00}, // multi-octet tag inside
            {0x30, 0x03, 0x04, 0x05, 0x00}, // element longer than the sequence
            {0x30, (byte) 0x84, 0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, // a huge length, no bytes
        };
        for (byte[] value : malformed) {
            assertThrows(BerSequenceOf.MalformedException.class, () -> BerSequenceOf.read(value));
        }
    }
}
