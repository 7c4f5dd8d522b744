package dev.larch.server.access;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.Tri;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.ReadTxn;

/**
 * Works out {@link EntryRights} for one operation's requester, entry by entry, against one snapshot.
 *
 * <p>Cheap per entry: the holders above an entry are found by walking parent IDs once per parent
 * (remembered), and when no rule in reach looks at the entry itself ({@code target},
 * {@code targetfilter}, {@code userattr} for a bound requester) entries under the same parent share
 * one {@link EntryRights}; a {@code self} rule only keeps the requester's own entry out of the
 * sharing (see {@link EntryDependence}). Both memories hold at most {@value #MAX_REMEMBERED}
 * parents (the shared rights one more: the first parent's) and start over when full, so a search
 * over millions of entries stays in bounded memory.
 *
 * <p>Not thread-safe: one operation uses it at a time, within the transaction it was made with.
 */
final class Decider {
    static final int MAX_REMEMBERED = 4096;

    /** ACIs held {@code depth} levels above the entry in question. */
    private record HolderHit(List<Aci> acis, int depth) {}

    /** The holders above a parent's children; whether any of their ACIs looks at the entry. */
    private record Chain(List<HolderHit> hits, EntryDependence dependence) {}

    private static final Chain NONE = new Chain(List.of(), EntryDependence.NONE);

    private final AciSnapshot snapshot;
    private final Requester who;
    private final AciSchema schema;
    private final Directory directory;
    private final ReadTxn txn;
    /** Made on first use: a search whose snapshot has no holders never walks a chain. */
    private Map<Long, Chain> chains;
    /**
     * The rights shared under the first parent met, then under the others: a search that returns
     * one entry makes no map (a map, its table, a node and a boxed key cost 180 bytes a search).
     */
    private long firstParent = DnTree.NO_PARENT;

    private EntryRights firstShared;
    private Map<Long, EntryRights> shared;
    private long lastId = Long.MIN_VALUE;
    private EntryRights last;

    Decider(AciSnapshot snapshot, Requester who, AciSchema schema, Directory directory, ReadTxn txn) {
        this.snapshot = snapshot;
        this.who = who;
        this.schema = schema;
        this.directory = directory;
        this.txn = txn;
    }

    Requester requester() {
        return who;
    }

    /** The transaction the decisions are made in. */
    ReadTxn txn() {
        return txn;
    }

    /** The rights on a stored entry. */
    EntryRights decide(StoredEntry entry) {
        return decide(entry.id(), entry.parentId(), entry);
    }

    /**
     * The rights on the entry {@code id} under {@code parentId} without reading it, or null when a
     * rule in reach looks at the entry's content ({@code target}, {@code targetfilter},
     * {@code userattr}): then read it and ask {@link #decide(StoredEntry)}.
     */
    EntryRights decideUnread(long id, long parentId) {
        return decide(id, parentId, null);
    }

    private EntryRights decide(long id, long parentId, StoredEntry entry) {
        if (id == lastId && last != null) {
            return last;
        }
        List<Aci> own = snapshot.heldBy(id);
        Chain chain = chainAbove(parentId);
        EntryDependence dependence = chain.dependence().or(snapshot.globalDependence(who.isAnonymous()));
        boolean shareable = own.isEmpty() && shareable(id, dependence);
        EntryRights rights = shareable ? sharedUnder(parentId) : null;
        if (rights == null) {
            if (entry == null && widest(own, dependence) == EntryDependence.ANY) {
                return null;
            }
            EntryView view = entry == null ? EntryView.unread(id) : new EntryView(entry, schema);
            List<EntryRights.Applied> applied = new ArrayList<>();
            collectGlobal(view, applied);
            for (Aci aci : own) {
                if (applies(aci, view, 0)) {
                    EntryRights.collect(aci, who, view, applied);
                }
            }
            for (HolderHit hit : chain.hits()) {
                for (Aci aci : hit.acis()) {
                    if (applies(aci, view, hit.depth())) {
                        EntryRights.collect(aci, who, view, applied);
                    }
                }
            }
            rights = new EntryRights(applied, schema);
            if (shareable) {
                share(parentId, rights);
            }
        }
        lastId = id;
        last = rights;
        return rights;
    }

