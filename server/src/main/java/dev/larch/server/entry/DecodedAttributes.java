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
    /**
     * Where each attribute's record (its attribute ID first) starts in {@code entry}: in {@code
     * shortAt} when every offset fits a char, else in {@code longAt}; the other is null.
     */
    private final char[] shortAt;

    private final int[] longAt;
    private final int size;

    /**
     * How many made attributes {@link #made} keeps in its first form, with their indexes, before it
     * becomes one slot per attribute: a search makes its filter's attributes and those it returns,
     * a few of some forty, and one slot each for an inetOrgPerson cost some 170 bytes an entry.
     */
    static final int FEW = 4;

    /**
     * The attributes made so far: null until the first (a base's visibility check makes none); then
     * up to {@link #FEW} in the order made, their indexes in {@link #madeIndexes}; past that (or for
     * an entry of few attributes) one slot per attribute, by index, and {@code madeIndexes} null.
     */
    private StoredAttribute[] made;

    private int[] madeIndexes;
    private int madeCount;

    DecodedAttributes(EntryCodec codec, ByteBuffer entry, BooleanSupplier readable, char[] shortAt, int[] longAt) {
        this.codec = codec;
        this.entry = entry;
        this.readable = readable;
        this.shortAt = shortAt;
        this.longAt = longAt;
        this.size = shortAt != null ? shortAt.length : longAt.length;
    }

    /** Where attribute {@code index}'s record starts. */
    private int at(int index) {
        return shortAt != null ? shortAt[index] : longAt[index];
    }

    @Override
    public StoredAttribute get(int index) {
        Objects.checkIndex(index, size);
        if (made != null && madeIndexes == null) {
            StoredAttribute a = made[index];
            if (a == null) {
                a = make(index);
                made[index] = a;
            }
            return a;
        }
        for (int i = 0; i < madeCount; i++) {
            if (madeIndexes[i] == index) {
                return made[i];
            }
        }
        StoredAttribute a = make(index);
        if (made == null && size <= 2 * FEW) {
            made = new StoredAttribute[size]; // no bigger than the few slots and their indexes
            made[index] = a;
        } else if (madeCount < FEW) {
            if (made == null) {
                made = new StoredAttribute[FEW];
                madeIndexes = new int[FEW];
            }
            madeIndexes[madeCount] = index;
            made[madeCount++] = a;
        } else {
            StoredAttribute[] all = new StoredAttribute[size];
            for (int i = 0; i < madeCount; i++) {
                all[madeIndexes[i]] = made[i];
            }
            all[index] = a;
            made = all;
            madeIndexes = null;
        }
        return a;
    }

    private StoredAttribute make(int index) {
        return codec.attribute(this, bytes(), at(index));
    }

    @Override
    public int size() {
        return size;
    }

    /** The OID of attribute {@code index}, without making it. */
    String oid(int index) {
        Objects.checkIndex(index, size);
        return codec.oid(bytes(), at(index));
    }

    /** The schema's type of attribute {@code index} (null when the schema no longer has it), without making it. */
    AttributeType type(int index) {
        Objects.checkIndex(index, size);
        return codec.type(bytes(), at(index));
    }

    /** The attribute with this OID, or null; makes no other. */
    StoredAttribute find(String oid) {
        ByteBuffer bytes = bytes();
        for (int i = 0; i < size; i++) {
            if (codec.oid(bytes, at(i)).equals(oid)) {
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
