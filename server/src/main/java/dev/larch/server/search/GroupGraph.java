package dev.larch.server.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Group membership walked in the store: upward, the groups that hold an entry (groupOfNames through
 * {@code member}, groupOfUniqueNames through {@code uniqueMember}), found through those attributes'
 * equality indexes; downward, the entries a group names, read from the group. Both follow nested
 * groups. The upward walk defines the stored {@code memberOf} values ({@code
 * dev.larch.server.group.MemberOfMaintainer} keeps them with it, verify checks them against it) and
 * answers the in-chain rule on a member attribute; the downward walk finds the entries a group
 * change affects.
 *
 * <p>Walks are breadth-first with a visited set (a cycle of groups ends), at most {@link #MAX_DEPTH}
 * levels of nesting. An in-chain filter is walked under its search's budget and as its client may see
 * the groups ({@link #bind}); past {@link #MAX_ENTRIES} groups it is refused with adminLimitExceeded; a {@code memberOf} value list stops at it; the downward walk of a change is
 * refused past its caller's bound. A member attribute without an equality index is not followed
 * upward (add {@code index.uniqueMember = equality} for groupOfUniqueNames).
 *
 * <p>Thread-safe; each call works inside the caller's transaction.
 */
public final class GroupGraph {
    /** LDAP_MATCHING_RULE_IN_CHAIN (Active Directory). */
    public static final String IN_CHAIN_RULE = "1.2.840.113556.1.4.1941";
    /** memberOf, as Active Directory and OpenLDAP's memberof overlay number it. */
    public static final String MEMBER_OF_OID = Directory.MEMBER_OF_OID;
    /** member (groupOfNames) and uniqueMember (groupOfUniqueNames). */
    public static final Set<String> MEMBER_ATTRIBUTE_OIDS = Set.of("2.5.4.31", "2.5.4.50");
    /** Levels of nested groups followed. */
    public static final int MAX_DEPTH = 16;
    /** Entries one walk collects at most. */
    public static final int MAX_ENTRIES = 10_000;

    private static final List<String> MEMBER_ATTRIBUTES = List.of("member", "uniqueMember");

    private final Directory directory;
    private final FilterCompiler filters;
    private final SearchPlanner planner;

    public GroupGraph(Directory directory, FilterCompiler filters, SearchPlanner planner) {
        this.directory = directory;
        this.filters = filters;
        this.planner = planner;
    }

    /**
     * {@code filter} with each {@link Filter.InChain} read in {@code txn} into the set it stands for,
     * as the client behind {@code screen} may see the groups: a group it may not read is neither
     * found nor followed, exactly as if it did not exist. Every group the walks load is one entry
     * examined in {@code budget} (and every index read is one), so the walks stop at the search's
     * time limit, look-through limit or abandon. The walks of one call share what they read: each
     * group DN is looked up once, and in-chain terms naming the same DN share one walk.
     *
     * @return the same instance when it has no in-chain term
     * @throws ResultCodeException adminLimitExceeded when a walk passes {@link #MAX_ENTRIES} or the
     *     look-through limit, timeLimitExceeded or canceled as {@code budget} says
     */
    public Filter bind(ReadTxn txn, Filter filter, SearchBudget budget, EntryScreen screen) {
        return hasInChain(filter) ? bound(txn, filter, new Walk(budget, screen)) : filter;
    }

    /** Whether {@code filter} has an in-chain term on a member attribute, which needs walks of the store. */
    public static boolean hasInChain(Filter filter) {
        return switch (filter) {
            case Filter.InChain chain -> true;
            case Filter.And and -> and.children().stream().anyMatch(GroupGraph::hasInChain);
            case Filter.Or or -> or.children().stream().anyMatch(GroupGraph::hasInChain);
            case Filter.Not not -> hasInChain(not.child());
            default -> false;
        };
    }

    /** What the walks of one operation share: its budget, its client's view and what they read. */
    private static final class Walk {
        final SearchBudget budget;
        final EntryScreen screen;
        final Loaded loaded = new Loaded();
        /** By asserted DN: the groups holding it, one walk per DN whatever the number of terms naming it. */
        final Map<String, IdSet> byDn = new HashMap<>();
        /** By normalized DN: the groups naming it directly that the client may see, one index read per DN. */
        final Map<String, List<StoredEntry>> direct = new HashMap<>();

        Walk(SearchBudget budget, EntryScreen screen) {
            this.budget = budget;
            this.screen = screen;
        }
    }

    private Filter bound(ReadTxn txn, Filter filter, Walk walk) {
        return switch (filter) {
            case Filter.InChain chain ->
                new Filter.InSet(
                        chain.description(),
                        walk.byDn.computeIfAbsent(chain.normalizedDn(), dn -> holdingIds(txn, dn, walk)));
            case Filter.And and ->
                new Filter.And(
                        and.children().stream().map(f -> bound(txn, f, walk)).toList());
            case Filter.Or or ->
                new Filter.Or(
                        or.children().stream().map(f -> bound(txn, f, walk)).toList());
            case Filter.Not not -> new Filter.Not(bound(txn, not.child(), walk));
            default -> filter;
        };
    }

    /** Upward from {@code normalizedDn}, for a search: visible groups only, under the walk's budget. */
    private IdSet holdingIds(ReadTxn txn, String normalizedDn, Walk walk) {
        IdSet.Builder ids = new IdSet.Builder();
        Set<Long> seen = new HashSet<>();
        List<String> frontier = List.of(normalizedDn);
        for (int depth = 0; depth < MAX_DEPTH && !frontier.isEmpty(); depth++) {
            List<String> next = new ArrayList<>();
            for (String dn : frontier) {
                List<StoredEntry> holders = walk.direct.get(dn);
                if (holders == null) {
                    holders = directHolders(txn, dn, walk);
                    walk.direct.put(dn, holders);
                }
                for (StoredEntry group : holders) {
                    if (!seen.add(group.id())) {
                        continue;
                    }
                    ids.add(group.id());
                    if (seen.size() > MAX_ENTRIES) {
                        throw tooMany();
                    }
                    next.add(normalizedDn(group, walk.loaded));
                }
            }
            frontier = next;
        }
        return ids.build();
    }

    /** The groups whose member attributes name {@code dn} and that the walk's client may read. */
    private List<StoredEntry> directHolders(ReadTxn txn, String dn, Walk walk) {
        List<StoredEntry> out = new ArrayList<>();
        byte[] key = dn.getBytes(UTF_8);
        for (String attribute : MEMBER_ATTRIBUTES) {
            Filter holds = filters.normalizedEquality(attribute, key);
            IdSet candidates =
                    holds == null ? null : planner.plan(txn, holds, walk.budget).ids();
            if (candidates == null) {
                continue; // not indexed: not followed upward (see the class comment)
            }
            for (int i = 0; i < candidates.size(); i++) {
                walk.budget.examine();
                StoredEntry group = load(txn, candidates.get(i), walk.loaded);
                if (group == null
                        || (!exact(holds) && holds.evaluate(group) != Tri.TRUE)
                        || !walk.screen.mayReadEntry(group)) {
                    continue; // a group the client may not read is not there for it
                }
                out.add(group);
            }
        }
        return out;
    }

    /** The groups that hold {@code entry}, directly or through nested groups: its memberOf values. */
    public List<StoredEntry> groupsOf(ReadTxn txn, StoredEntry entry) {
        return holders(txn, directory.schemaNormalizer().dn(entry.dn()).getNormName(), false, new Loaded());
    }

    /**
     * {@link #groupsOf(ReadTxn, StoredEntry)} with the groups loaded through {@code loaded}, which
     * the caller keeps across the entries of one transaction so that a group of N members is read
     * and decoded once, not once per member. The entry itself is left out (a group in a cycle is
     * not its own member, as {@code (memberOf=G)} never matches G).
     */
    public List<StoredEntry> groupsOf(ReadTxn txn, StoredEntry entry, Loaded loaded) {
        List<StoredEntry> groups =
                holders(txn, directory.schemaNormalizer().dn(entry.dn()).getNormName(), false, loaded);
        groups.removeIf(group -> group.id() == entry.id());
        return groups;
    }

    /**
     * Groups read during one transaction, by ID, with their normalized DNs. Valid only while the
     * groups do not change: build a new one after writing a group. Not thread-safe.
     */
    public static final class Loaded {
        private final Map<Long, StoredEntry> entries = new HashMap<>();
        private final Map<Long, String> normalizedDns = new HashMap<>();
    }

    private StoredEntry load(ReadTxn txn, long id, Loaded loaded) {
        StoredEntry group = loaded.entries.get(id);
        if (group == null && !loaded.entries.containsKey(id)) {
            group = directory.load(txn, id);
            loaded.entries.put(id, group);
        }
        return group;
    }

    private String normalizedDn(StoredEntry group, Loaded loaded) {
        return loaded.normalizedDns.computeIfAbsent(
                group.id(), id -> directory.schemaNormalizer().dn(group.dn()).getNormName());
    }

    /**
     * The groups whose member attributes name {@code normalizedDn}, nested groups followed, each
     * loaded once: the walk needs each group's DN to go a level up, and the caller its entry.
     */
    private List<StoredEntry> holders(ReadTxn txn, String normalizedDn, boolean refuseOverBound, Loaded loaded) {
        List<StoredEntry> found = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        List<String> frontier = List.of(normalizedDn);
        for (int depth = 0; depth < MAX_DEPTH && !frontier.isEmpty(); depth++) {
            List<String> next = new ArrayList<>();
            for (String dn : frontier) {
                // The DN is normalized already, and so is what the member indexes hold: no second parse.
                byte[] key = dn.getBytes(UTF_8);
                for (String attribute : MEMBER_ATTRIBUTES) {
                    Filter holds = filters.normalizedEquality(attribute, key);
                    IdSet candidates =
                            holds == null ? null : planner.plan(txn, holds).ids();
                    if (candidates == null) {
                        continue; // not indexed: not followed upward (see the class comment)
                    }
                    for (int i = 0; i < candidates.size(); i++) {
                        long id = candidates.get(i);
                        if (seen.contains(id)) {
                            continue;
                        }
                        StoredEntry group = load(txn, id, loaded);
                        // Checking the filter normalizes every member value (a group of 100 members
                        // costs milliseconds): only a key cut short can name an entry that does not match.
                        if (group == null || (!exact(holds) && holds.evaluate(group) != Tri.TRUE)) {
                            continue;
                        }
                        seen.add(id);
                        found.add(group);
                        if (seen.size() > MAX_ENTRIES) {
                            if (refuseOverBound) {
                                throw tooMany();
                            }
                            return found;
                        }
                        next.add(normalizedDn(group, loaded));
                    }
                }
            }
            frontier = next;
        }
        return found;
    }

    private static boolean exact(Filter filter) {
        return filter instanceof Filter.Equality equality && equality.indexIsExact();
    }

    /**
     * Downward from entry {@code rootId}: adds to {@code seen} every entry it names in its member
     * attributes, nested groups followed ({@link #MAX_DEPTH} levels, each entry once). Unlike the
     * search walks, nothing is cut short: the entries whose stored memberOf a change affects must
     * all be found, or refused.
     *
     * @param seen entries already found by earlier walks of the same change; they are not walked again
     * @param bound at most this many entries in {@code seen}
     * @throws ResultCodeException adminLimitExceeded past {@code bound}
     */
    public void membersBelow(ReadTxn txn, long rootId, Set<Long> seen, int bound) {
        if (!seen.add(rootId)) {
            return;
        }
        walkDown(txn, rootId, seen, bound);
        if (seen.size() > bound) {
            throw tooMany(bound);
        }
    }

    /** Breadth-first below {@code root}, at most {@code bound} entries in {@code seen}. */
    private void walkDown(ReadTxn txn, long root, Set<Long> seen, int bound) {
        seen.add(root);
        List<Long> frontier = List.of(root);
        for (int depth = 0; depth < MAX_DEPTH && !frontier.isEmpty(); depth++) {
            List<Long> next = new ArrayList<>();
            for (long groupId : frontier) {
                StoredEntry group = directory.load(txn, groupId);
                for (Dn member : memberDns(group)) {
                    long id = directory.resolve(txn, member);
                    if (id == ReadTxn.NOT_FOUND || !seen.add(id)) {
                        continue;
                    }
                    if (seen.size() > bound) {
                        throw tooMany(bound);
                    }
                    next.add(id);
                }
            }
            frontier = next;
        }
    }

    /** The DNs a group's member and uniqueMember values name; values that are not DNs are skipped. */
    public List<Dn> memberDns(StoredEntry group) {
        List<Dn> out = new ArrayList<>();
        if (group == null) {
            return out;
        }
        for (String oid : MEMBER_ATTRIBUTE_OIDS) {
            StoredAttribute values = group.attribute(oid);
            if (values == null) {
                continue;
            }
            for (byte[] value : values.values()) {
                String text = new String(value, UTF_8);
                int uid = text.lastIndexOf('#'); // nameAndOptionalUID: the DN before an optional #'...'B
                if (uid > 0 && text.endsWith("'B")) {
                    text = text.substring(0, uid);
                }
                try {
                    out.add(directory.schemaNormalizer().dn(text));
                } catch (RuntimeException e) {
                    // not a DN: names nobody
                }
            }
        }
        return out;
    }

    private static ResultCodeException tooMany() {
        return tooMany(MAX_ENTRIES);
    }

    private static ResultCodeException tooMany(int bound) {
        return new ResultCodeException(
                ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                "the group membership walk passed " + bound + " entries; use a smaller group");
    }
}
