package dev.larch.server.maintenance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.larch.server.csn.Csn;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.entry.StoredStamps;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * The verifier's check of the stamps content synchronization relies on: every entry has exactly one
 * entryUUID, no two entries share one, and every entry has exactly one entryCSN that parses. The
 * UUIDs are tallied as the entries go by ({@link UuidTally}, 16 bytes an entry); only when some are
 * shared are the entries walked a second time to name their holders.
 *
 * <p>Not thread-safe: one per thread of a verification, added into one ({@link #addAll}) before {@link #sharedUuids}.
 */
final class StampCheck {
    static final String ENTRY_UUID_OID = StoredStamps.ENTRY_UUID_OID;
    static final String ENTRY_CSN_OID = StoredStamps.ENTRY_CSN_OID;

    private final UuidTally uuids = new UuidTally();

    /** Checks one entry's stamps and tallies its UUID. */
    void entry(StoredEntry entry, VerifyReport report) {
        String uuid = single(entry, ENTRY_UUID_OID, "entryUUID", report);
        if (uuid != null) {
            try {
                uuids.add(EntryUuids.toBytes(uuid));
            } catch (IllegalArgumentException e) {
                report.problem(name(entry) + " has an entryUUID that does not parse: " + e.getMessage());
            }
        }
        String csn = single(entry, ENTRY_CSN_OID, "entryCSN", report);
        if (csn != null) {
            try {
                Csn.parse(csn);
            } catch (IllegalArgumentException e) {
                report.problem(name(entry) + " has an entryCSN that does not parse: " + e.getMessage());
            }
        }
    }

    /** Takes in the UUIDs another thread's check tallied, so shared ones are found across both. */
    void addAll(StampCheck other) {
        uuids.addAll(other.uuids);
    }

    /** After every entry went through {@link #entry}: names the entries that share an entryUUID. */
    void sharedUuids(ReadTxn txn, Directory directory, VerifyReport report) {
        List<byte[]> shared = uuids.duplicates(VerifyReport.LISTED);
        if (shared.isEmpty()) {
            return;
        }
        Map<String, List<String>> holders = new LinkedHashMap<>();
        for (byte[] uuid : shared) {
            holders.put(EntryUuids.toText(uuid), new ArrayList<>());
        }
        try (IdCursor ids = txn.allEntries()) {
            for (long id = ids.next(); id != ReadTxn.NOT_FOUND; id = ids.next()) {
                StoredEntry entry;
                try {
                    entry = directory.load(txn, id);
                } catch (RuntimeException e) {
                    continue; // reported when the entry was checked
                }
                String uuid = uuidText(entry);
                List<String> names = uuid == null ? null : holders.get(uuid);
                if (names != null) {
                    names.add(name(entry));
                }
            }
        }
        holders.forEach((uuid, names) -> report.problem("entryUUID " + uuid + " is held by " + names.size()
                + " entries, not one: " + String.join(", ", names)));
    }

    /** The entry's entryUUID (16 bytes), or null when it has not exactly one that parses. */
    static byte[] uuid(StoredEntry entry) {
        String text = text(entry, ENTRY_UUID_OID);
        if (text == null) {
            return null;
        }
        try {
            return EntryUuids.toBytes(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The entry's entryCSN, or null when it has not exactly one that parses. */
    static Csn csn(StoredEntry entry) {
        String text = text(entry, ENTRY_CSN_OID);
        if (text == null) {
            return null;
        }
        try {
            return Csn.parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String name(StoredEntry entry) {
        return "entry " + entry.id() + " (" + entry.dn() + ")";
    }

    private static String uuidText(StoredEntry entry) {
        byte[] uuid = uuid(entry);
        return uuid == null ? null : EntryUuids.toText(uuid);
    }

    private static String text(StoredEntry entry, String oid) {
        StoredAttribute attribute = entry.attribute(oid);
        return attribute == null || attribute.size() != 1
                ? null
                : new String(attribute.values()[0], US_ASCII);
    }

    /** The attribute's one value, or null after reporting that it has none or several. */
    private static String single(StoredEntry entry, String oid, String attribute, VerifyReport report) {
        StoredAttribute stored = entry.attribute(oid);
        int values = stored == null ? 0 : stored.size();
        if (values != 1) {
            report.problem(name(entry) + " has "
                    + (values == 0 ? "no " + attribute : values + " " + attribute + " values, not one"));
            return null;
        }
        return new String(stored.values()[0], US_ASCII);
    }
}
