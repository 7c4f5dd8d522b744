package dev.larch.server.read.psearch;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.larch.server.access.AccessControl;
import dev.larch.server.directory.DirectoryChange;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.StoredDn;
import dev.larch.server.search.AttributeSelection;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.search.SearchBudget;
import dev.larch.server.search.Tri;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.message.controls.EntryChange;
import org.apache.directory.api.ldap.model.message.controls.EntryChangeImpl;

/**
 * What one persistent search asks to be told and may see: the change types it wants, its base (by
 * entry ID, so it follows a renamed base), scope and filter, and the entry it is sent, screened by
 * access control exactly as a search result of its session would be (the filter judged as the client
 * may search, only the attributes it may read).
 *
 * <p>Immutable but for the last group walk it keeps; {@link #notification} runs on the writer thread,
 * inside the write transaction.
 */
final class ChangeView {
    private final int messageId;
    private final Session session;
    private final int changeTypes;
    private final boolean returnEcs;
    private final long baseId;
    private final SearchScope scope;
    private final boolean excludeBase;
    private final Filter filter;
    private final ExprNode filterNode;
    private final AttributeSelection selection;
    private final boolean typesOnly;
    private final Sources sources;
    /** The filter as last walked for a change; null until the first. Written on the writer thread only. */
    private Filter lastBound;
    /** The access rules' generation {@link #lastBound} was walked under. */
    private long lastRules;

    /** Groups one persistent search's walk may read for one change. */
    static final long WALK_LIMIT = GroupGraph.MAX_ENTRIES;
    /** How long one persistent search's walk may hold the writer for one change. */
    static final long WALK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** Attributes whose change may change a group or who may see it. */
    private static final List<String> GROUP_SHAPING = List.of("2.5.4.31", "2.5.4.50", AccessControl.ACI_OID);

    /** Reshapes this view's notifications; null for the persistent search draft's. */
    private NotificationShaper shaper;

    /** What every view of the server shares. */
    record Sources(AccessControl access, FilterCompiler filters, GroupGraph groups, ResultEntries results) {}

    /**
     * @param changeTypes the draft's bit set: add 1, delete 2, modify 4, modDN 8
     * @param excludeBase the subordinates scope: a subtree without its base
     */
    ChangeView(
            int messageId,
            Session session,
            int changeTypes,
            boolean returnEcs,
            long baseId,
            SearchScope scope,
            boolean excludeBase,
            Filter filter,
            ExprNode filterNode,
            AttributeSelection selection,
            boolean typesOnly,
            Sources sources) {
        this.messageId = messageId;
        this.session = session;
        this.changeTypes = changeTypes;
        this.returnEcs = returnEcs;
        this.baseId = baseId;
        this.scope = scope;
        this.excludeBase = excludeBase;
        this.filter = filter;
        this.filterNode = filterNode;
        this.selection = selection;
        this.typesOnly = typesOnly;
        this.sources = sources;
    }

    /** Shapes this view's notifications with {@code shaper}; call before it is registered. */
    ChangeView shapedBy(NotificationShaper notifications) {
        this.shaper = notifications;
        return this;
    }

    /** The search stopped waiting for changes: its shaper, if any, is told. */
    void ended() {
        if (shaper != null) {
            shaper.ended();
        }
    }

    /** Whether this search wants changes of the change's type at all (cheap; no store access). */
    boolean wants(DirectoryChange change) {
        return shaper != null ? shaper.wants(change) : change.type().presentIn(changeTypes);
    }

    /**
     * Whether the changed entry lies in this search's scope.
     *
     * @param ancestry the IDs of the entry and its ancestors in the transaction
     */
    boolean inScope(StoredEntry entry, Ancestry ancestry) {
        return switch (scope) {
            case OBJECT -> entry.id() == baseId;
            case ONELEVEL -> entry.parentId() == baseId;
            case SUBTREE -> (!excludeBase || entry.id() != baseId) && ancestry.contains(baseId);
        };
    }

    /**
     * The entry this search's client is sent for {@code change}, or null when the entry does not match
     * the filter as the client may judge it, or the client may not read it.
     */
    SearchResultEntry notification(WriteTxn txn, DirectoryChange change) {
        StoredEntry entry = change.entry();
        EntryScreen screen = sources.access().forSearch(session, txn, filterNode, sources.filters());
        if (change.before() != null && !changesWhatItMayRead(change.before(), entry, screen)) {
            return null;
        }
        Filter bound = bound(txn, change, screen);
        if (screen.evaluate(entry, bound) != Tri.TRUE) {
            return null;
        }
        SearchResultEntry response = sources.results().build(messageId, entry, selection, typesOnly, screen, txn);
        if (shaper != null) {
            return shaper.shape(change, response);
        }
        if (returnEcs) {
            EntryChange ecn = new EntryChangeImpl();
            ecn.setChangeType(change.type());
            if (change.previousDn() != null) {
                ecn.setPreviousDn(new StoredDn(change.previousDn()));
            }
            response.addControl(ecn);
        }
        return response;
    }

    /**
     * Whether a modify changed some attribute the client may read. A change it may not read is no
     * change for it: the password policy's failure and lock times written after a failed bind, say,
     * would otherwise tell an anonymous watcher when an account fails or locks. Decided per attribute,
     * on the entry after the change (read on either side would let the value show in the notification).
     */
    private static boolean changesWhatItMayRead(StoredEntry before, StoredEntry after, EntryScreen screen) {
        Set<String> oids = new HashSet<>();
        for (StoredAttribute a : before.attributes()) {
            oids.add(a.oid());
        }
        for (StoredAttribute a : after.attributes()) {
            oids.add(a.oid());
        }
        for (String oid : oids) {
            if (!sameValues(before.attribute(oid), after.attribute(oid))
                    && (screen.mayRead(after, oid) || screen.mayRead(before, oid))) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameValues(StoredAttribute a, StoredAttribute b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Arrays.deepEquals(a.values(), b.values());
    }

    /**
     * The filter with its in-chain terms walked for this change, bounded per persistent search: the
     * walk runs under {@link #WALK_LIMIT} groups and {@link #WALK_NANOS}, past which the search ends
     * with the limit's result code (the write goes on), and it is redone only when the change may
     * have changed a group or who may see one (a change to an entry with member, uniqueMember or aci
     * values, an add, delete or rename, or new access rules); otherwise the last walk serves. Called on the writer thread
     * only.
     */
    private Filter bound(WriteTxn txn, DirectoryChange change, EntryScreen screen) {
        if (!GroupGraph.hasInChain(filter)) {
            return filter;
        }
        long rules = sources.access().rulesGeneration();
        if (lastBound == null || rules != lastRules || mayChangeGroups(change)) {
            lastRules = rules;
            long deadline = System.nanoTime() + WALK_NANOS;
            SearchBudget budget = new SearchBudget(
                    WALK_LIMIT,
                    deadline,
                    "the group walk of a persistent search took longer than "
                            + TimeUnit.NANOSECONDS.toMillis(WALK_NANOS)
                            + " ms for one change; use fewer or narrower in-chain terms",
                    () -> false,
                    System::nanoTime);
            lastBound = sources.groups().bind(txn, filter, budget, screen);
        }
        return lastBound;
    }

    private static boolean mayChangeGroups(DirectoryChange change) {
        if (change.before() == null) {
            return true; // an add, delete or rename
        }
        for (String oid : GROUP_SHAPING) {
            if (change.entry().attribute(oid) != null || change.before().attribute(oid) != null) {
                return true;
            }
        }
        return false;
    }
}
