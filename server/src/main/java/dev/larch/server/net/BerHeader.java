package dev.larch.server.net;

import io.netty.buffer.ByteBuf;

/**
 * The identifier and length octets of one BER element (X.690 §8.1.2–8.1.3), read at an absolute
 * index without moving the buffer's indices. LDAP (RFC 4511 §5.1) allows only single-octet tags and
 * definite lengths; anything else is reported, not guessed at.
 *
 * <p>Mutable and reused; not thread-safe (one per decoder).
 */
final class BerHeader {

    enum Status {
        COMPLETE,
        /** The header runs past the limit: wait for more bytes (or, inside a frame, truncated). */
        INCOMPLETE,
        /** Tag number 31 and up (multi-octet identifier), never used by LDAP. */
        HIGH_TAG_NUMBER,
        /** Length octet 0x80: the indefinite form, forbidden by RFC 4511 §5.1. */
        INDEFINITE_LENGTH,
        /** More than four length octets, or a length above {@link Integer#MAX_VALUE}. */
        LENGTH_TOO_LONG
    }

    static final int SEQUENCE = 0x30;
    static final int SEARCH_REQUEST = 0x63;
    static final int FILTER_AND = 0xA0;
    static final int FILTER_OR = 0xA1;
    static final int FILTER_NOT = 0xA2;

    private int tag;
    private int headerLength;
    private int valueLength;

    /** Reads the header at {@code index}; bytes at or after {@code limit} are not looked at. */
    Status read(ByteBuf buf, int index, int limit) {
        if (index >= limit) {
            return Status.INCOMPLETE;
        }
        int identifier = buf.getUnsignedByte(index);
        if ((identifier & 0x1F) == 0x1F) {
            return Status.HIGH_TAG_NUMBER;
        }
        if (index + 1 >= limit) {
            return Status.INCOMPLETE;
        }
        int first = buf.getUnsignedByte(index + 1);
        if (first < 0x80) {
            return complete(identifier, 2, first);
        }
        int octets = first & 0x7F;
        if (octets == 0) {
            return Status.INDEFINITE_LENGTH;
        }
        if (octets > 4) {
            return Status.LENGTH_TOO_LONG;
        }
        if (index + 2 + octets > limit) {
            return Status.INCOMPLETE;
        }
        long length = 0;
        for (int i = 0; i < octets; i++) {
            length = (length << 8) | buf.getUnsignedByte(index + 2 + i);
        }
        if (length > Integer.MAX_VALUE - 6) {
            return Status.LENGTH_TOO_LONG;
        }
        return complete(identifier, 2 + octets, (int) length);
    }

    private Status complete(int identifier, int header, int length) {
        this.tag = identifier;
        this.headerLength = header;
        this.valueLength = length;
        return Status.COMPLETE;
    }

    /** The identifier octet (class, constructed bit and tag number) of the last complete read. */
    int tag() {
        return tag;
    }

    int headerLength() {
        return headerLength;
    }

    int valueLength() {
        return valueLength;
    }

    /** Header plus value, as a long so that a huge length cannot overflow. */
    long elementLength() {
        return (long) headerLength + valueLength;
    }
}
