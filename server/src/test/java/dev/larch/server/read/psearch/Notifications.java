package dev.larch.server.read.psearch;

import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.EntryChangeNotificationControl;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * One persistent search as a client sees it: the entries it receives, in order, and its end.
 *
 * <p>Starting one gives no signal that the server registered it; a change made afterwards on the
 * same connection is ordered after the registration (both go through the writer queue in the order
 * the connection sent them), so tests make their first change on the connection that searches.
 */
final class Notifications implements AsyncSearchResultListener {
    private static final long serialVersionUID = 1L;

    final transient BlockingQueue<SearchResultEntry> entries = new LinkedBlockingQueue<>();
    final transient CompletableFuture<SearchResult> done = new CompletableFuture<>();
    transient AsyncRequestID id;

    /** Starts a persistent search on {@code c}. */
    static Notifications start(
            LDAPConnection c,
            String base,
            SearchScope scope,
            String filter,
            Set<PersistentSearchChangeType> types,
            boolean changesOnly,
            String... attributes)
            throws LDAPException {
        Notifications n = new Notifications();
        SearchRequest r = new SearchRequest(n, base, scope, filter, attributes);
        r.addControl(new PersistentSearchRequestControl(types, changesOnly, true, true));
        n.id = c.asyncSearch(r);
        return n;
    }

    /** The next entry; fails after ten seconds without one. */
    SearchResultEntry next() throws InterruptedException {
        SearchResultEntry e = entries.poll(10, TimeUnit.SECONDS);
        assertNotNull(e, "no notification within 10 s" + (done.isDone() ? "; the search ended: " + done.join() : ""));
        return e;
    }

    /** Asserts nothing more arrives within {@code millis}. */
    void assertQuiet(long millis) throws InterruptedException {
        SearchResultEntry e = entries.poll(millis, TimeUnit.MILLISECONDS);
        assertNull(e, () -> "unexpected notification: " + e);
    }

    /** The entry change notification control of {@code e}; fails when it has none. */
    static EntryChangeNotificationControl ecn(SearchResultEntry e) throws LDAPException {
        EntryChangeNotificationControl c = EntryChangeNotificationControl.get(e);
        assertNotNull(c, "no entry change notification on " + e.getDN());
        return c;
    }

    @Override
    public void searchEntryReturned(SearchResultEntry entry) {
        entries.add(entry);
    }

    @Override
    public void searchReferenceReturned(SearchResultReference reference) {}

    @Override
    public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {
        done.complete(result);
    }
}
