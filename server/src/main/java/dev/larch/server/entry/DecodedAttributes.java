package dev.larch.server.entry;

import java.nio.ByteBuffer;
import java.util.AbstractList;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.BooleanSupplier;

import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * The attributes of an entry decoded from the store, each made into a {@link StoredAttribute} only
 * when asked for: a search tests one or two attributes of an entry and returns a few, while an
 * inetOrgPerson holds some thirty, and making them all up front cost every search about 1.5 KB.
 * Unmodifiable, in stored order.
 *
 * <p>The bytes are the entry's own copy, or a read transaction's memory ({@link
 * EntryCodec#decodeInPlace}): then each read asks first whether that memory still holds the entry,
 * and refuses once the transaction has ended.
 *
 * <p>Not thread-safe, like the decoded entry it belongs to.
 */
final class DecodedAttributes extends AbstractList<StoredAttribute> implements RandomAccess {
    private final EntryCodec codec;
    private final ByteBuffer entry;
    /** Whether {@link #entry} still holds the entry's bytes. */
    private final BooleanSupplier readable;
    /** Where each attribute's record (its attribute ID first) starts in {@code entry}. */
    private final int[] at;

    /** The attributes made so far, by index; null until the first (a base's visibility check makes none). */
    private StoredAttribute[] made;

    DecodedAttributes(EntryCodec codec, ByteBuffer entry, BooleanSupplier readable, int[] at) {
        this.codec = codec;
        this.entry = entry;
        this.readable = readable;
        this.at = at;
    }

    @Override
    public StoredAttribute get(int index) {
        Objects.checkIndex(index, at.length);
        if (made == null) {
            made = new StoredAttribute[at.length];
        }
        StoredAttribute a = made[index];
        if (a == null) {
            a = codec.attribute(this, bytes(), at[index]);
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
        return codec.oid(bytes(), at[index]);
    }

    /** The schema's type of attribute {@code index} (null when the schema no longer has it), without making it. */
    AttributeType type(int index) {
        Objects.checkIndex(index, at.length);
        return codec.type(bytes(), at[index]);
    }

    /** The attribute with this OID, or null; makes no other. */
    StoredAttribute find(String oid) {
        ByteBuffer bytes = bytes();
        for (int i = 0; i < at.length; i++) {
            if (codec.oid(bytes, at[i]).equals(oid)) {
                return get(i);
            }
        }
        return null;
    }

    /** The {@code count} values stored from {@code offset}, copied out. */
    byte[][] values(int offset, int count) {
        return EntryCodec.values(bytes(), offset, count);
    }

    /** The entry's bytes, while they are readable. */
    private ByteBuffer bytes() {
        if (!readable.getAsBoolean()) {
            throw new IllegalStateException("a stored entry read in place was used after its transaction ended");
        }
        return entry;
    }
}
