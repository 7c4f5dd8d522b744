package dev.larch.server.sync;

import java.util.Arrays;
import java.util.Locale;

/**
 * Reads a syncRequestValue (RFC 4533 section 2.2) strictly: the SEQUENCE must fill the value exactly, its
 * elements in order with their tags (ENUMERATED mode, OCTET STRING cookie optional, BOOLEAN reloadHint
 * optional), definite lengths that fit, nothing else. The Apache factory's grammar accepts a SEQUENCE
 * whose length runs past the value, which is why the server reads this value itself. Stateless.
 */
final class SyncRequestValueReader {

    /** The fields of a syncRequestValue; {@code cookie} null when absent. */
    record Value(int mode, byte[] cookie, boolean reloadHint) {}

    /** A value that is not a syncRequestValue; the message says where. */
    static final class MalformedException extends Exception {
        private static final long serialVersionUID = 1L;

        MalformedException(String message) {
            super(message);
        }
    }

    private static final int SEQUENCE = 0x30;
    private static final int ENUMERATED = 0x0A;
    private static final int OCTET_STRING = 0x04;
    private static final int BOOLEAN = 0x01;

    private final byte[] bytes;
    private int position;

    private SyncRequestValueReader(byte[] bytes) {
        this.bytes = bytes;
    }

    static Value read(byte[] bytes) throws MalformedException {
        return new SyncRequestValueReader(bytes).value();
    }

    private Value value() throws MalformedException {
        int sequenceEnd = header(SEQUENCE, "the SEQUENCE", bytes.length);
        if (sequenceEnd != bytes.length) {
            throw new MalformedException("bytes follow the SEQUENCE");
        }
        int modeEnd = header(ENUMERATED, "the mode (ENUMERATED)", sequenceEnd);
        int modeLength = modeEnd - position;
        if (modeLength < 1 || modeLength > 4) {
            throw new MalformedException("the mode has " + modeLength + " octets");
        }
        int mode = bytes[position]; // two's complement: a negative mode stays negative
        for (int i = position + 1; i < modeEnd; i++) {
            mode = mode << 8 | (bytes[i] & 0xFF);
        }
        position = modeEnd;
        byte[] cookie = null;
        if (position < sequenceEnd && (bytes[position] & 0xFF) == OCTET_STRING) {
            int cookieEnd = header(OCTET_STRING, "the cookie", sequenceEnd);
            cookie = Arrays.copyOfRange(bytes, position, cookieEnd);
            position = cookieEnd;
        }
        boolean reloadHint = false;
        if (position < sequenceEnd && (bytes[position] & 0xFF) == BOOLEAN) {
            int hintEnd = header(BOOLEAN, "reloadHint", sequenceEnd);
            if (hintEnd - position != 1) {
                throw new MalformedException("reloadHint is not one octet");
            }
            reloadHint = bytes[position] != 0;
            position = hintEnd;
        }
        if (position != sequenceEnd) {
            throw new MalformedException(String.format(
                    Locale.ROOT, "an unexpected element (tag 0x%02x) in the SEQUENCE", bytes[position] & 0xFF));
        }
        return new Value(mode, cookie, reloadHint);
    }

    /**
     * Reads the tag and length at {@code position}, which must be {@code tag}, and moves to the value.
     *
     * @return the end of the value, at most {@code limit}
     */
    private int header(int tag, String what, int limit) throws MalformedException {
        if (position + 2 > limit) {
            throw new MalformedException(what + " is missing or truncated");
        }
        if ((bytes[position] & 0xFF) != tag) {
            throw new MalformedException(
                    String.format(Locale.ROOT, "%s has tag 0x%02x, not 0x%02x", what, bytes[position] & 0xFF, tag));
        }
        int first = bytes[position + 1] & 0xFF;
        position += 2;
        long length;
        if (first < 0x80) {
            length = first;
        } else {
            int octets = first & 0x7F;
            if (octets == 0 || octets > 4) {
                throw new MalformedException(what + " has an indefinite or oversized length");
            }
            if (position + octets > limit) {
                throw new MalformedException(what + " is truncated");
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = length << 8 | (bytes[position++] & 0xFF);
            }
        }
        if (length > limit - position) {
            throw new MalformedException(what + " runs past the end of the value");
        }
        return position + (int) length;
    }
}
