package dev.larch.server.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a control value that is a BER {@code SEQUENCE OF} (RFC 4527's AttributeSelection, RFC 3876's
 * ValuesReturnFilter) into its elements, under RFC 4511 section 5.1's restrictions: single-octet tags,
 * definite lengths of at most four octets, nothing after the sequence. Elements are only delimited,
 * not interpreted: their tags and contents are the caller's to judge.
 *
 * <p>Stateless and thread-safe; reads at most the bytes it is given, so a hostile length cannot make
 * it allocate more than the value's size.
 */
public final class BerSequenceOf {
    /** One element of the sequence: its identifier octet and its whole encoding (header and value). */
    public record Element(int tag, byte[] encoded, int valueOffset) {
        /** The contents octets. */
        public byte[] value() {
            return Arrays.copyOfRange(encoded, valueOffset, encoded.length);
        }
    }

    /** A value that is not a well-formed SEQUENCE OF; the message says what is wrong. */
    public static final class MalformedException extends Exception {
        MalformedException(String message) {
            super(message, null, false, false);
        }
    }

    private BerSequenceOf() {}

    /**
     * The elements of {@code value}, which must be exactly one SEQUENCE (tag 0x30).
     *
     * @throws MalformedException when it is not
     */
    public static List<Element> read(byte[] value) throws MalformedException {
        if (value == null || value.length == 0) {
            throw new MalformedException("empty value");
        }
        int[] outer = header(value, 0, value.length);
        if (value[0] != 0x30) {
            throw new MalformedException("not a SEQUENCE");
        }
        if (outer[1] != value.length) {
            throw new MalformedException("bytes after the SEQUENCE");
        }
        List<Element> elements = new ArrayList<>();
        for (int index = outer[0]; index < value.length; ) {
            int[] element = header(value, index, value.length);
            elements.add(
                    new Element(value[index] & 0xFF, Arrays.copyOfRange(value, index, element[1]), element[0] - index));
            index = element[1];
        }
        return elements;
    }

    /** {start of value, end of element} for the element at {@code index}, which must end by {@code limit}. */
    private static int[] header(byte[] value, int index, int limit) throws MalformedException {
        if ((value[index] & 0x1F) == 0x1F) {
            throw new MalformedException("multi-octet tag");
        }
        if (index + 1 >= limit) {
            throw new MalformedException("truncated length");
        }
        int first = value[index + 1] & 0xFF;
        int start;
        long length;
        if (first < 0x80) {
            start = index + 2;
            length = first;
        } else {
            int octets = first & 0x7F;
            if (octets == 0) {
                throw new MalformedException("indefinite length");
            }
            if (octets > 4) {
                throw new MalformedException("length of more than four octets");
            }
            start = index + 2 + octets;
            if (start > limit) {
                throw new MalformedException("truncated length");
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = (length << 8) | (value[index + 2 + i] & 0xFF);
            }
        }
        if (length > limit - start) {
            throw new MalformedException("element longer than its container");
        }
        return new int[] {start, start + (int) length};
    }
}
