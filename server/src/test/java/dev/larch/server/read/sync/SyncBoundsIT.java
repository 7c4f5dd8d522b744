package dev.larch.server.read.sync;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.unboundid.asn1.ASN1OctetString;
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
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ContentSyncDoneControl;
import com.unboundid.ldap.sdk.controls.ContentSyncInfoIntermediateResponse;
import com.unboundid.ldap.sdk.controls.ContentSyncInfoType;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestControl;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestMode;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Content synchronization past its bounds: a cookie older than the change log (three changes here)
 * gets a present phase with the reload hint and e-syncRefreshRequired without; the persist stage
 * counts as a persistent search; what access control hides from an identity is not replicated to
 * it; controls that cannot go with a sync search are refused.
 */
class SyncBoundsIT {
    private static final String SUFFIX = TestServer.SUFFIX;
    private static final String REPLICATOR = "cn=replicator," + SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(b -> b.set("replication.changelog-max-changes", 3)
                    .set("limits.max-persistent-searches", 1)
                    .set("limits.size-limit", 3)
                    .set("replication.consumer-dn", REPLICATOR));

    private static String unit(String name, int people) throws LDAPException {
        return SyncUnits.unit(larch.admin(), name, people);
    }

    private static String person(String unit, int i) {
        return SyncUnits.person(unit, i);
    }

    private static UUID uuid(String dn) throws LDAPException {
        return UUID.fromString(larch.admin().getEntry(dn, "entryUUID").getAttributeValue("entryUUID"));
    }

    private static SearchResult refreshOnly(
            LDAPConnection c, String base, String cookie, boolean reloadHint, List<Object> events) throws Exception {
        SyncStream stream = SyncStream.start(c, base, ContentSyncRequestMode.REFRESH_ONLY, cookie, reloadHint);
        SearchResult result = stream.done.get(30, TimeUnit.SECONDS);
        events.addAll(stream.events);
        return result;
    }

    private static String cookieOf(SearchResult result) {
        if (result.getResponseControl(ContentSyncDoneControl.SYNC_DONE_OID) instanceof ContentSyncDoneControl done) {
            return done.getCookie().stringValue();
        }
        throw new AssertionError("no Sync Done control on " + result);
    }

    @Test
    void aCookieOlderThanTheLogGetsAPresentPhaseWithTheReloadHintAndRefreshRequiredWithout() throws Exception {
        String base = unit("old", 4);
        LDAPConnection admin = larch.admin();
        String cookie = cookieOf(refreshOnly(admin, base, null, false, new ArrayList<>()));
        for (int i = 0; i < 4; i++) {
            admin.modify(person("old", 0), new Modification(ModificationType.REPLACE, "description", "round " + i));
        }
        admin.delete(person("old", 1));

        SearchResult refused = refreshOnly(admin, base, cookie, false, new ArrayList<>());
        assertEquals(ResultCode.E_SYNC_REFRESH_REQUIRED, refused.getResultCode());
        assertTrue(
                refused.getDiagnosticMessage().contains("replication.changelog-max-changes"),
                refused.getDiagnosticMessage());

        List<Object> events = new ArrayList<>();
        SearchResult present = refreshOnly(admin, base, cookie, true, events);
        assertEquals(ResultCode.SUCCESS, present.getResultCode(), present.toString());
        List<String> full = new ArrayList<>();
        Set<UUID> presentUuids = new HashSet<>();
        for (Object e : events) {
            if (e instanceof SearchResultEntry entry) {
                full.add(entry.getDN());
            } else {
                ContentSyncInfoIntermediateResponse info = (ContentSyncInfoIntermediateResponse) e;
                assertEquals(ContentSyncInfoType.SYNC_ID_SET, info.getType());
                assertFalse(info.refreshDeletes(), "present, not deleted");
                presentUuids.addAll(info.getEntryUUIDs());
            }
        }
        assertEquals(List.of(person("old", 0)), full, "only the changed entry in full");
        assertEquals(
                Set.of(uuid(base), uuid(person("old", 2)), uuid(person("old", 3))),
                presentUuids,
                "the unchanged ones by UUID; the deleted one not at all");
        assertFalse(
                ((ContentSyncDoneControl) present.getResponseControl(ContentSyncDoneControl.SYNC_DONE_OID))
                        .refreshDeletes(),
                "a present phase: the consumer drops what it was not told of");
    }

