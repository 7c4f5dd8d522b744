package dev.larch.server.protocol;

import java.util.Arrays;
import java.util.Objects;

import org.apache.directory.api.ldap.model.entry.DefaultAttribute;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.MessageTypeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * A SearchResultEntry whose attributes are chosen (the client's selection, what it may read, the
 * computed ones) but kept as the stored value bytes, in stored order: the encoder writes it straight
 * from them. The API's form ({@link #getEntry()}) is built the first time a handler asks for it;
 * from then on that form is the answer, so a handler that changes it is encoded as it changed it.
 *
 * <p>Building the API's entry for every answer cost most of a search's allocation: an entry map, an
 * attribute with a value set per attribute, a value object per value, then the API encoder's copy.
 *
 * <p>Not thread-safe: one operation builds, sends and forgets it.
 */
public final class SelectedEntry extends BareResponse implements SearchResultEntry {
    private static final byte[][] NO_VALUES = new byte[0][];

    /** Room for the attributes of a typical answer before the arrays grow. */
    private static final int FIRST_CAPACITY = 4;

    private final String dn;
    // Two arrays rather than two lists: two ArrayLists with their default backing arrays cost 160
    // bytes per entry sent, these 64 for an answer of up to four attributes.
    private String[] names = new String[FIRST_CAPACITY];
    private byte[][][] values = new byte[FIRST_CAPACITY][][];
    private int size;
    private Entry built;

    /** @param dn the entry's DN as stored (the user form) */
    public SelectedEntry(int messageId, String dn) {
        super(messageId, MessageTypeEnum.SEARCH_RESULT_ENTRY);
        this.dn = dn;
    }

    /**
     * Adds an attribute to the answer, after those added before.
     *
     * @param name the attribute description the client sees
     * @param values its values, not copied and not to be changed afterwards; empty for types only
     * @throws IllegalStateException once the API's form is built
     */
    public void add(String name, byte[][] values) {
        if (built != null) {
            throw new IllegalStateException("the entry's API form is already built");
        }
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
            this.values = Arrays.copyOf(this.values, size * 2);
        }
        names[size] = name;
        this.values[size] = values;
        size++;
    }

    /** {@link #add(String, byte[][])} of an attribute with no values (a types-only answer). */
    public void addType(String name) {
        add(name, NO_VALUES);
    }

    /** The DN as stored. */
    public String dn() {
        return dn;
    }

    /** How many attributes the answer holds. */
    public int size() {
        return size;
    }

    public String name(int attribute) {
        return names[Objects.checkIndex(attribute, size)];
    }

    public byte[][] values(int attribute) {
        return values[Objects.checkIndex(attribute, size)];
    }

    /**
     * Whether the answer is still only what {@link #add} put in it, with no control on it: then its
     * encoding follows from {@link #dn()}, the names and the values alone.
     */
    public boolean isPlain() {
        return built == null && getControls().isEmpty();
    }

    @Override
    public Entry getEntry() {
        if (built == null) {
            built = build();
        }
        return built;
    }

    @Override
    public void setEntry(Entry entry) {
        built = entry;
    }

    /** The DN, without building the API's entry when it is not built yet. */
    @Override
    public Dn getObjectName() {
        return built == null ? new StoredDn(dn) : built.getDn();
    }

    @Override
    public void setObjectName(Dn objectName) {
        getEntry().setDn(objectName);
    }

    private Entry build() {
        Entry entry = new DefaultEntry(new StoredDn(dn));
        for (int i = 0; i < size; i++) {
            byte[][] v = values[i];
            try {
                entry.add(v.length == 0 ? new DefaultAttribute(names[i]) : new DefaultAttribute(names[i], v));
            } catch (LdapException e) {
                throw new IllegalStateException(e);
            }
        }
        return entry;
    }

    @Override
    public String toString() {
        return describe(
                "    Search Result Entry " + dn + " " + Arrays.asList(names).subList(0, size) + "\n");
    }
}
