package dev.larch.server.net;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

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
    private static final byte RESPONSE_VALUE_TAG = (byte) 0x8B;

    private EmptyResponseValue() {}

    static boolean applies(Message message) {
        return message instanceof OpaqueExtendedResponse r
                && r.getResponseValue() != null
                && r.getResponseValue().length == 0
                && r.getControls().isEmpty();
    }

    /** The PDU with {@code [11] ''} appended to its ExtendedResponse. */
    static byte[] append(ByteBuffer pdu) {
        byte[] in = new byte[pdu.remaining()];
        pdu.get(in);
        int[] pos = {1};
        int outerLength = readLength(in, pos);
        int bodyStart = pos[0];
        // messageID: INTEGER, short definite length
        int idEnd = bodyStart + 2 + (in[bodyStart + 1] & 0xFF);
        pos[0] = idEnd + 1;
        int opLength = readLength(in, pos);
        int opContent = pos[0];
        if (opContent + opLength != bodyStart + outerLength || bodyStart + outerLength != in.length) {
            throw new IllegalStateException("unexpected ExtendedResponse layout");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + 8);
        byte[] op = lengthBytes(opLength + 2);
        int newOuter = (idEnd - bodyStart) + 1 + op.length + opLength + 2;
        out.write(in[0]);
        out.writeBytes(lengthBytes(newOuter));
        out.write(in, bodyStart, idEnd - bodyStart);
        out.write(in[idEnd]);
        out.writeBytes(op);
        out.write(in, opContent, opLength);
        out.write(RESPONSE_VALUE_TAG);
        out.write(0);
        return out.toByteArray();
    }

    private static int readLength(byte[] b, int[] pos) {
        int first = b[pos[0]++] & 0xFF;
        if (first < 0x80) {
            return first;
        }
        int n = first & 0x7F;
        int length = 0;
        for (int i = 0; i < n; i++) {
            length = (length << 8) | (b[pos[0]++] & 0xFF);
        }
        return length;
    }

    private static byte[] lengthBytes(int length) {
        if (length < 0x80) {
            return new byte[] {(byte) length};
        }
        if (length < 0x100) {
            return new byte[] {(byte) 0x81, (byte) length};
        }
        if (length < 0x10000) {
            return new byte[] {(byte) 0x82, (byte) (length >> 8), (byte) length};
        }
        return new byte[] {(byte) 0x83, (byte) (length >> 16), (byte) (length >> 8), (byte) length};
    }
}
