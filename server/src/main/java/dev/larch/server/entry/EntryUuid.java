package dev.larch.server.entry;

import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * An {@code entryUUID} (RFC 4530) between its text form ({@code 8-4-4-4-12} hex digits) and its 16
 * raw bytes, the form content synchronization sends (RFC 4533 syncUUID) and the change log keeps.
 */
public final class EntryUuid {
    public static final int BYTES = 16;

    private static final Pattern TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private EntryUuid() {}

    /**
     * The 16 bytes of a UUID's text.
     *
     * @throws IllegalArgumentException when {@code text} is not a UUID in RFC 4122 text form
     */
    public static byte[] toBytes(String text) {
        if (!TEXT.matcher(text).matches()) {
            throw new IllegalArgumentException("not a UUID: '" + text + "'");
        }
        UUID uuid = UUID.fromString(text);
        return ByteBuffer.allocate(BYTES)
                .putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits())
                .array();
    }

    /**
     * The text form (lowercase) of 16 bytes.
     *
     * @throws IllegalArgumentException when {@code bytes} are not 16
     */
    public static String toText(byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("a UUID has 16 bytes, got " + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        return new UUID(b.getLong(), b.getLong()).toString();
    }
}
