package dev.larch.server.entry;

import dev.larch.server.csn.Csn;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * The entryUUID (RFC 4530) and entryCSN a stored entry carries, as replication reads them: a provider
 * to send them, a consumer to match and order what it receives. Stateless.
 */
public final class StoredStamps {
    public static final String ENTRY_UUID_OID = "1.3.6.1.1.16.4";
    public static final String ENTRY_CSN_OID = "1.3.6.1.4.1.4203.666.1.7";

    private StoredStamps() {}

    /** The entry's entryCSN; null when it has none, or one that is not a CSN. */
    public static Csn csn(StoredEntry entry) {
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
    public static byte[] uuid(StoredEntry entry) {
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
