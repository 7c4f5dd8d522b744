package dev.larch.server.maintenance;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.larch.server.Progress;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.group.MemberOfMaintainer;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.IndexKeys;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.name.Dn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * An offline integrity check of a store: every entry decodes, is the suffix or names an existing
 * parent and stores exactly one RDN under it (entries store their RDN and parent ID, and the DN is
 * rebuilt up that chain, which must reach the suffix without a loop), and is reached through the
 * DN tree; the DN tree names only entries, each under its own parent; every index holds exactly the keys the entries give it;
 * every entry's stored {@code memberOf} values are the groups that hold it ({@link
 * MemberOfMaintainer#wanted}, one member-index lookup per entry, each group read once); every entry
 * has one entryUUID, held by no other, and one entryCSN ({@link StampCheck}); the change log is well
 * formed and agrees with the contextCSN and the entries ({@link ChangeLogCheck}).
 *
 * <p>Exactness is proven by counting: each entry's expected records are looked up one by one, and
 * when a database holds more records than the entries account for, its records are walked to name
 * the strays. One read transaction sees a single state of the store, so a check may run while a
 * server writes.
 *
 * <p>Thread-safe: each call works in its own transaction.
 */
public final class StoreVerifier {
    private final Directory directory;
    private final PrintStream progress;
    private final MemberOfMaintainer memberOf;

    /** @param progress where progress lines go on long checks, or null for none */
    public StoreVerifier(Directory directory, PrintStream progress) {
        this.directory = directory;
        this.progress = progress;
        this.memberOf = new MemberOfMaintainer(
                directory,
                new GroupGraph(
                        directory,
                        new FilterCompiler(directory.schemaNormalizer().schema()),
                        new SearchPlanner(directory.store(), 0)));
    }

    public VerifyReport verify() {
        VerifyReport report = new VerifyReport();
        LmdbStore store = directory.store();
        try (ReadTxn txn = store.read();
                ReadTxn.IndexProbe probe = txn.indexProbe()) {
            Map<IndexRef, Long> expected = new HashMap<>();
            store.indexes().refs().forEach(ref -> expected.put(ref, 0L));
            Progress steps = Progress.to(progress, "verified entries", txn.entryCount());
            GroupGraph.Loaded groups = new GroupGraph.Loaded();
            StampCheck stamps = new StampCheck();
            try (IdCursor ids = txn.allEntries()) {
                for (long id = ids.next(); id != ReadTxn.NOT_FOUND; id = ids.next()) {
                    checkEntry(txn, probe, id, expected, groups, stamps, report);
                    report.entryChecked();
                    steps.step();
                }
            }
            steps.finish();
            stamps.sharedUuids(txn, directory, report);
            new ChangeLogCheck(directory).check(txn, report);
            long dnRecords = txn.dnRecordCount();
            if (dnRecords != report.entries()) {
                report.problem("the DN tree holds " + dnRecords + " records for " + report.entries() + " entries");
                findStrayDnRecords(txn, report);
            }
            for (Map.Entry<IndexRef, Long> index : expected.entrySet()) {
                IndexRef ref = index.getKey();
                long held = txn.indexRecordCount(ref.attributeOid(), ref.kind());
                report.indexRecordsChecked(held);
                if (held > index.getValue()) {
                    report.problem(
                            describe(ref) + " holds " + held + " records; the entries account for " + index.getValue());
                    findStrayIndexRecords(txn, ref, report);
                }
            }
        }
        return report;
    }

    private void checkEntry(
            ReadTxn txn,
            ReadTxn.IndexProbe probe,
            long id,
            Map<IndexRef, Long> expected,
            GroupGraph.Loaded groups,
            StampCheck stamps,
            VerifyReport report) {
        StoredEntry entry;
        Dn dn;
        try {
            entry = directory.load(txn, id);
            dn = directory.schemaNormalizer().dn(entry.dn());
        } catch (RuntimeException e) {
            report.problem("entry " + id + " does not decode: " + e.getMessage());
            return;
        }
        if (entry.parentId() == DnTree.NO_PARENT) {
            if (!dn.equals(directory.suffix())) {
                report.problem("entry " + id + " (" + entry.dn() + ") has no parent but is not the suffix "
                        + directory.suffix().getName());
            }
        } else {
            checkParent(txn, entry, dn, report);
        }
        stamps.entry(entry, report);
        if (directory.resolve(txn, dn) != id) {
            report.problem("the DN tree does not lead to entry " + id + " (" + entry.dn() + ")");
        }
        try {
            checkMemberOf(txn, entry, groups, report);
        } catch (RuntimeException e) {
            // A group that does not decode (reported when it is checked) leaves this one unknown.
            report.problem(
                    "the memberOf of entry " + id + " (" + entry.dn() + ") cannot be checked: " + e.getMessage());
        }
        for (Map.Entry<IndexRef, Long> index : expected.entrySet()) {
            IndexRef ref = index.getKey();
            Set<IndexKeys.Key> keys = directory.indexes().keysOf(entry, ref);
            index.setValue(index.getValue() + keys.size());
            for (IndexKeys.Key key : keys) {
                if (!probe.has(ref, key.bytes(), id)) {
                    report.problem(describe(ref) + " lacks a key of entry " + id + " (" + entry.dn() + ")");
                }
            }
        }
    }

