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
     * Each attribute's stored ID and where its record (the ID first) starts in {@code entry}: packed
     * in an int, ID in the high half, when every offset and ID fits a char (an entry under 64 KiB,
     * which is nearly every entry), else in {@code large} as ID and offset in the halves of a long;
     * the other is null. Kept so that finding an attribute by type, and naming one, reads no entry
     * bytes: a search finds its filter's attributes and names every attribute it may return.
     */
    private final int[] small;

    private final long[] large;
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

    /**
     * @param small as {@link #small}, or null
     * @param large as {@link #large}, or null
     */
    DecodedAttributes(EntryCodec codec, ByteBuffer entry, BooleanSupplier readable, int[] small, long[] large) {
        this.codec = codec;
        this.entry = entry;
        this.readable = readable;
        this.small = small;
        this.large = large;
        this.size = small != null ? small.length : large.length;
    }

    /** Where attribute {@code index}'s record starts. */
    private int at(int index) {
        return small != null ? small[index] & 0xFFFF : (int) large[index];
    }

    /** The stored ID of attribute {@code index}. */
    private int id(int index) {
        return small != null ? small[index] >>> 16 : (int) (large[index] >>> 32);
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

    /** The store's number for the type of attribute {@code index} (its AttributeCatalog ID). */
    int number(int index) {
        Objects.checkIndex(index, size);
        ensureReadable();
        return id(index);
    }

    /** The OID of attribute {@code index}, without making it. */
    String oid(int index) {
        Objects.checkIndex(index, size);
        ensureReadable();
        return codec.oid(id(index));
    }

    /** The schema's type of attribute {@code index} (null when the schema no longer has it), without making it. */
    AttributeType type(int index) {
        Objects.checkIndex(index, size);
        ensureReadable();
        return codec.type(id(index));
    }

    /**
     * The attribute with this OID, or null; makes no other. Compares stored IDs: one lookup of the
     * OID's, instead of an OID string compared per attribute passed over.
     */
    StoredAttribute find(String oid) {
        int wanted = codec.storedId(oid);
        ensureReadable();
        if (wanted < 0) {
            return null;
        }
        for (int i = 0; i < size; i++) {
            if (id(i) == wanted) {
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
        ensureReadable();
        return entry;
    }

    /**
     * Refuses use of an entry read in place past its transaction, even where the answer needs no
     * entry bytes: such a use is a bug that the next read of its values would hit less plainly.
     */
    private void ensureReadable() {
        if (!readable.getAsBoolean()) {
            throw new IllegalStateException("a stored entry read in place was used after its transaction ended");
        }
    }
}