    /** {@code from} widened by the ACIs the entry holds itself. */
    private EntryDependence widest(List<Aci> own, EntryDependence from) {
        EntryDependence widest = from;
        for (Aci aci : own) {
            widest = widest.or(aci.dependence(who.isAnonymous()));
        }
        return widest;
    }

    /**
     * Whether the entry may take (or give) the rights shared under its parent: when no rule in reach
     * looks at it, or the only one that does is {@code self} and it is not the requester's own entry.
     */
    private boolean shareable(long id, EntryDependence dependence) {
        return switch (dependence) {
            case NONE -> true;
            case OWN_ENTRY -> !who.isEntry(id);
            case ANY -> false;
        };
    }

    private EntryRights sharedUnder(long parentId) {
        if (parentId == firstParent) {
            return firstShared;
        }
        return shared == null ? null : shared.get(parentId);
    }

    private void share(long parentId, EntryRights rights) {
        if (firstShared == null) {
            firstParent = parentId;
            firstShared = rights;
            return;
        }
        if (shared == null) {
            shared = new HashMap<>();
        } else if (shared.size() >= MAX_REMEMBERED) {
            shared.clear();
        }
        shared.put(parentId, rights);
    }

    /** The rights on an entry with no place in the tree (the root DSE, the subschema subentry): global rules only. */
    EntryRights decideVirtual(StoredEntry entry) {
        EntryView view = new EntryView(entry, schema);
        List<EntryRights.Applied> applied = new ArrayList<>();
        collectGlobal(view, applied);
        lastId = Long.MIN_VALUE;
        return new EntryRights(applied, schema);
    }

    private void collectGlobal(EntryView view, List<EntryRights.Applied> applied) {
        for (Aci aci : snapshot.global()) {
            if (appliesGlobally(aci, view)) {
                EntryRights.collect(aci, who, view, applied);
            }
        }
    }

    /** A global ACI: its target alone says where it reaches; without one it reaches everything. */
    private static boolean appliesGlobally(Aci aci, EntryView view) {
        Aci.Target t = aci.target();
        if (t.dn() != null) {
            if (t.dn().isWildcard()) {
                if (!t.dn().matches(view.canonicalDn())) {
                    return false;
                }
            } else {
                int depth = t.dn().depthOf(view.canonicalDn(), view.rdns());
                if (depth < 0 || !t.scope().reaches(depth)) {
                    return false;
                }
            }
        }
        return t.filter() == null || t.filter().evaluate(view.entry()) == Tri.TRUE;
    }

    /** An ACI held {@code depth} levels above the entry (0: on the entry itself). */
    private static boolean applies(Aci aci, EntryView view, int depth) {
        Aci.Target t = aci.target();
        if (t.dn() == null || t.dn().isWildcard()) {
            if (!t.scope().reaches(depth)) {
                return false;
            }
            if (t.dn() != null && !t.dn().matches(view.canonicalDn())) {
                return false;
            }
        } else {
            int below = t.dn().depthOf(view.canonicalDn(), view.rdns());
            if (below < 0 || !t.scope().reaches(below)) {
                return false;
            }
        }
        return t.filter() == null || t.filter().evaluate(view.entry()) == Tri.TRUE;
    }

    private Chain chainAbove(long parentId) {
        if (!snapshot.hasHolders() || parentId == DnTree.NO_PARENT) {
            return NONE;
        }
        if (chains == null) {
            chains = new HashMap<>();
        }
        Chain chain = chains.get(parentId);
        if (chain == null) {
            List<HolderHit> hits = new ArrayList<>();
            EntryDependence dependence = EntryDependence.NONE;
            long id = parentId;
            for (int depth = 1; id != DnTree.NO_PARENT && depth < 10_000; depth++) {
                List<Aci> held = snapshot.heldBy(id);
                if (!held.isEmpty()) {
                    hits.add(new HolderHit(held, depth));
                    for (Aci aci : held) {
                        dependence = dependence.or(aci.dependence(who.isAnonymous()));
                    }
                }
                id = directory.parentOf(txn, id);
            }
            chain = hits.isEmpty() ? NONE : new Chain(List.copyOf(hits), dependence);
            if (chains.size() >= MAX_REMEMBERED) {
                chains.clear();
            }
            chains.put(parentId, chain);
        }
        return chain;
    }
}
