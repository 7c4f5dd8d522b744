package dev.larch.server.net;

import io.netty.buffer.ByteBuf;

/**
 * Sizes and headers of the BER elements the server writes itself ({@link SelectedEntryWriter},
 * {@link PlainDoneWriter}): definite lengths in their shortest form, as the API's encoder writes
 * them. Stateless.
 */
final class BerOut {

    private BerOut() {}

    /** The size of an element whose contents take {@code length} octets: tag, length, contents. */
    static int element(int length) {
        return 1 + lengthOctets(length) + length;
    }

    private static int lengthOctets(int length) {
        if (length < 0x80) {
            return 1;
        }
        return 1 + (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
    }

    /** Writes a tag of one octet and the definite length {@code length}. */
    static void header(ByteBuf out, int tag, int length) {
        out.writeByte(tag);
        if (length < 0x80) {
            out.writeByte(length);
            return;
        }
        int octets = lengthOctets(length) - 1;
        out.writeByte(0x80 | octets);
        for (int shift = 8 * (octets - 1); shift >= 0; shift -= 8) {
            out.writeByte(length >>> shift);
        }
    }

    /** The octets of a non-negative INTEGER's shortest two's-complement form. */
    static int integerLength(int value) {
        if (value < 0x80) {
            return 1;
        }
        if (value < 0x8000) {
            return 2;
        }
        return value < 0x800000 ? 3 : 4;
    }

    /** Writes the contents of a non-negative INTEGER of {@link #integerLength} octets. */
    static void integer(ByteBuf out, int value) {
        for (int shift = 8 * (integerLength(value) - 1); shift >= 0; shift -= 8) {
            out.writeByte(value >>> shift);
        }
    }
}
