package dev.larch.server.group;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.larch.config.IndexKind;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.MemberOfUpkeep;
import dev.larch.server.directory.SubtreeNames;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.store.IndexCatalog;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.name.Dn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Keeps {@code memberOf} stored: every entry holds, as its {@code memberOf} values, the DNs (as the
 * groups spell them) of every group that holds it, directly or through nested groups — the
 * transitive set, which is what a client reading memberOf and {@code (memberOf=G)} want, so reads
 * need no walk. The set is exactly what {@link GroupGraph#groupsOf(ReadTxn, StoredEntry,
 * GroupGraph.Loaded)} finds in the committed state: groups found through the {@code member} and
 * {@code uniqueMember} equality indexes, at most {@link GroupGraph#MAX_DEPTH} levels up, an entry
 * never its own group even in a cycle.
 *
 * <p>During a write transaction each change the {@link Directory} tells of marks what it affects:
 * an entry added or renamed (its own values depend on its DN), and, for a group added, deleted or
 * renamed, every entry it names, for a group modified, the entries that joined or left it; below
 * each of those, their own members through nested groups. Just before the commit ({@link
 * WriteTxn#beforeCommit}) the affected entries' sets are recomputed once and the entries whose
 * values differ rewritten, in the same transaction: an aborted write changes no memberOf.
 *
 * <p>Cost and bounds: a group of N members added or deleted rewrites N entries; one member added
 * rewrites that member and its own nested members. A change affecting more than {@link
 * #MAX_AFFECTED} entries is refused with adminLimitExceeded, so a small request (one nested group
 * added to another) cannot make the writer rewrite the whole tree; an import recomputes every
 * value without that bound.
 *
 * <p>Used on the writer thread only (one transaction at a time).
 */
public final class MemberOfMaintainer implements MemberOfUpkeep {
    /** Entries one change may affect at most. */
    public static final int MAX_AFFECTED = 100_000;

    private final Directory directory;
    private final GroupGraph groups;
    private final int bound;

    public MemberOfMaintainer(Directory directory, GroupGraph groups) {
        this(directory, groups, MAX_AFFECTED);
    }

    /** @param bound entries one change may affect at most (tests use a small one) */
    public MemberOfMaintainer(Directory directory, GroupGraph groups, int bound) {
        this.directory = directory;
        this.groups = groups;
        this.bound = bound;
    }

    @Override
    public void written(WriteTxn txn, StoredEntry before, StoredEntry after) {
        if (txn.isBulkLoad()) {
            // The member indexes are not filled yet; recomputeNamed runs once they are.
            return;
        }
        boolean renamed = before == null || after == null || !before.dn().equals(after.dn());
        Pending pending = null;
        if (after != null && renamed) {
            pending = txn.beforeCommit(this, () -> new Pending(txn));
            pending.entries.add(after.id());
        }
        Map<String, Dn> was = members(before);
        Map<String, Dn> is = members(after);
        if (was.isEmpty() && is.isEmpty()) {
            return;
        }
        Map<String, Dn> roots = new LinkedHashMap<>();
        if (renamed) {
            roots.putAll(was);
            roots.putAll(is);
        } else {
            was.forEach((key, dn) -> {
                if (!is.containsKey(key)) {
                    roots.put(key, dn);
                }
            });
            is.forEach((key, dn) -> {
                if (!was.containsKey(key)) {
                    roots.put(key, dn);
                }
            });
        }
        if (!roots.isEmpty()) {
            if (pending == null) {
                pending = txn.beforeCommit(this, () -> new Pending(txn));
            }
            pending.roots.putAll(roots);
        }
    }

    /**
     * Finds what the descendants of a renamed entry change without reading them: an entry's own values
     * change only when a group names it (by its old or its new DN), found through the member indexes;
     * the values naming a group below the root, found through the memberOf index, change with the
     * group's DN. Both kinds of entries are recomputed before the commit. Without a memberOf equality
     * index the descendants are told of one by one instead.
     */
    @Override
    public boolean subtreeRenamed(WriteTxn txn, long rootId, Dn oldRoot, Dn newRoot) {
        if (txn.isBulkLoad()) {
            return true;
        }
        IndexCatalog indexes = directory.store().indexes();
        if (!indexes.isIndexed(Directory.MEMBER_OF_OID, IndexKind.EQUALITY)) {
            return false;
        }
        List<String> memberOids = new ArrayList<>();
        for (String oid : GroupGraph.MEMBER_ATTRIBUTE_OIDS) {
            if (indexes.isIndexed(oid, IndexKind.EQUALITY)) {
                memberOids.add(oid);
            }
        }
        SubtreeNames below = new SubtreeNames(txn, directory, List.of(oldRoot.getNormName(), newRoot.getNormName()));
        Set<Long> affected = new LinkedHashSet<>();
        for (String oid : memberOids) {
            Set<String> named = new LinkedHashSet<>();
            for (SubtreeNames.Named record : below.below(oid)) {
                named.add(record.relativeName());
            }
            for (String name : named) {
                long id = resolveQuietly(txn, name + "," + newRoot.getNormName());
                if (id != ReadTxn.NOT_FOUND) {
                    affected.add(id);
                }
            }
        }
        for (SubtreeNames.Named record : below.below(Directory.MEMBER_OF_OID)) {
            affected.add(record.id());
        }
        if (!affected.isEmpty()) {
            txn.beforeCommit(this, () -> new Pending(txn)).entries.addAll(affected);
        }
        return true;
    }

    /** The ID of the entry with this normalized DN; NOT_FOUND as well when it does not parse. */
    private long resolveQuietly(ReadTxn txn, String normalizedDn) {
        try {
            return directory.resolve(txn, directory.schemaNormalizer().dn(normalizedDn));
        } catch (RuntimeException notADn) {
            return ReadTxn.NOT_FOUND;
        }
    }

    /** The entries a group names, by normalized DN; none for an entry that is not a group (or null). */
    private Map<String, Dn> members(StoredEntry entry) {
        Map<String, Dn> out = new LinkedHashMap<>();
        if (entry == null) {
            return out;
        }
        for (Dn dn : groups.memberDns(entry)) {
            out.put(dn.getNormName(), dn);
        }
        return out;
    }

    /** What one transaction's changes affect, recomputed just before it commits. */
    private final class Pending implements Runnable {
        private final WriteTxn txn;
        /** Entries whose own values are to be recomputed (added, renamed). */
        private final Set<Long> entries = new LinkedHashSet<>();
        /** Entries that joined or left a group, by normalized DN: they and their members are affected. */
        private final Map<String, Dn> roots = new LinkedHashMap<>();

        Pending(WriteTxn txn) {
            this.txn = txn;
        }

        @Override
        public void run() {
            Set<Long> affected = new LinkedHashSet<>();
            for (Dn root : roots.values()) {
                long id = directory.resolve(txn, root);
                if (id != ReadTxn.NOT_FOUND) {
                    groups.membersBelow(txn, id, affected, bound);
                }
            }
            affected.addAll(entries);
            recompute(txn, affected, new GroupGraph.Loaded());
        }
    }

    /**
     * Brings the memberOf values of {@code ids} up to date in {@code txn}, rewriting only the entries
     * whose values differ; IDs of entries that are gone are skipped.
     *
     * @param loaded groups read so far in this state of the store; reused across calls of one pass
     * @return how many entries were rewritten
     */
    public int recompute(WriteTxn txn, Iterable<Long> ids, GroupGraph.Loaded loaded) {
        int rewritten = 0;
        for (long id : ids) {
            StoredEntry entry = directory.load(txn, id);
            if (entry == null) {
                continue;
            }
            List<String> wanted = wanted(txn, entry, loaded);
            if (!sameValues(entry.attribute(Directory.MEMBER_OF_OID), wanted)) {
                directory.writeMemberOf(txn, entry, wanted);
                rewritten++;
            }
        }
        return rewritten;
    }

    /** The memberOf values {@code entry} should hold in the state {@code txn} sees. */
    public List<String> wanted(ReadTxn txn, StoredEntry entry, GroupGraph.Loaded loaded) {
        List<String> out = new ArrayList<>();
        for (StoredEntry group : groups.groupsOf(txn, entry, loaded)) {
            out.add(group.dn());
        }
        return out;
    }

    /** Whether the stored values are the wanted ones, in any order. */
    public static boolean sameValues(StoredAttribute stored, List<String> wanted) {
        if (stored == null) {
            return wanted.isEmpty();
        }
        if (stored.size() != wanted.size()) {
            return false;
        }
        Set<String> have = new HashSet<>();
        for (byte[] value : stored.values()) {
            have.add(new String(value, UTF_8));
        }
        return have.equals(new HashSet<>(wanted));
    }

    @Override
    public long recomputeNamed(LmdbStore store, int batchEntries) {
        List<Long> named;
        try (ReadTxn txn = store.read()) {
            named = namedByGroups(txn);
        }
        // Groups keep their members and names during the pass: each is loaded once for all batches.
        GroupGraph.Loaded loaded = new GroupGraph.Loaded();
        long rewritten = 0;
        int batch = Math.max(1, batchEntries);
        for (int from = 0; from < named.size(); from += batch) {
            try (WriteTxn txn = store.write()) {
                rewritten += recompute(txn, named.subList(from, Math.min(named.size(), from + batch)), loaded);
                txn.commit();
            }
        }
        return rewritten;
    }

    /**
     * The entries some group names through an indexed member attribute: the only ones that can have
     * memberOf values. Read from the member indexes (each group loaded once), for the pass after an
     * import; entries named by a group that are not in the tree are left out. In ascending ID order,
     * which is the entry tree's key order: the pass then rewrites neighbouring pages one after the
     * other instead of hopping across the whole tree once per group.
     */
    public List<Long> namedByGroups(ReadTxn txn) {
        Set<Long> groupIds = new LinkedHashSet<>();
        for (IndexRef index : directory.store().indexes().refs()) {
            if (index.kind() == IndexKind.EQUALITY && GroupGraph.MEMBER_ATTRIBUTE_OIDS.contains(index.attributeOid())) {
                txn.forEachIndexRecord(index.attributeOid(), IndexKind.EQUALITY, (key, id) -> groupIds.add(id));
            }
        }
        Set<Long> named = new TreeSet<>();
        for (long groupId : groupIds) {
            for (Dn member : groups.memberDns(directory.load(txn, groupId))) {
                long id = directory.resolve(txn, member);
                if (id != ReadTxn.NOT_FOUND) {
                    named.add(id);
                }
            }
        }
        return new ArrayList<>(named);
    }
}
