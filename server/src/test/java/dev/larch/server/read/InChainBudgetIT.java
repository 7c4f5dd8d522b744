package dev.larch.server.read;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group walks as an anonymous CPU attack: a graph of {@value #LAYERS} x {@value #WIDTH} nested groups
 * above one user, and a filter of {@value #TERMS} in-chain terms naming that user. Before, each term
 * walked the whole graph on the event loop before the search's budget existed, so every other client
 * of that event loop waited seconds; now the walk runs on a worker, once per DN, under the look-through
 * limit, and ends adminLimitExceeded naming it, while the neighbour is served. The server has one
 * event loop, so the neighbour shares the attacker's; the test asserts on order and result codes only.
 */
class InChainBudgetIT {
    private static final int LAYERS = 10;
    private static final int WIDTH = 500;
    private static final int TERMS = 100;
    private static final int LOOK_THROUGH = 3_000;
    private static final String GRAPH = "ou=graph," + TestServer.SUFFIX;
    private static final String TARGET = "uid=target," + GRAPH;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("listen.io-threads", 1)
                    .set("limits.size-limit", 0)
                    .set("limits.time-limit-seconds", 0)
                    .set("limits.look-through-limit", LOOK_THROUGH)
                    .set("limits.apply-to-admin", true))
            .importing(graph());

    @Test
    void manyInChainTermsEndWithinTheBudgetWhileTheNeighbourIsServed() throws Exception {
        String filter = "(|" + ("(member:1.2.840.113556.1.4.1941:=" + TARGET + ")").repeat(TERMS) + ")";
        BlockingQueue<String> order = new LinkedBlockingQueue<>();
        CompletableFuture<SearchResult> attack = new CompletableFuture<>();
        try (LDAPConnection attacker = larch.server().anonymous();
                LDAPConnection neighbour = larch.server().anonymous()) {
            // Both connected and served once before the attack, so neither waits on a handshake.
            assertEquals(
                    ResultCode.SUCCESS,
                    neighbour
                            .search(TARGET, SearchScope.BASE, "(objectClass=*)", "1.1")
                            .getResultCode());
            assertEquals(
                    ResultCode.SUCCESS,
                    attacker.search(TARGET, SearchScope.BASE, "(objectClass=*)", "1.1")
                            .getResultCode());
            attacker.asyncSearch(new SearchRequest(new Listener(order, attack), GRAPH, SearchScope.SUB, filter, "1.1"));
            SearchResult simple = neighbour.search(TARGET, SearchScope.BASE, "(objectClass=*)", "1.1");
            order.add("neighbour");
            SearchResult result = attack.get(120, TimeUnit.SECONDS);
            assertEquals(ResultCode.SUCCESS, simple.getResultCode());
            assertEquals(List.of("neighbour", "attack"), List.copyOf(order), "the neighbour waited for the walk");
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, result.getResultCode(), result.getDiagnosticMessage());
            assertTrue(
                    result.getDiagnosticMessage().contains("limits.look-through-limit"), result.getDiagnosticMessage());
        }
    }

    @Test
    void aWalkWithinTheBudgetStillFindsTheGroups() throws Exception {
        // From a group of the last layer but one: three groups above it, well under the look-through
        // limit; the two terms name the same DN and share one walk.
        String group = "cn=g0,ou=layer" + (LAYERS - 2) + "," + GRAPH;
        String term = "(member:1.2.840.113556.1.4.1941:=" + group + ")";
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchResult found = c.search(GRAPH, SearchScope.SUB, "(&" + term + term + ")", "1.1");
            assertEquals(ResultCode.SUCCESS, found.getResultCode());
            assertEquals(3, found.getEntryCount());
        }
    }

    /** The user, then layer by layer the groups: layer 0 names the user, each later group three of the layer below. */
    private static String graph() {
        StringBuilder ldif = new StringBuilder();
        ldif.append("dn: ").append(GRAPH).append("\nobjectClass: organizationalUnit\nou: graph\n\n");
        ldif.append("dn: ")
                .append(TARGET)
                .append("\nobjectClass: inetOrgPerson\nuid: target\ncn: target\nsn: target\n\n");
        for (int layer = 0; layer < LAYERS; layer++) {
            String unit = "ou=layer" + layer + "," + GRAPH;
            ldif.append("dn: ")
                    .append(unit)
                    .append("\nobjectClass: organizationalUnit\nou: layer")
                    .append(layer)
                    .append("\n\n");
            for (int i = 0; i < WIDTH; i++) {
                ldif.append("dn: cn=g")
                        .append(i)
                        .append(',')
                        .append(unit)
                        .append("\nobjectClass: groupOfNames\ncn: g")
                        .append(i)
                        .append('\n');
                if (layer == 0) {
                    ldif.append("member: ").append(TARGET).append('\n');
                } else {
                    String below = ",ou=layer" + (layer - 1) + "," + GRAPH;
                    for (int k = 0; k < 3; k++) {
                        ldif.append("member: cn=g")
                                .append((i + k) % WIDTH)
                                .append(below)
                                .append('\n');
                    }
                }
                ldif.append('\n');
            }
        }
        return ldif.toString();
    }

    /** Notes when the attack's result arrives, after the neighbour's or before. */
    private static final class Listener implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        private final transient BlockingQueue<String> order;
        private final transient CompletableFuture<SearchResult> done;

        Listener(BlockingQueue<String> order, CompletableFuture<SearchResult> done) {
            this.order = order;
            this.done = done;
        }

        @Override
        public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {
            order.add("attack");
            done.complete(result);
        }

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {}

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {}
    }
}
