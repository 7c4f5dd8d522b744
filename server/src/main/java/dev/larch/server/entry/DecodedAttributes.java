package dev.larch.server.entry;

import java.util.AbstractList;
import java.util.Objects;
import java.util.RandomAccess;

import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * The attributes of an entry decoded from the store, each made into a {@link StoredAttribute} only
 * when asked for: a search tests one or two attributes of an entry and returns a few, while an
 * inetOrgPerson holds some thirty, and making them all up front cost every search about 1.5 KB.
 * Unmodifiable, in stored order.
 *
 * <p>Not thread-safe, like the decoded entry it belongs to.
 */
final class DecodedAttributes extends AbstractList<StoredAttribute> implements RandomAccess {
    private final EntryCodec codec;
    private final byte[] entry;
    /** Where each attribute's record (its attribute ID first) starts in {@code entry}. */
    private final int[] at;

    private final StoredAttribute[] made;

    DecodedAttributes(EntryCodec codec, byte[] entry, int[] at) {
        this.codec = codec;
        this.entry = entry;
        this.at = at;
        this.made = new StoredAttribute[at.length];
    }

    @Override
    public StoredAttribute get(int index) {
        Objects.checkIndex(index, at.length);
        StoredAttribute a = made[index];
        if (a == null) {
            a = codec.attribute(entry, at[index]);
            made[index] = a;
        }
        return a;
    }

    @Override
    public int size() {
        return at.length;
    }

    /** The OID of attribute {@code index}, without making it. */
    String oid(int index) {
        Objects.checkIndex(index, at.length);
        return codec.oid(entry, at[index]);
    }

    /** The schema's type of attribute {@code index} (null when the schema no longer has it), without making it. */
    AttributeType type(int index) {
        Objects.checkIndex(index, at.length);
        return codec.type(entry, at[index]);
    }

    /** The attribute with this OID, or null; makes no other. */
    StoredAttribute find(String oid) {
        for (int i = 0; i < at.length; i++) {
            if (codec.oid(entry, at[i]).equals(oid)) {
                return get(i);
            }
        }
        return null;
    }
}
