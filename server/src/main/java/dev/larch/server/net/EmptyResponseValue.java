package dev.larch.server.net;

import java.nio.ByteBuffer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedResponse;

/**
 * Adds the empty responseValue that the Apache encoder leaves out. RFC 4532 answers an anonymous
 * Who Am I with a present but empty value, and OpenLDAP's ldapwhoami prints "anonymous" only
 * when the value is there; the encoder drops any zero-length value.
 *
 * <p>Applies to an {@link OpaqueExtendedResponse} with a non-null, empty value and no controls:
 * then the ExtendedResponse is the last element of the LDAPMessage, so the value goes at the end
 * and only the two enclosing lengths change.
 */
final class EmptyResponseValue {

    private EmptyResponseValue() {}

    static boolean applies(Message message) {
        return message instanceof OpaqueExtendedResponse r
                && r.getResponseValue() != null
                && r.getResponseValue().length == 0
                && r.getControls().isEmpty();
    }

    /** The PDU with {@code [11] ''} appended to its ExtendedResponse; {@code pdu}'s position does not move. */
    static byte[] append(ByteBuffer pdu) {
        ByteBuf in = Unpooled.wrappedBuffer(pdu);
        LdapMessageEnvelope envelope = new LdapMessageEnvelope();
        if (!envelope.read(in) || envelope.protocolOpEnd() != in.writerIndex()) {
            throw new IllegalStateException("unexpected ExtendedResponse layout");
        }
        int idStart = envelope.messageIdIndex();
        int idLength = envelope.protocolOpIndex() - idStart;
        int opContent = envelope.protocolOpValueIndex();
        int opLength = envelope.protocolOpEnd() - opContent + 2;
        int outerLength = idLength + 1 + lengthOctets(opLength) + opLength;
        byte[] result = new byte[1 + lengthOctets(outerLength) + outerLength];
        ByteBuf out = Unpooled.wrappedBuffer(result).clear();
        out.writeByte(in.getByte(0));
        writeLength(out, outerLength);
        out.writeBytes(in, idStart, idLength);
        out.writeByte(envelope.protocolOpTag());
        writeLength(out, opLength);
        out.writeBytes(in, opContent, opLength - 2);
        out.writeByte(BerTags.EXTENDED_RESPONSE_VALUE);
        out.writeByte(0);
        return result;
    }

    /** Octets of a minimal definite length (X.690 §8.1.3); a response stays below 2^24 octets. */
    private static int lengthOctets(int length) {
        if (length < 0x80) {
            return 1;
        }
        if (length < 0x100) {
            return 2;
        }
        return length < 0x10000 ? 3 : 4;
    }

    private static void writeLength(ByteBuf out, int length) {
        int octets = lengthOctets(length);
        if (octets == 1) {
            out.writeByte(length);
            return;
        }
        out.writeByte(0x80 | (octets - 1));
        for (int shift = 8 * (octets - 2); shift >= 0; shift -= 8) {
            out.writeByte(length >> shift);
        }
    }
}
