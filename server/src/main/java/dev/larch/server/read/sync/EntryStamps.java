package dev.larch.server.read.sync;

import dev.larch.server.csn.Csn;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;

import static java.nio.charset.StandardCharsets.US_ASCII;

/** The entryUUID and entryCSN of a stored entry, as content synchronization sends and compares them. */
final class EntryStamps {
    static final String ENTRY_UUID_OID = "1.3.6.1.1.16.4";
    static final String ENTRY_CSN_OID = "1.3.6.1.4.1.4203.666.1.7";

    private EntryStamps() {}

    /**
     * {@code response} without memberOf: each server computes it from its own groups (as slapd's
     * memberof overlay does), so it is never replicated, and a slapd consumer without that overlay
     * has no such attribute type and would refuse the entry.
     */
    static SearchResultEntry withoutComputed(SearchResultEntry response) {
        response.getEntry().removeAttributes(MEMBER_OF);
        return response;
    }

    private static final String MEMBER_OF = "memberOf";

    /**
     * The 16 bytes of the entry's entryUUID.
     *
     * @throws IllegalStateException when it has none (every entry of a store of format 4 has one)
     */
    static byte[] uuid(StoredEntry entry) {
        StoredAttribute uuid = entry.attribute(ENTRY_UUID_OID);
        if (uuid == null || uuid.size() != 1) {
            throw new IllegalStateException("entry " + entry.dn() + " has no entryUUID");
        }
        return EntryUuids.toBytes(new String(uuid.values()[0], US_ASCII));
    }

    /** The entry's entryCSN, or null when it has none or an unreadable one. */
    static Csn csn(StoredEntry entry) {
        StoredAttribute csn = entry.attribute(ENTRY_CSN_OID);
        if (csn == null || csn.size() != 1) {
            return null;
        }
        try {
            return Csn.parse(new String(csn.values()[0], US_ASCII));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
