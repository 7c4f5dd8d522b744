package dev.larch.server.entry;

import java.util.Arrays;

/**
 * One attribute of a stored entry: values as the client gave them and as the attribute's
 * equality rule normalizes them (the form matching and indexing compare).
 *
 * @param oid the attribute type's OID, which identifies it whatever name a client uses
 * @param userId the attribute description as the client wrote it (returned in search results)
 * @param values user-provided values; never empty
 * @param normalized normalized values, index-aligned with {@code values}
 */
public record StoredAttribute(String oid, String userId, byte[][] values, byte[][] normalized) {

    public int size() {
        return values.length;
    }

    /** Whether some value's normalized form equals {@code normalizedValue}. */
    public boolean containsNormalized(byte[] normalizedValue) {
        for (byte[] n : normalized) {
            if (Arrays.equals(n, normalizedValue)) {
                return true;
            }
        }
        return false;
    }
}
