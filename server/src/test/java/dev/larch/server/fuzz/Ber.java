package dev.larch.server.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Minimal BER writing for the PDUs the Apache encoder cannot or should not build: filters nested
 * thousands deep, controls appended to an encoded message, lengths in non-minimal forms. Values are
 * written with minimal definite lengths unless a method says otherwise. Stateless.
 */
final class Ber {
    static final int SEQUENCE = 0x30;
    static final int OCTET_STRING = 0x04;
    static final int INTEGER = 0x02;
    static final int BOOLEAN = 0x01;
    static final int ENUMERATED = 0x0a;

    private Ber() {}

    /** A TLV with a one-octet tag and the minimal definite length. */
    static byte[] tlv(int tag, byte[] value) {
        return concat(new byte[] {(byte) tag}, length(value.length), value);
    }

    /** A constructed TLV whose value is the given elements, in order. */
    static byte[] tlv(int tag, byte[]... elements) {
        return tlv(tag, concat(elements));
    }

    static byte[] octets(String utf8) {
        return tlv(OCTET_STRING, utf8.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] integer(long value) {
        return tlv(INTEGER, integerValue(value));
    }

    static byte[] bool(boolean value) {
        return tlv(BOOLEAN, new byte[] {(byte) (value ? 0xff : 0x00)});
    }

    /** The minimal two's-complement octets of {@code value}. */
    static byte[] integerValue(long value) {
        int n = 1;
        while (n < 8 && (value >> (8 * n - 1)) != 0 && (value >> (8 * n - 1)) != -1) {
            n++;
        }
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            out[n - 1 - i] = (byte) (value >> (8 * i));
        }
        return out;
    }

    /** The minimal definite length octets of {@code length} (short form below 128). */
    static byte[] length(int length) {
        if (length < 0x80) {
            return new byte[] {(byte) length};
        }
        return longFormLength(length, 0);
    }

    /**
     * A long-form length, with {@code extraZeros} leading zero octets: a legal but non-minimal
     * encoding when {@code extraZeros > 0} (BER allows it; RFC 4511 §5.1 asks for DER-like lengths).
     */
    static byte[] longFormLength(long length, int extraZeros) {
        int n = 0;
        for (long v = length; v != 0; v >>>= 8) {
            n++;
        }
        n = Math.max(n, 1);
        byte[] out = new byte[1 + extraZeros + n];
        out[0] = (byte) (0x80 | (extraZeros + n));
        for (int i = 0; i < n; i++) {
            out[out.length - 1 - i] = (byte) (length >>> (8 * i));
        }
        return out;
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
