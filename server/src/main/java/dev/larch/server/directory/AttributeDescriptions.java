package dev.larch.server.directory;

import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

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

    /**
     * The attribute type a client's description names, or null when it names none: unknown, with
     * options (';'), or outside the RFC 4512 alphabet. Every lookup of a name a client sent goes
     * through here, so none reaches the schema manager unscreened.
     */
    public static AttributeType typeOrNull(SchemaManager schema, String description) {
        if (description == null || description.indexOf(';') >= 0 || !canName(description)) {
            return null;
        }
        return schema.getAttributeType(description);
    }
}