    private void checkMemberOf(ReadTxn txn, StoredEntry entry, GroupGraph.Loaded groups, VerifyReport report) {
        List<String> wanted = memberOf.wanted(txn, entry, groups);
        StoredAttribute stored = entry.attribute(Directory.MEMBER_OF_OID);
        if (!MemberOfMaintainer.sameValues(stored, wanted)) {
            List<String> held = new ArrayList<>();
            if (stored != null) {
                for (byte[] value : stored.values()) {
                    held.add(new String(value, UTF_8));
                }
            }
            report.problem("entry " + entry.id() + " (" + entry.dn() + ") has memberOf " + held + " but its groups say "
                    + wanted);
        }
    }

    private void checkParent(ReadTxn txn, StoredEntry entry, Dn dn, VerifyReport report) {
        StoredEntry parent;
        try {
            parent = directory.load(txn, entry.parentId());
        } catch (RuntimeException e) {
            return; // reported when the parent itself is checked
        }
        if (parent == null) {
            report.problem("entry " + entry.id() + " (" + entry.dn() + ") names parent " + entry.parentId()
                    + ", which does not exist");
        } else if (!directory.schemaNormalizer().dn(parent.dn()).equals(dn.getParent())) {
            // The DN is the stored name under the parent's DN: a name of several RDNs shows here.
            report.problem("entry " + entry.id() + " (" + entry.dn() + ") stores a name that is not one RDN under"
                    + " its parent, entry " + parent.id() + " (" + parent.dn() + ")");
        }
    }

    /** The DN tree's records whose entry is missing or has another parent. */
    private static void findStrayDnRecords(ReadTxn txn, VerifyReport report) {
        txn.forEachDnRecord((key, id) -> {
            long parentId = ByteBuffer.wrap(key).getLong();
            ByteBuffer entry = txn.entry(id);
            if (entry == null) {
                report.problem(
                        "a DN tree record under parent " + parentId + " names entry " + id + ", which does not exist");
            } else if (EntryCodec.parentId(entry) != parentId) {
                report.problem("a DN tree record under parent " + parentId + " names entry " + id + ", whose parent is "
                        + EntryCodec.parentId(entry));
            }
        });
    }

    /** An index's records naming an entry that is gone or that has no such key. */
    private void findStrayIndexRecords(ReadTxn txn, IndexRef ref, VerifyReport report) {
        txn.forEachIndexRecord(ref.attributeOid(), ref.kind(), (key, id) -> {
            StoredEntry entry;
            try {
                entry = directory.load(txn, id);
            } catch (RuntimeException e) {
                return; // reported when the entry itself is checked
            }
            if (entry == null) {
                report.problem(describe(ref) + " names entry " + id + ", which does not exist");
                return;
            }
            boolean known = false;
            for (IndexKeys.Key expected : directory.indexes().keysOf(entry, ref)) {
                if (stored(expected.bytes()).equals(new IndexKeys.Key(key))) {
                    known = true;
                    break;
                }
            }
            if (!known) {
                report.problem(describe(ref) + " holds a key for entry " + id + " (" + entry.dn()
                        + ") that none of its values gives");
            }
        });
    }

    /** A key as the index stores it: cut to LMDB's key size, one zero byte for an empty one. */
    private static IndexKeys.Key stored(byte[] key) {
        if (key.length == 0) {
            return new IndexKeys.Key(new byte[] {0});
        }
        return new IndexKeys.Key(
                key.length > IndexKeys.MAX_KEY_BYTES ? Arrays.copyOf(key, IndexKeys.MAX_KEY_BYTES) : key);
    }

    private static String describe(IndexRef ref) {
        return "the " + ref.kind().name().toLowerCase(Locale.ROOT) + " index of " + ref.attributeOid();
    }
}
