package dev.larch.server.net;

import io.netty.buffer.ByteBuf;

/**
 * The envelope of one whole LDAPMessage (RFC 4511 §4.1.1): its messageID and where its protocolOp
 * lies, read in place. The one place that knows the envelope's layout; the operation inside is left
 * to the Apache codec. Controls after the protocolOp are not looked at.
 *
 * <pre>
 * LDAPMessage ::= SEQUENCE { messageID MessageID, protocolOp CHOICE { ... }, controls [0] Controls OPTIONAL }
 * MessageID ::= INTEGER (0 .. maxInt)
 * </pre>
 *
 * <p>Mutable and reused; not thread-safe (one per decoder). Accessors describe the last successful
 * {@link #read}.
 */
final class LdapMessageEnvelope {

    private final BerHeader header = new BerHeader();
    private int messageId;
    private int messageIdIndex;
    private int protocolOpIndex;
    private int protocolOpTag;
    private int protocolOpValueIndex;
    private int protocolOpEnd;

    /**
     * Reads the envelope of the message that fills {@code pdu} from its reader index to its writer
     * index, without moving either. False, and the accessors undefined, unless that range is exactly
     * one SEQUENCE holding an INTEGER messageID in 0..maxInt followed by an element that fits in it.
     */
    boolean read(ByteBuf pdu) {
        int end = pdu.writerIndex();
        if (header.readElement(pdu, pdu.readerIndex(), end) != BerHeader.Status.COMPLETE
                || header.tag() != BerTags.SEQUENCE
                || header.endIndex() != end) {
            return false;
        }
        int idIndex = header.valueIndex();
        if (header.readElement(pdu, idIndex, end) != BerHeader.Status.COMPLETE || header.tag() != BerTags.INTEGER) {
            return false;
        }
        int id = nonNegativeInt(pdu, header.valueIndex(), header.valueLength());
        int opIndex = header.endIndex();
        if (id < 0 || header.readElement(pdu, opIndex, end) != BerHeader.Status.COMPLETE) {
            return false;
        }
        messageId = id;
        messageIdIndex = idIndex;
        protocolOpIndex = opIndex;
        protocolOpTag = header.tag();
        protocolOpValueIndex = header.valueIndex();
        protocolOpEnd = header.endIndex();
        return true;
    }

    /** The INTEGER value of one to four octets at {@code index}, or -1 if negative or longer. */
    private static int nonNegativeInt(ByteBuf pdu, int index, int length) {
        if (length < 1 || length > 4 || pdu.getUnsignedByte(index) >= 0x80) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < length; i++) {
            value = (value << 8) | pdu.getUnsignedByte(index + i);
        }
        return value;
    }

    int messageId() {
        return messageId;
    }

    /** Where the messageID element starts: just past the SEQUENCE header. */
    int messageIdIndex() {
        return messageIdIndex;
    }

    /** Where the protocolOp element starts: just past the messageID. */
    int protocolOpIndex() {
        return protocolOpIndex;
    }

    /** The protocolOp's identifier octet, which names the operation (RFC 4511 Appendix B). */
    int protocolOpTag() {
        return protocolOpTag;
    }

    int protocolOpValueIndex() {
        return protocolOpValueIndex;
    }

    /** Where the protocolOp element ends (exclusive): the message end, or where its controls start. */
    int protocolOpEnd() {
        return protocolOpEnd;
    }
}
