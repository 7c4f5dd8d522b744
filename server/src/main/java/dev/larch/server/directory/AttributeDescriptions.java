package dev.larch.server.directory;

/**
 * Screens attribute descriptions that clients send before they reach the schema manager. Stateless.
 */
public final class AttributeDescriptions {
    private AttributeDescriptions() {}

    /**
     * Whether {@code description} could name an attribute type: only ASCII characters (RFC 4512 §2.5:
     * a descr or a numericoid, options after ';'). Anything else names nothing, and must not be looked
     * up: the Apache schema manager lowercases names through a 256-entry table and throws
     * ArrayIndexOutOfBoundsException on a character above U+00FF (an undecodable octet arrives as U+FFFD).
     */
    public static boolean canName(String description) {
        for (int i = 0; i < description.length(); i++) {
            if (description.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
