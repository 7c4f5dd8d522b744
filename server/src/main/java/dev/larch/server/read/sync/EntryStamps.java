package dev.larch.server.read.sync;

import dev.larch.server.csn.Csn;
import dev.larch.server.entry.EntryUuid;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;

import static java.nio.charset.StandardCharsets.US_ASCII;

/** The entryUUID and entryCSN of a stored entry, as content synchronization sends and compares them. */
final class EntryStamps {
    static final String ENTRY_UUID_OID = "1.3.6.1.1.16.4";
    static final String ENTRY_CSN_OID = "1.3.6.1.4.1.4203.666.1.7";

    private EntryStamps() {}

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
        return EntryUuid.toBytes(new String(uuid.values()[0], US_ASCII));
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
