package dev.larch.server.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestControl;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestMode;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cn=Replication,cn=Monitor} and the replication metrics while a refreshAndPersist consumer
 * (the UnboundID SDK's content-sync control) is connected: its entry shows who it is, its mode and
 * phase, what it was sent and up to which CSN; the change log's numbers show; the entry goes when
 * the consumer abandons its search.
 */
class ReplicationMonitorIT {
    private static final String REPLICATION = "cn=Replication,cn=Monitor";
    private static final int PORT = freePort();

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("metrics.port", PORT).set("metrics.host", "127.0.0.1"));

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Map<String, Double> scrape() throws Exception {
        InetSocketAddress at = larch.server().metricsAddress();
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/metrics"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        return Exposition.parse(response.body());
    }

    /** The consumer entries under cn=Replication, with every attribute. */
    private static List<SearchResultEntry> consumers() throws LDAPException {
        return larch.admin()
                .search(REPLICATION, SearchScope.ONE, "(cn=Consumer *)", "*", "+")
                .getSearchEntries();
    }

    private static SearchResultEntry monitorEntry(String rdn) throws LDAPException {
        SearchResultEntry e = larch.admin().getEntry(rdn + "," + REPLICATION, "*", "+");
        assertNotNull(e, rdn);
        return e;
    }

    @Test
    void aConnectedConsumerShowsItsIdentityPhaseAndWhatItWasSentUntilItAbandons() throws Exception {
        LDAPConnection admin = larch.admin();
        String unit = "ou=replicated," + TestServer.SUFFIX;
        admin.add(unit, new Attribute("objectClass", "organizationalUnit"), new Attribute("ou", "replicated"));
        for (int i = 0; i < 3; i++) {
            admin.add(
                    "uid=r" + i + "," + unit,
                    new Attribute("objectClass", "inetOrgPerson"),
                    new Attribute("uid", "r" + i),
                    new Attribute("cn", "R " + i),
                    new Attribute("sn", "R"));
        }
        Map<String, Double> before = scrape();

        try (LDAPConnection consumer = larch.server().admin()) {
            Counting stream = new Counting();
            SearchRequest request = new SearchRequest(stream, unit, SearchScope.SUB, "(objectClass=*)", "*", "+");
            request.addControl(
                    new ContentSyncRequestControl(true, ContentSyncRequestMode.REFRESH_AND_PERSIST, null, false));
            AsyncRequestID id = consumer.asyncSearch(request);

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> consumers().size() == 1
                            && "persist".equals(consumers().get(0).getAttributeValue("larchSyncPhase")));
            SearchResultEntry c = consumers().get(0);
            assertEquals("refreshAndPersist", c.getAttributeValue("larchSyncMode"));
            assertEquals(TestServer.ADMIN_DN, c.getAttributeValue("monitorConnectionAuthzDN"));
            assertEquals("Consumer " + c.getAttributeValue("monitorConnectionNumber"), c.getAttributeValue("cn"));
            assertEquals(4, stream.entries.get(), "the unit and its three people");
            assertEquals("4", c.getAttributeValue("monitorCounter"), "entries sent");
            assertNotNull(c.getAttributeValue("larchSyncSentUpTo"), "the refresh's cookie state");

            Map<String, Double> persisting = scrape();
            assertEquals(1.0, persisting.get("larch_sync_consumers{phase=\"persist\"}"));
            assertEquals(0.0, persisting.get("larch_sync_consumers{phase=\"refresh\"}"));
            assertEquals(
                    before.get("larch_sync_entries_sent_total") + 4, persisting.get("larch_sync_entries_sent_total"));

            admin.modify("uid=r1," + unit, new Modification(ModificationType.REPLACE, "description", "sent"));
            String csn = admin.getEntry("uid=r1," + unit, "entryCSN").getAttributeValue("entryCSN");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> csn.equals(consumers().get(0).getAttributeValue("larchSyncSentUpTo")));
            assertEquals("5", consumers().get(0).getAttributeValue("monitorCounter"));

            long logged = Long.parseLong(monitorEntry("cn=Change Log").getAttributeValue("monitorCounter"));
            assertTrue(logged >= 5, "the five changes above are logged: " + logged);
            assertEquals((double) logged, scrape().get("larch_changelog_records"));
            assertNotNull(monitorEntry("cn=Oldest Change").getAttributeValue("monitoredInfo"));
            String[] context = monitorEntry("cn=Context CSN").getAttributeValues("contextCSN");
            assertNotNull(context);
            assertTrue(List.of(context).contains(csn), "the modify is the newest change: " + List.of(context));

            consumer.abandon(id);
            await().atMost(Duration.ofSeconds(10)).until(() -> consumers().isEmpty());
            assertEquals(0.0, scrape().get("larch_sync_consumers{phase=\"persist\"}"));
        }
    }

    @Test
    void onlyThoseWhoMayReadTheMonitorSeeReplication() {
        LDAPSearchException e = assertThrows(
                LDAPSearchException.class,
                () -> larch.anonymous().search(REPLICATION, SearchScope.BASE, "(objectClass=*)"));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
    }

    /** Counts the entries a sync search was sent. */
    private static final class Counting implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        final transient AtomicInteger entries = new AtomicInteger();

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {
            entries.incrementAndGet();
        }

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {}

        @Override
        public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {}
    }
}
