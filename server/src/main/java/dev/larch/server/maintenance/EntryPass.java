package dev.larch.server.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.config.IndexKind;
import dev.larch.server.bulk.SortedIndexRecords;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.group.MemberOfMaintainer;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.IndexKeys;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * One thread's share of the verifier's walk over the entries: the {@code share}-th of {@code shares}
 * runs of consecutive IDs, of equal length. Consecutive, so that a key's IDs from one share all come
 * before the next share's and the merge of the shares' sorted runs mostly reads one run at a time
 * (shares by ID parity made it switch runs at every record: a third of the index pass in the heap,
 * JFR). Each is checked on its own (it decodes, sits under its parent as one RDN,
 * the DN tree leads to it, its stamps and {@code memberOf} are right), and the index records it
 * should have are handed to this share's {@link SortedIndexRecords}, to be compared with the
 * indexes afterwards ({@link IndexComparison}) rather than looked up one by one here.
 *
 * <p>Not thread-safe: one thread runs it, in its own transaction; what it found is read once it is done.
 */
final class EntryPass implements Runnable {
    /** Entries between two updates of the shared count of entries done. */
    private static final int PUBLISH_EVERY = 1024;

    private final Directory directory;
    private final MemberOfMaintainer memberOf;
    private final ReadTxn txn;
    private final int share;
    private final int shares;
    private final List<IndexRef> indexes;
    private final SortedIndexRecords expected;
    private final AtomicLong done;
    private final VerifyReport report = new VerifyReport();
    private final StampCheck stamps = new StampCheck();
    private final GroupGraph.Loaded groups = new GroupGraph.Loaded();
    /** Per attribute OID, the slots of its indexes in {@link #indexes}. */
    private final Map<String, int[]> slotsByAttribute = new HashMap<>();
    /** Per slot, the syntax of its attribute, which decides its ordering keys. */
    private final String[] syntaxes;
    /** The last parent checked and its normalized DN: siblings follow each other in ID order. */
    private long lastParentId = ReadTxn.NOT_FOUND;

    private Dn lastParentDn;

    /**
     * @param indexes the store's indexes; a record of {@code indexes.get(i)} goes to slot i of {@code expected}
     * @param done the entries done by every share, for progress
     */
    EntryPass(
            Directory directory,
            MemberOfMaintainer memberOf,
            ReadTxn txn,
            int share,
            int shares,
            List<IndexRef> indexes,
            SortedIndexRecords expected,
            AtomicLong done) {
        this.directory = directory;
        this.memberOf = memberOf;
        this.txn = txn;
        this.share = share;
        this.shares = shares;
        this.indexes = indexes;
        this.expected = expected;
        this.done = done;
        this.syntaxes = new String[indexes.size()];
        for (int i = 0; i < indexes.size(); i++) {
            int slot = i;
            AttributeType type = directory
                    .schemaNormalizer()
                    .schema()
                    .getAttributeType(indexes.get(i).attributeOid());
            syntaxes[i] = type == null ? null : type.getSyntaxOid();
            slotsByAttribute.merge(indexes.get(i).attributeOid(), new int[] {slot}, (a, b) -> {
                int[] both = Arrays.copyOf(a, a.length + 1);
                both[a.length] = b[0];
                return both;
            });
        }
    }

    @Override
    public void run() {
        long total = txn.entryCount();
        long first = total * share / shares;
        long end = share == shares - 1 ? Long.MAX_VALUE : total * (share + 1) / shares; // the last takes the rest
        long position = 0;
        long pending = 0;
        try (IdCursor ids = txn.allEntries()) {
            for (long id = ids.next(); id != ReadTxn.NOT_FOUND && position < end; id = ids.next(), position++) {
                if (position < first) {
                    continue; // an earlier share's: a cursor step, nothing read
                }
                checkEntry(id);
                report.entryChecked();
                if (++pending == PUBLISH_EVERY) {
                    done.addAndGet(pending);
                    pending = 0;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a sorted run of index records: " + e.getMessage(), e);
        }
        done.addAndGet(pending);
    }

    VerifyReport report() {
        return report;
    }

    StampCheck stamps() {
        return stamps;
    }

    private void checkEntry(long id) throws IOException {
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
            checkParent(entry, dn);
        }
        stamps.entry(entry, report);
        for (StoredAttribute a : entry.attributes()) {
            if (a.size() == 0) {
                report.problem("entry " + id + " (" + entry.dn() + ") stores " + a.userId() + " with no value");
            }
        }
        if (directory.resolve(txn, dn) != id) {
            report.problem("the DN tree does not lead to entry " + id + " (" + entry.dn() + ")");
        }
        try {
            checkMemberOf(entry);
        } catch (RuntimeException e) {
            // A group that does not decode (reported when it is checked) leaves this one unknown.
            report.problem(
                    "the memberOf of entry " + id + " (" + entry.dn() + ") cannot be checked: " + e.getMessage());
        }
        expectKeys(entry);
    }

    /**
     * Hands the entry's index records to the sort: the keys {@link IndexKeys#keys} gives each
     * normalized value for each index of its attribute, as {@link
     * dev.larch.server.index.IndexMaintainer} writes them. A key several values give comes more
     * than once; the sort keeps one of each record. Each attribute is normalized once for all its
     * indexes, and no set of keys is built per entry (both showed in the profile: the set and the
     * syntax lookup about 11% of the old per-entry time, JFR).
     */
    private void expectKeys(StoredEntry entry) throws IOException {
        for (StoredAttribute attribute : entry.attributes()) {
            int[] slots = slotsByAttribute.get(attribute.oid());
            if (slots == null) {
                continue;
            }
            byte[][] normalized = attribute.normalized();
            for (int slot : slots) {
                IndexKind kind = indexes.get(slot).kind();
                for (byte[] value : normalized) {
                    for (byte[] key : IndexKeys.keys(kind, value, syntaxes[slot])) {
                        expected.add(slot, IndexKeys.storedForm(key), entry.id());
                    }
                }
            }
        }
    }

    private void checkMemberOf(StoredEntry entry) {
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

    private void checkParent(StoredEntry entry, Dn dn) {
        if (entry.parentId() == lastParentId && lastParentDn.equals(dn.getParent())) {
            return;
        }
        StoredEntry parent;
        try {
            parent = directory.load(txn, entry.parentId());
        } catch (RuntimeException e) {
            return; // reported when the parent itself is checked
        }
        if (parent == null) {
            report.problem("entry " + entry.id() + " (" + entry.dn() + ") names parent " + entry.parentId()
                    + ", which does not exist");
            return;
        }
        Dn parentDn = directory.schemaNormalizer().dn(parent.dn());
        if (parentDn.equals(dn.getParent())) {
            lastParentId = parent.id();
            lastParentDn = parentDn;
        } else {
            // The DN is the stored name under the parent's DN: a name of several RDNs shows here.
            report.problem("entry " + entry.id() + " (" + entry.dn() + ") stores a name that is not one RDN under"
                    + " its parent, entry " + parent.id() + " (" + parent.dn() + ")");
        }
    }
}
