package dev.larch.server.entry;

import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

/**
 * entryUUID values (RFC 4530) between their text form {@code 8-4-4-4-12} hex digits and the 16 raw
 * bytes a Sync State control and a syncIdSet carry (RFC 4533 section 2.1.1). Strict both ways. Stateless.
 */
public final class EntryUuids {

    /** The length of a syncUUID. */
    public static final int BYTES = 16;

    private static final int TEXT_LENGTH = 36;
    private static final HexFormat HEX = HexFormat.of();

    private EntryUuids() {}

    /**
     * The 16 bytes of {@code text}, hex digits in either case.
     *
     * @throws IllegalArgumentException when {@code text} is not {@code 8-4-4-4-12} hex digits
     */
    public static byte[] toBytes(String text) {
        if (text.length() != TEXT_LENGTH) {
            throw invalid(text, "it has " + text.length() + " characters, not " + TEXT_LENGTH);
        }
        byte[] bytes = new byte[BYTES];
        int out = 0;
        for (int i = 0; i < TEXT_LENGTH; ) {
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (text.charAt(i) != '-') {
                    throw invalid(text, "'-' expected at " + i);
                }
                i++;
                continue;
            }
            int high = hexDigit(text, i);
            int low = hexDigit(text, i + 1);
            bytes[out++] = (byte) (high << 4 | low);
            i += 2;
        }
        return bytes;
    }

    /**
     * The text of {@code bytes} in lower case, as slapd writes entryUUID.
     *
     * @throws IllegalArgumentException when {@code bytes} is not 16 bytes long
     */
    public static String toText(byte[] bytes) {
        checkLength(bytes);
        String hex = HEX.formatHex(bytes);
        return hex.substring(0, 8)
                + '-'
                + hex.substring(8, 12)
                + '-'
                + hex.substring(12, 16)
                + '-'
                + hex.substring(16, 20)
                + '-'
                + hex.substring(20);
    }

    /** The 16 bytes of {@code uuid}, most significant first. */
    public static byte[] toBytes(UUID uuid) {
        return toBytes(uuid.toString());
    }

    /** The UUID of 16 bytes. */
    public static UUID toUuid(byte[] bytes) {
        return UUID.fromString(toText(bytes));
    }

    /**
     * Checks that {@code bytes} can be a syncUUID.
     *
     * @throws IllegalArgumentException when it is not 16 bytes long
     */
    public static void checkLength(byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("a syncUUID is " + BYTES + " bytes, not " + bytes.length);
        }
    }

    private static int hexDigit(String text, int index) {
        char c = text.charAt(index);
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        char lower = Character.toLowerCase(c);
        if (lower >= 'a' && lower <= 'f' && c < 128) {
            return lower - 'a' + 10;
        }
        throw invalid(text, "not a hex digit at " + index);
    }

    private static IllegalArgumentException invalid(String text, String why) {
        String shown = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        return new IllegalArgumentException(
                "not an entryUUID (" + why + "): \"" + shown.toLowerCase(Locale.ROOT) + "\"");
    }
}
