package dev.larch.server.net;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.CancelExtendedRequest;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cancel (RFC 3909): a search still sending ends canceled; what cannot be canceled says why. */
class CancelIT {
    static final String UNIT = "ou=cancel," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch =
            LarchServerExtension.withBaseTree().importing(Ldif.bulkUnit(UNIT, 3000, i -> "cancel " + i));

    @Test
    void aSearchThatHasNotEndedIsCanceled() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            CompletableFuture<SearchResult> done = new CompletableFuture<>();
            CompletableFuture<Void> firstEntry = new CompletableFuture<>();
            AsyncSearchResultListener listener = new AsyncSearchResultListener() {
                @Override
                public void searchEntryReturned(SearchResultEntry entry) {
                    firstEntry.complete(null);
                    try {
                        Thread.sleep(2); // a slow reader: the search is still sending when Cancel arrives
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }

                @Override
                public void searchReferenceReturned(SearchResultReference reference) {}

                @Override
                public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {
                    done.complete(result);
                }
            };
            AsyncRequestID id =
                    c.asyncSearch(new SearchRequest(listener, UNIT, SearchScope.SUB, "(description=cancel*)", "*"));
            firstEntry.get(10, TimeUnit.SECONDS);
            ExtendedResult cancel = c.processExtendedOperation(new CancelExtendedRequest(id));
            assertEquals(ResultCode.SUCCESS, cancel.getResultCode(), cancel.toString());
            SearchResult result = done.get(10, TimeUnit.SECONDS);
            assertEquals(ResultCode.CANCELED, result.getResultCode());
            assertTrue(result.getEntryCount() < 3001, "entries " + result.getEntryCount());
        }
    }

    @Test
    void unknownOperationIsNoSuchOperation() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            ExtendedResult r = c.processExtendedOperation(new CancelExtendedRequest(12345));
            assertEquals(ResultCode.NO_SUCH_OPERATION, r.getResultCode());
            assertTrue(c.getRootDSE().supportsExtendedOperation("1.3.6.1.1.8"));
        }
    }
}
