package dev.larch.server.store;

import dev.larch.config.IndexKind;

/**
 * One attribute index: an attribute type (by OID) and an index kind. Its tree is named {@link
 * #treeName()}, {@code <kind tag>:<OID>} (tags {@code eq}, {@code pres}, {@code sub}, {@code ord}).
 */
public record IndexRef(String attributeOid, IndexKind kind) {
    /** The name of this index's tree in the store. */
    String treeName() {
        return tag(kind) + ":" + attributeOid;
    }

    /** The index a tree name names, or null when it names no attribute index (another tree). */
    static IndexRef ofTreeName(String name) {
        int colon = name.indexOf(':');
        if (colon < 0) {
            return null;
        }
        String tag = name.substring(0, colon);
        for (IndexKind kind : IndexKind.values()) {
            if (tag(kind).equals(tag)) {
                return new IndexRef(name.substring(colon + 1), kind);
            }
        }
        return null;
    }

    private static String tag(IndexKind kind) {
        return switch (kind) {
            case EQUALITY -> "eq";
            case PRESENCE -> "pres";
            case SUBSTRING -> "sub";
            case ORDERING -> "ord";
        };
    }
}
