package dev.larch.server.maintenance;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import dev.larch.server.csn.Csn;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ChangeLogCursor;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.ReadTxn;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * The verifier's check of the change log: its keys ascend, each record decodes and its CSN parses,
 * no record is above the contextCSN of its server ID (the contextCSN is raised in the transaction
 * that logs the change, or, on a replica, with the cookie that covers it; the CSN's modifier is not
 * compared), and a record of an add, modify or rename whose entry still exists names
 * an entry with the record's entryUUID and an entryCSN at or above the record's: a later change may
 * have stamped the entry again, so only "not older" holds. Deletes name entries that are gone.
 *
 * <p>Reads each such entry once per record: the log is bounded by its retention, not by the tree.
 * Thread-safe: keeps nothing between calls.
 */
final class ChangeLogCheck {
    private final Directory directory;

    ChangeLogCheck(Directory directory) {
        this.directory = directory;
    }

    void check(ReadTxn txn, VerifyReport report) {
        Map<Integer, Csn> context = new HashMap<>();
        for (byte[] raw : txn.contextCsns()) {
            try {
                Csn csn = Csn.fromBytes(raw);
                context.put(csn.sid(), csn);
            } catch (IllegalArgumentException e) {
                report.problem(
                        "the contextCSN value " + new String(raw, US_ASCII) + " does not parse: " + e.getMessage());
            }
        }
        long bound = txn.changeLogSize();
        byte[] previous = null;
        try (ChangeLogCursor changes = txn.changesAfter(null)) {
            // At most one step per record: a cursor that fails without moving cannot loop forever.
            for (long seen = 0; seen < bound; seen++) {
                LoggedChange change;
                try {
                    change = changes.next();
                } catch (RuntimeException e) {
                    report.problem("a change log record does not decode: " + e.getMessage());
                    continue;
                }
                if (change == null) {
                    break;
                }
                report.changeChecked();
                if (previous != null && Arrays.compareUnsigned(previous, change.csn()) >= 0) {
                    report.problem("change log record " + change.csnText() + " follows "
                            + new String(previous, US_ASCII) + ": the keys do not ascend");
                }
                previous = change.csn();
                record(txn, change, context, report);
            }
        }
    }

    private void record(ReadTxn txn, LoggedChange change, Map<Integer, Csn> context, VerifyReport report) {
        String what = "change log record " + change.csnText() + " ("
                + change.kind().name().toLowerCase(Locale.ROOT) + " of entry " + change.entryId() + ")";
        Csn csn;
        try {
            csn = Csn.parse(change.csnText());
        } catch (IllegalArgumentException e) {
            report.problem(what + ": its CSN does not parse: " + e.getMessage());
            return;
        }
        Csn highest = context.get(csn.sid());
        if (highest == null) {
            report.problem(what + " has server ID " + csn.sid() + ", which the contextCSN does not name");
        } else if (Csn.of(csn.epochMicros(), csn.count(), csn.sid(), 0).isAfter(highest)) {
            // The modifier aside: a replica logs the deletes a cookie covers with the cookie's CSN
            // and a raised modifier, the change log being keyed by CSN (replica.DeleteStamps).
            report.problem(what + " is above the contextCSN of server ID " + csn.sid() + ", " + highest);
        }
        if (change.kind() == LoggedChange.Kind.DELETE) {
            return;
        }
        StoredEntry entry;
        try {
            entry = directory.load(txn, change.entryId());
        } catch (RuntimeException e) {
            return; // reported when the entry was checked
        }
        if (entry == null) {
            return; // deleted since: its delete is logged later
        }
        byte[] uuid = StampCheck.uuid(entry);
        if (uuid != null && !Arrays.equals(uuid, change.uuid())) {
            report.problem(what + " names entryUUID " + EntryUuids.toText(change.uuid()) + ", but "
                    + StampCheck.name(entry) + " has " + EntryUuids.toText(uuid));
        }
        Csn stamped = StampCheck.csn(entry);
        if (stamped != null && csn.isAfter(stamped)) {
            report.problem(what + " is newer than the entryCSN of " + StampCheck.name(entry) + ", " + stamped);
        }
    }
}
