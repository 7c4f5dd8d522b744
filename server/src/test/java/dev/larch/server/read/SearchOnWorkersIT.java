package dev.larch.server.read;

import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.BasicAsyncSearchResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Searches that may run long (they walk their scope) examine entries on the worker pool, so the one
 * event loop of this server keeps answering other clients meanwhile, and their results are complete.
 */
class SearchOnWorkersIT {
    private static final int ENTRIES = 20_000;
    private static final String BULK = "ou=bulk," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("listen.io-threads", 1)
                    .set("limits.size-limit", 0)
                    .set("limits.time-limit-seconds", 0)
                    .set("limits.look-through-limit", 0)
                    .set("limits.worker-threads", 1)
                    .set("limits.worker-queue", 16)
                    .set("limits.apply-to-admin", true))
            .importing(bulk());

    private static String bulk() {
        return Ldif.bulkUnit(BULK, ENTRIES, i -> "d" + i);
    }

    @Test
    void aLongUnindexedSearchLeavesTheEventLoopFreeForAnotherClientsLookups() throws Exception {
        try (LDAPConnection walker = larch.admin();
                LDAPConnection other = larch.anonymous()) {
            BasicAsyncSearchResultListener walk = new BasicAsyncSearchResultListener();
            // description is not indexed: the search walks all of the unit and finds nothing.
            AsyncRequestID id = walker.asyncSearch(
                    new SearchRequest(walk, BULK, SearchScope.SUB, "(description=no such value)", "1.1"));
            int answeredDuringTheWalk = 0;
            while (!id.isDone()) {
                SearchResult lookup = other.search(BULK, SearchScope.SUB, "(uid=u00042)", "1.1");
                assertEquals(1, lookup.getEntryCount());
                if (!id.isDone()) {
                    answeredDuringTheWalk++;
                }
            }
            SearchResult result = (SearchResult) id.get(60, TimeUnit.SECONDS);
            assertEquals(ResultCode.SUCCESS, result.getResultCode());
            assertEquals(0, result.getEntryCount());
            assertTrue(answeredDuringTheWalk > 0, "no lookup was answered while the walk ran");
        }
    }

    @Test
    void aSearchStreamedFromAWorkerReturnsEveryEntry() throws Exception {
        try (LDAPConnection c = larch.admin()) {
            SearchResult all = c.search(BULK, SearchScope.ONE, "(description=d*)", "uid");
            assertEquals(ResultCode.SUCCESS, all.getResultCode());
            assertEquals(ENTRIES, all.getEntryCount());
        }
    }
}
