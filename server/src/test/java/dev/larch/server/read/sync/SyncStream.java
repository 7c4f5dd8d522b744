package dev.larch.server.read.sync;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.IntermediateResponse;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ContentSyncInfoIntermediateResponse;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestControl;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestMode;
import com.unboundid.ldap.sdk.controls.ContentSyncStateControl;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One sync search as a consumer sees it, through the UnboundID SDK (a second implementation of RFC
 * 4533): the entries and Sync Info messages in the order they arrived, and the search's end.
 */
final class SyncStream implements AsyncSearchResultListener {
    private static final long serialVersionUID = 1L;

    /** Entries ({@link SearchResultEntry}) and Sync Info messages ({@link ContentSyncInfoIntermediateResponse}). */
    final transient BlockingQueue<Object> events = new LinkedBlockingQueue<>();

    final transient CompletableFuture<SearchResult> done = new CompletableFuture<>();
    transient AsyncRequestID id;

    /** Starts a sync search of the whole suffix for every attribute, user and operational. */
    static SyncStream start(
            LDAPConnection c, String base, ContentSyncRequestMode mode, String cookie, boolean reloadHint)
            throws LDAPException {
        SyncStream stream = new SyncStream();
        SearchRequest r = new SearchRequest(stream, base, SearchScope.SUB, "(objectClass=*)", "*", "+");
        r.addControl(new ContentSyncRequestControl(
                true, mode, cookie == null ? null : new ASN1OctetString(cookie), reloadHint));
        r.setIntermediateResponseListener((IntermediateResponse ir) -> {
            try {
                stream.events.add(ContentSyncInfoIntermediateResponse.decode(ir));
            } catch (LDAPException e) {
                stream.events.add(e);
            }
        });
        stream.id = c.asyncSearch(r);
        return stream;
    }

    /** The next event; fails after ten seconds without one. */
    Object next() throws InterruptedException {
        Object e = events.poll(10, TimeUnit.SECONDS);
        assertNotNull(e, "nothing within 10 s" + (done.isDone() ? "; the search ended: " + done.join() : ""));
        if (e instanceof LDAPException failure) {
            fail("an intermediate response that is not a Sync Info message: " + failure);
        }
        return e;
    }

    /** The next event, which must be an entry. */
    SearchResultEntry nextEntry() throws InterruptedException {
        Object e = next();
        if (e instanceof SearchResultEntry entry) {
            return entry;
        }
        return fail("expected an entry, got " + e);
    }

    /** The next event, which must be a Sync Info message. */
    ContentSyncInfoIntermediateResponse nextInfo() throws InterruptedException {
        Object e = next();
        if (e instanceof ContentSyncInfoIntermediateResponse info) {
            return info;
        }
        return fail("expected a Sync Info message, got " + e);
    }

    /** Asserts nothing more arrives within {@code millis}. */
    void assertQuiet(long millis) throws InterruptedException {
        Object e = events.poll(millis, TimeUnit.MILLISECONDS);
        assertNull(e, () -> "unexpected: " + e);
    }

    /** The Sync State control of {@code entry}; fails when it has none. */
    static ContentSyncStateControl state(SearchResultEntry entry) {
        try {
            ContentSyncStateControl state = ContentSyncStateControl.get(entry);
            assertNotNull(state, "no Sync State control on " + entry.getDN());
            return state;
        } catch (LDAPException e) {
            return fail("an undecodable Sync State control on " + entry.getDN() + ": " + e);
        }
    }

    @Override
    public void searchEntryReturned(SearchResultEntry entry) {
        events.add(entry);
    }

    @Override
    public void searchReferenceReturned(SearchResultReference reference) {}

    @Override
    public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {
        done.complete(result);
    }
}