    @Test
    void thePersistStageCountsAsAPersistentSearch() throws Exception {
        String base = unit("persist", 1);
        try (LDAPConnection first = larch.server().admin();
                LDAPConnection second = larch.server().admin()) {
            SyncStream waiting = SyncStream.start(first, base, ContentSyncRequestMode.REFRESH_AND_PERSIST, null, false);
            assertEquals(
                    ContentSyncInfoType.REFRESH_PRESENT, skipEntries(waiting).getType());
            SyncStream refused =
                    SyncStream.start(second, base, ContentSyncRequestMode.REFRESH_AND_PERSIST, null, false);
            SearchResult result = refused.done.get(10, TimeUnit.SECONDS);
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, result.getResultCode());
            assertTrue(result.getDiagnosticMessage().contains("limits.max-persistent-searches"));
            first.abandon(waiting.id);
        }
    }

    private static ContentSyncInfoIntermediateResponse skipEntries(SyncStream stream) throws InterruptedException {
        while (true) {
            Object e = stream.next();
            if (e instanceof ContentSyncInfoIntermediateResponse info) {
                return info;
            }
        }
    }

    @Test
    void whatAccessControlHidesIsNotReplicated() throws Exception {
        String base = unit("guarded", 1);
        larch.admin()
                .add(
                        "ou=secret," + base,
                        List.of(
                                new Attribute("objectClass", "organizationalUnit"),
                                new Attribute("ou", "secret"),
                                new Attribute(
                                        "aci",
                                        "(targetattr=\"*\")(version 3.0; acl \"hidden\"; deny (read, search)"
                                                + " userdn=\"ldap:///anyone\";)")));
        larch.admin()
                .modify(
                        person("guarded", 0),
                        new Modification(ModificationType.REPLACE, "userPassword", "s3cret-Pass-word"));
        List<Object> events = new ArrayList<>();
        try (LDAPConnection anonymous = larch.server().anonymous()) {
            assertEquals(
                    ResultCode.SUCCESS,
                    refreshOnly(anonymous, base, null, false, events).getResultCode());
        }
        List<String> dns = new ArrayList<>();
        for (Object e : events) {
            SearchResultEntry entry = (SearchResultEntry) e;
            dns.add(entry.getDN());
            assertFalse(entry.hasAttribute("userPassword"), "anonymous may not read userPassword");
            assertFalse(entry.hasAttribute("entryCSN"), "nor the change stamp a failed bind's state write moves");
        }
        assertEquals(List.of(base, person("guarded", 0)), dns, "the denied subtree is not sent");
    }

    @Test
    void theReplicationIdentityReadsWhatItsAciGrantsPastTheSizeLimitAndOthersStopAtIt() throws Exception {
        String base = unit("replicated", 4);
        LDAPConnection admin = larch.admin();
        admin.add(
                REPLICATOR,
                List.of(
                        new Attribute("objectClass", "person"),
                        new Attribute("cn", "replicator"),
                        new Attribute("sn", "Replicator"),
                        new Attribute("userPassword", "replicate-Me-9")));
        admin.modify(
                base,
                new Modification(
                        ModificationType.ADD,
                        "aci",
                        "(targetattr = \"*\")(version 3.0; acl \"replication\"; allow (read, search)"
                                + " userdn = \"ldap:///" + REPLICATOR + "\";)"));
        admin.modify(
                person("replicated", 2), new Modification(ModificationType.REPLACE, "userPassword", "pw-Of-Two-2"));
        try (LDAPConnection replicator = larch.server().anonymous();
                LDAPConnection other = larch.server().anonymous()) {
            replicator.bind(REPLICATOR, "replicate-Me-9");
            List<Object> events = new ArrayList<>();
            SearchResult whole = refreshOnly(replicator, base, null, false, events);
            assertEquals(ResultCode.SUCCESS, whole.getResultCode(), whole.toString());
            assertEquals(5, events.size(), "the unit and its four people, past limits.size-limit (3)");
            boolean sawPassword = false;
            for (Object e : events) {
                sawPassword |= ((SearchResultEntry) e).hasAttribute("userPassword");
            }
            assertTrue(sawPassword, "the ACI grants it every attribute, passwords too");

            SearchResult limited = refreshOnly(other, base, null, false, new ArrayList<>());
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, limited.getResultCode(), "anyone else is held to it");
        }
    }

    @Test
    void pagedResultsCannotGoWithASyncSearch() throws Exception {
        SearchRequest r = new SearchRequest(SUFFIX, SearchScope.SUB, "(objectClass=*)");
        r.addControl(new ContentSyncRequestControl(ContentSyncRequestMode.REFRESH_ONLY));
        r.addControl(new SimplePagedResultsControl(10, (ASN1OctetString) null));
        LDAPSearchException refused =
                assertThrows(LDAPSearchException.class, () -> larch.admin().search(r));
        assertEquals(ResultCode.UNWILLING_TO_PERFORM, refused.getResultCode());
        assertTrue(refused.getDiagnosticMessage().contains("cannot be combined"), refused.getDiagnosticMessage());
    }
}
