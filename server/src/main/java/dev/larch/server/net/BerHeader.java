package dev.larch.server.net;

import io.netty.buffer.ByteBuf;

/**
 * The identifier and length octets of one BER element (X.690 §8.1.2–8.1.3), read at an absolute
 * index without moving the buffer's indices. LDAP (RFC 4511 §5.1) allows only single-octet tags and
 * definite lengths; anything else is reported, not guessed at. This is the server's only reader of
 * BER tags and lengths: the frame decoder, the LDAPMessage envelope and the filter depth check all
 * go through it.
 *
 * <p>Mutable and reused; not thread-safe (one per decoder).
 */
final class BerHeader {

    enum Status {
        COMPLETE,
        /**
         * The header (or, for {@link #readElement}, the value) runs past the limit: wait for more
         * bytes, or, inside an element already whole, a length that overruns its parent.
         */
        INCOMPLETE,
        /** Tag number 31 and up (multi-octet identifier), never used by LDAP. */
        HIGH_TAG_NUMBER,
        /** Length octet 0x80: the indefinite form, forbidden by RFC 4511 §5.1. */
        INDEFINITE_LENGTH,
        /** More than four length octets, or a length that would put the element past the int range. */
        LENGTH_TOO_LONG
    }

    /** The longest header accepted: one identifier octet, 0x84 and four length octets. */
    private static final int MAX_HEADER_LENGTH = 6;

    private int index;
    private int tag;
    private int headerLength;
    private int valueLength;

    /**
     * Reads the header at {@code index}; bytes at or after {@code limit} are not looked at, and the
     * value may lie beyond it (the frame decoder judges a PDU's length before its value arrives).
     */
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
            return complete(index, identifier, 2, first);
        }
        int octets = first & 0x7F;
        if (octets == 0) {
            return Status.INDEFINITE_LENGTH;
        }
        if (octets > 4) {
            return Status.LENGTH_TOO_LONG;
        }
        if (limit - index < 2 + octets) {
            return Status.INCOMPLETE;
        }
        long length = 0;
        for (int i = 0; i < octets; i++) {
            length = (length << 8) | buf.getUnsignedByte(index + 2 + i);
        }
        if (length > Integer.MAX_VALUE - MAX_HEADER_LENGTH) {
            return Status.LENGTH_TOO_LONG;
        }
        return complete(index, identifier, 2 + octets, (int) length);
    }

    /**
     * Reads the header at {@code index} as {@link #read} does, and also requires the value to end at
     * or before {@code limit}: an element nested in a whole parent must not overrun it.
     * {@link Status#INCOMPLETE} then also covers such an overrun.
     */
    Status readElement(ByteBuf buf, int index, int limit) {
        Status status = read(buf, index, limit);
        if (status == Status.COMPLETE && elementLength() > limit - index) {
            return Status.INCOMPLETE;
        }
        return status;
    }

    private Status complete(int at, int identifier, int header, int length) {
        this.index = at;
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

    /** Where the value of the last complete read starts. */
    int valueIndex() {
        return index + headerLength;
    }

    /**
     * Where the element of the last complete {@link #readElement} ends (exclusive). After a plain
     * {@link #read} the end may lie past the int range: use {@link #elementLength()} there.
     */
    int endIndex() {
        return valueIndex() + valueLength;
    }
}
