package dev.larch.server.read.sync;

import dev.larch.server.csn.Csn;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.entry.StoredStamps;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;

/** The entryUUID and entryCSN of a stored entry, as content synchronization sends and compares them. */
final class EntryStamps {
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
        byte[] uuid = StoredStamps.uuid(entry);
        if (uuid == null) {
            throw new IllegalStateException("entry " + entry.dn() + " has no entryUUID");
        }
        return uuid;
    }

    /** The entry's entryCSN, or null when it has none or an unreadable one. */
    static Csn csn(StoredEntry entry) {
        return StoredStamps.csn(entry);
    }
}
