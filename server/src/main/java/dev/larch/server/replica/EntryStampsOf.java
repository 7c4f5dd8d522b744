package dev.larch.server.replica;

import dev.larch.server.csn.Csn;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;

import static java.nio.charset.StandardCharsets.US_ASCII;

/** The entryUUID and entryCSN a stored entry carries. Stateless. */
final class EntryStampsOf {
    static final String ENTRY_UUID_OID = "1.3.6.1.1.16.4";
    static final String ENTRY_CSN_OID = "1.3.6.1.4.1.4203.666.1.7";

    private EntryStampsOf() {}

    /** The entry's entryCSN; null when it has none, or one that is not a CSN. */
    static Csn csn(StoredEntry entry) {
        StoredAttribute csn = entry.attribute(ENTRY_CSN_OID);
        if (csn == null || csn.size() != 1) {
            return null;
        }
        try {
            return Csn.parse(new String(csn.values()[0], US_ASCII));
        } catch (IllegalArgumentException notACsn) {
            return null;
        }
    }

    /** The entry's entryUUID, 16 bytes; null when it has none, or one that is not a UUID. */
    static byte[] uuid(StoredEntry entry) {
        StoredAttribute uuid = entry.attribute(ENTRY_UUID_OID);
        if (uuid == null || uuid.size() != 1) {
            return null;
        }
        try {
            return EntryUuids.toBytes(new String(uuid.values()[0], US_ASCII));
        } catch (IllegalArgumentException notAUuid) {
            return null;
        }
    }
}
