package dev.larch.server.entry;

import java.util.Arrays;

import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.MatchingRule;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * One attribute of a stored entry: values as the client gave them, and as the attribute's equality
 * rule normalizes them (the form matching and indexing compare). Both are made on first use: a
 * decoded entry's values stay in its stored bytes until asked for, since most reads look at only the
 * few attributes a filter names or a client asks for.
 *
 * <p>Not thread-safe: a decoded entry belongs to the operation that read it.
 */
public final class StoredAttribute {
    private final String oid;
    private final String userId;
    private final AttributeType type;
    private final int count;
    /** The decoded entry whose stored bytes the values are copied out of on first use; null when given as values. */
    private final DecodedAttributes entry;

    private final int valuesAt;
    private byte[][] values;
    private byte[][] normalized;

    /**
     * @param oid the attribute type's OID, which identifies it whatever name a client uses
     * @param userId the attribute description as the client wrote it (returned in search results)
     * @param values user-provided values; never empty
     * @param type the schema's attribute type; null when the schema no longer has it
     * @param normalized normalized values index-aligned with {@code values}, or null to compute lazily
     */
    public StoredAttribute(String oid, String userId, byte[][] values, AttributeType type, byte[][] normalized) {
        this.oid = oid;
        this.userId = userId;
        this.values = values;
        this.type = type;
        this.normalized = normalized;
        this.count = values.length;
        this.entry = null;
        this.valuesAt = 0;
    }

    private StoredAttribute(
            String oid, String userId, AttributeType type, DecodedAttributes entry, int valuesAt, int count) {
        this.oid = oid;
        this.userId = userId;
        this.type = type;
        this.entry = entry;
        this.valuesAt = valuesAt;
        this.count = count;
    }

    /**
     * An attribute whose {@code count} values lie in a decoded entry's bytes from {@code valuesAt}
     * ({@link EntryCodec}'s format), copied out only when first asked for.
     */
    static StoredAttribute inEntry(
            String oid, String userId, AttributeType type, DecodedAttributes entry, int valuesAt, int count) {
        return new StoredAttribute(oid, userId, type, entry, valuesAt, count);
    }

    public String oid() {
        return oid;
    }

    public String userId() {
        return userId;
    }

    /** The schema's attribute type, or null when the schema no longer has it. */
    public AttributeType type() {
        return type;
    }

    public byte[][] values() {
        if (values == null) {
            values = entry.values(valuesAt, count);
        }
        return values;
    }

    public int size() {
        return count;
    }

    /** The equality-normalized values, index-aligned with {@link #values()}. */
    public byte[][] normalized() {
        if (normalized == null) {
            normalized = normalize(type, values());
        }
        return normalized;
    }

    /** Whether some value's normalized form equals {@code normalizedValue}. */
    public boolean containsNormalized(byte[] normalizedValue) {
        for (byte[] n : normalized()) {
            if (Arrays.equals(n, normalizedValue)) {
                return true;
            }
        }
        return false;
    }

    /** Values a rule cannot normalize (or of binary syntaxes) compare as their raw bytes. */
    private static byte[][] normalize(AttributeType type, byte[][] values) {
        MatchingRule equality = type == null ? null : type.getEquality();
        boolean humanReadable =
                type != null && (type.getSyntax() == null || type.getSyntax().isHumanReadable());
        if (equality == null || equality.getNormalizer() == null || !humanReadable) {
            return values;
        }
        boolean caseIgnore = CaseIgnoreAscii.handles(equality.getNormalizer());
        byte[][] out = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            out[i] = caseIgnore ? CaseIgnoreAscii.normalize(values[i]) : null;
            if (out[i] != null) {
                continue;
            }
            try {
                String n = equality.getNormalizer().normalize(new String(values[i], UTF_8));
                out[i] = n == null ? values[i] : n.getBytes(UTF_8);
            } catch (Exception e) {
                out[i] = values[i];
            }
        }
        return out;
    }
}
