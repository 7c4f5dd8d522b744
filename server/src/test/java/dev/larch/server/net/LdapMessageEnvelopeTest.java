package dev.larch.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LdapMessageEnvelopeTest {

    private final LdapMessageEnvelope envelope = new LdapMessageEnvelope();

    private boolean read(byte[] pdu) {
        return envelope.read(Unpooled.wrappedBuffer(pdu));
    }

    @Test
    void findsTheMessageIdAndTheProtocolOp() {
        assertTrue(read(Fixtures.SEARCH));
        assertEquals(2, envelope.messageId());
        assertEquals(2, envelope.messageIdIndex());
        assertEquals(5, envelope.protocolOpIndex());
        assertEquals(BerTags.SEARCH_REQUEST, envelope.protocolOpTag());
        assertEquals(7, envelope.protocolOpValueIndex());
        assertEquals(Fixtures.SEARCH.length, envelope.protocolOpEnd());
    }

    @Test
    void readsFromTheReaderIndexWithoutMovingIt() {
        ByteBuf buf = Unpooled.wrappedBuffer(Fixtures.concat(Fixtures.hex("ff ff"), Fixtures.UNBIND));
        buf.readerIndex(2);
        assertTrue(envelope.read(buf));
        assertEquals(5, envelope.messageId());
        assertEquals(0x42, envelope.protocolOpTag());
        assertEquals(2, buf.readerIndex());
    }

    @Test
    void longFormLengthsAndControlsAfterTheOperation() {
        // LDAPMessage { messageID 0x01020304, delRequest [APPLICATION 10] "a", controls [0] {} }
        assertTrue(read(Fixtures.hex("30 81 0c  02 81 04 01 02 03 04  4a 01 61  a0 00")));
        assertEquals(0x01020304, envelope.messageId());
        assertEquals(3, envelope.messageIdIndex());
        assertEquals(10, envelope.protocolOpIndex());
        assertEquals(13, envelope.protocolOpEnd());
    }

    @Test
    void theLargestMessageIdIsMaxInt() {
        assertTrue(read(Fixtures.hex("30 08  02 04 7f ff ff ff  42 00")));
        assertEquals(Integer.MAX_VALUE, envelope.messageId());
    }

    @Test
    void refusesWhatIsNotOneWellFormedEnvelope() {
        String[] bad = {
            "04 05  02 01 01  42 00", // not a SEQUENCE
            "30 05  02 01 01  42 00  00", // trailing byte after the SEQUENCE
            "30 06  02 01 01  42 00", // SEQUENCE longer than the buffer
            "30 05  04 01 01  42 00", // messageID not an INTEGER
            "30 04  02 00  42 00", // empty INTEGER
            "30 05  02 01 80  42 00", // negative messageID
            "30 09  02 05 00 80 00 00 00  42 00", // above maxInt
            "30 08  02 84 7f ff ff f9  42 00", // messageID length overruns (and would overflow) the SEQUENCE
            "30 05  02 01 01  42 01", // protocolOp overruns the SEQUENCE
            "30 03  02 01 01", // no protocolOp
            "30 05  02 01 01  42 80", // protocolOp with an indefinite length
        };
        for (String pdu : bad) {
            assertFalse(read(Fixtures.hex(pdu)), pdu);
        }
    }
}
