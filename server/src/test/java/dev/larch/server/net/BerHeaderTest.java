package dev.larch.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BerHeaderTest {

    private final BerHeader header = new BerHeader();

    private BerHeader.Status read(String hex) {
        ByteBuf buf = Unpooled.wrappedBuffer(Fixtures.hex(hex));
        return header.read(buf, 0, buf.writerIndex());
    }

    private void assertHeader(int tag, int headerLength, int valueLength) {
        assertEquals(tag, header.tag(), "tag");
        assertEquals(headerLength, header.headerLength(), "header length");
        assertEquals(valueLength, header.valueLength(), "value length");
        assertEquals((long) headerLength + valueLength, header.elementLength(), "element length");
    }

    @Test
    void shortFormLength() {
        assertEquals(BerHeader.Status.COMPLETE, read("04 05"));
        assertHeader(0x04, 2, 5);
        assertEquals(BerHeader.Status.COMPLETE, read("30 7f"));
        assertHeader(0x30, 2, 0x7f);
        assertEquals(BerHeader.Status.COMPLETE, read("42 00"));
        assertHeader(0x42, 2, 0);
    }

    @Test
    void longFormLengthsOfOneTwoAndFourOctets() {
        assertEquals(BerHeader.Status.COMPLETE, read("30 81 80"));
        assertHeader(0x30, 3, 0x80);
        assertEquals(BerHeader.Status.COMPLETE, read("30 82 01 00"));
        assertHeader(0x30, 4, 0x100);
        assertEquals(BerHeader.Status.COMPLETE, read("30 84 00 01 00 00"));
        assertHeader(0x30, 6, 0x10000);
        // BER (unlike DER) allows a long form where the short one would do.
        assertEquals(BerHeader.Status.COMPLETE, read("30 81 05"));
        assertHeader(0x30, 3, 5);
    }

    @Test
    void theLongestLengthStillFitsHeaderAndValueInAnInt() {
        assertEquals(BerHeader.Status.COMPLETE, read("30 84 7f ff ff f9"));
        assertEquals(Integer.MAX_VALUE, header.elementLength());
        assertEquals(BerHeader.Status.LENGTH_TOO_LONG, read("30 84 7f ff ff fa"));
        assertEquals(BerHeader.Status.LENGTH_TOO_LONG, read("30 84 ff ff ff ff"));
    }

    @Test
    void moreThanFourLengthOctetsAreRefused() {
        assertEquals(BerHeader.Status.LENGTH_TOO_LONG, read("30 85 00 00 00 00 01"));
        assertEquals(BerHeader.Status.LENGTH_TOO_LONG, read("30 ff"));
    }

    @Test
    void indefiniteLengthIsRefused() {
        assertEquals(BerHeader.Status.INDEFINITE_LENGTH, read("30 80 02 01 01 00 00"));
    }

    @Test
    void multiOctetTagsAreRefusedFromTheirFirstOctet() {
        assertEquals(BerHeader.Status.HIGH_TAG_NUMBER, read("1f"));
        assertEquals(BerHeader.Status.HIGH_TAG_NUMBER, read("bf 81 00 00"));
    }

    @Test
    void everyTruncatedHeaderAsksForMoreBytes() {
        for (String whole : new String[] {"04 05", "30 81 80", "30 82 01 00", "30 84 00 01 00 00"}) {
            byte[] bytes = Fixtures.hex(whole);
            for (int n = 0; n < bytes.length; n++) {
                ByteBuf buf = Unpooled.wrappedBuffer(bytes, 0, n);
                assertEquals(BerHeader.Status.INCOMPLETE, header.read(buf, 0, n), whole + " cut at " + n);
            }
        }
    }

    @Test
    void readsAtAnIndexWithoutMovingTheBufferAndNeverPastTheLimit() {
        ByteBuf buf = Unpooled.wrappedBuffer(Fixtures.hex("ff ff  04 82 01 00  ff"));
        buf.readerIndex(1);
        assertEquals(BerHeader.Status.COMPLETE, header.read(buf, 2, 6));
        assertHeader(0x04, 4, 0x100);
        assertEquals(6, header.valueIndex());
        assertEquals(1, buf.readerIndex());
        assertEquals(7, buf.writerIndex());
        // The last length octet lies at the limit: not looked at.
        assertEquals(BerHeader.Status.INCOMPLETE, header.read(buf, 2, 5));
    }

    @Test
    void aPlainReadLetsTheValueLieBeyondTheLimit() {
        // The frame decoder judges a PDU's length before its value has arrived.
        assertEquals(BerHeader.Status.COMPLETE, read("30 84 00 01 00 00"));
    }

    @Test
    void anElementMustEndWithinItsLimit() {
        ByteBuf buf = Unpooled.wrappedBuffer(Fixtures.hex("30 05  04 03 61 62 63  ff"));
        assertEquals(BerHeader.Status.COMPLETE, header.readElement(buf, 2, 7));
        assertEquals(4, header.valueIndex());
        assertEquals(7, header.endIndex());
        assertEquals(BerHeader.Status.INCOMPLETE, header.readElement(buf, 2, 6));
        assertEquals(BerHeader.Status.COMPLETE, header.readElement(buf, 0, 7));
        assertEquals(7, header.endIndex());
    }

    @Test
    void aHugeNestedLengthIsAnOverrunNotAnOverflow() {
        // At index 2 a length of 2^31 - 7 would push the end index past Integer.MAX_VALUE.
        ByteBuf buf = Unpooled.wrappedBuffer(Fixtures.hex("30 06  02 84 7f ff ff f9"));
        assertEquals(BerHeader.Status.INCOMPLETE, header.readElement(buf, 2, 8));
    }
}
