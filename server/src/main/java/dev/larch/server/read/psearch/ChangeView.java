package dev.larch.server.read.psearch;

import dev.larch.server.access.AccessControl;
import dev.larch.server.directory.DirectoryChange;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Session;
import dev.larch.server.read.AttributeSelection;
import dev.larch.server.read.ResultEntries;
import dev.larch.server.read.StoredDn;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
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
 * <p>Immutable; {@link #notification} runs on the writer thread, inside the write transaction.
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

    /** Whether this search wants changes of the change's type at all (cheap; no store access). */
    boolean wants(DirectoryChange change) {
        return change.type().presentIn(changeTypes);
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
        Filter bound = sources.groups().bind(txn, filter);
        if (screen.evaluate(entry, bound) != Tri.TRUE) {
            return null;
        }
        SearchResultEntry response = sources.results().build(messageId, entry, selection, typesOnly, screen, txn);
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
}
