package dev.larch.server.entry;

import java.util.List;

/**
 * An entry as read from the store: its ID, its parent's ID, its DN as given by the client that
 * created it, and its attributes (user and operational) in stored order.
 *
 * <p>Immutable and detached from the transaction it was read in.
 */
public record StoredEntry(long id, long parentId, String dn, List<StoredAttribute> attributes) {

    /** The attribute with this OID, or null. */
    public StoredAttribute attribute(String oid) {
        for (StoredAttribute a : attributes) {
            if (a.oid().equals(oid)) {
                return a;
            }
        }
        return null;
    }
}
