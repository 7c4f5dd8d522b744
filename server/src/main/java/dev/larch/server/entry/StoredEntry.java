package dev.larch.server.entry;

import java.util.List;

import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * An entry as read from the store: its ID, its parent's ID, its DN as given by the client that
 * created it, and its attributes (user and operational) in stored order.
 *
 * <p>Detached from the transaction it was read in, and never changed; but an entry decoded from the
 * store makes each attribute on first use ({@link DecodedAttributes}), so it belongs to one thread at
 * a time, as its attributes' values already did.
 */
public record StoredEntry(long id, long parentId, String dn, List<StoredAttribute> attributes) {

    /** The attribute with this OID, or null. */
    public StoredAttribute attribute(String oid) {
        if (attributes instanceof DecodedAttributes decoded) {
            return decoded.find(oid);
        }
        for (StoredAttribute a : attributes) {
            if (a.oid().equals(oid)) {
                return a;
            }
        }
        return null;
    }

    /**
     * The OID of attribute {@code index} of {@link #attributes}: of a decoded entry, read without
     * making the attribute, so that a walk that keeps a few of them makes only those.
     */
    public String oidAt(int index) {
        return attributes instanceof DecodedAttributes decoded
                ? decoded.oid(index)
                : attributes.get(index).oid();
    }

    /**
     * The store's number for the type of attribute {@code index} of {@link #attributes}, the same for
     * every entry of the store (it stands for the OID in the stored entry); -1 for an entry not
     * decoded from the store (a virtual entry's, one built for a write).
     */
    public int numberAt(int index) {
        return attributes instanceof DecodedAttributes decoded ? decoded.number(index) : -1;
    }

    /** The schema's type of attribute {@code index} of {@link #attributes} (null when unknown), as {@link #oidAt}. */
    public AttributeType typeAt(int index) {
        return attributes instanceof DecodedAttributes decoded
                ? decoded.type(index)
                : attributes.get(index).type();
    }
}
