package dev.larch.server.read.sync;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DN;
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
import com.unboundid.ldap.sdk.controls.ContentSyncState;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.larch.server.read.sync.SyncStream.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The provider side of content synchronization (RFC 4533) as a consumer drives it, through the
 * UnboundID SDK: a refresh without a cookie, a refresh from a cookie the change log covers (the
 * deleted UUIDs, then the changed entries only), the persist stage (each change with its cookie),
 * and the refusals of bad input.
 */
class SyncProviderIT {
    private static final String SUFFIX = TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree();

    private static String unit(String name, int people) throws LDAPException {
        return SyncUnits.unit(larch.admin(), name, people);
    }

    private static String person(String unit, int i) {
        return SyncUnits.person(unit, i);
    }

    /** Runs a refreshOnly search to its end; returns its entries and messages in order, and its result. */
    private static Refreshed refreshOnly(LDAPConnection c, String base, String cookie, boolean reloadHint)
            throws Exception {
        SyncStream stream = SyncStream.start(c, base, ContentSyncRequestMode.REFRESH_ONLY, cookie, reloadHint);
        SearchResult result = stream.done.get(30, TimeUnit.SECONDS);
        return new Refreshed(new ArrayList<>(stream.events), result);
    }

    private record Refreshed(List<Object> events, SearchResult result) {
        List<SearchResultEntry> entries() {
            List<SearchResultEntry> out = new ArrayList<>();
            for (Object e : events) {
                if (e instanceof SearchResultEntry entry) {
                    out.add(entry);
                }
            }
            return out;
        }

        ContentSyncDoneControl syncDone() {
            if (result.getResponseControl(ContentSyncDoneControl.SYNC_DONE_OID) instanceof ContentSyncDoneControl d) {
                return d;
            }
            throw new AssertionError("no Sync Done control on " + result);
        }

        String cookie() {
            return syncDone().getCookie().stringValue();
        }
    }

    @Test
    void aRefreshWithoutCookieSendsEveryEntryParentsFirstWithItsUuidThenTheCookie() throws Exception {
        String base = unit("full", 5);
        Refreshed r = refreshOnly(larch.admin(), base, null, false);
        assertEquals(ResultCode.SUCCESS, r.result().getResultCode(), r.result().toString());
        List<SearchResultEntry> entries = r.entries();
        assertEquals(6, entries.size(), "the unit and its five people");
        Set<DN> seen = new HashSet<>();
        for (SearchResultEntry e : entries) {
            assertEquals(ContentSyncState.ADD, state(e).getState(), e.getDN());
            assertEquals(UUID.fromString(e.getAttributeValue("entryUUID")), state(e).getEntryUUID(), e.getDN());
            assertNotNull(e.getAttributeValue("entryCSN"), e.getDN());
            assertNotNull(e.getAttributeValue("structuralObjectClass"), e.getDN());
            if (!e.getParsedDN().equals(new DN(base))) {
                assertTrue(seen.contains(e.getParsedDN().getParent()), "parent before " + e.getDN());
            }
            seen.add(e.getParsedDN());
        }
        assertEquals(
                "organizationalUnit",
                entries.get(0).getAttributeValue("structuralObjectClass"),
                "the most derived structural class");
        assertFalse(r.syncDone().refreshDeletes(), "a present phase: the consumer drops what it was not sent");
        assertTrue(r.cookie().matches("rid=000,sid=001,csn=\\d{14}\\.\\d{6}Z#[0-9a-f]{6}#001#000000"), r.cookie());
    }

    @Test
    void aCookieTheLogCoversGetsTheDeletedUuidsFirstThenTheChangedEntriesOnly() throws Exception {
        String base = unit("delta", 4);
        LDAPConnection admin = larch.admin();
        String cookie =
                "rid=007," + refreshOnly(admin, base, null, false).cookie().substring("rid=000,".length());
        String deletedUuid = admin.getEntry(person("delta", 1), "entryUUID").getAttributeValue("entryUUID");

        admin.modify(person("delta", 0), new Modification(ModificationType.REPLACE, "description", "changed"));
        admin.delete(person("delta", 1));
        admin.modify(person("delta", 0), new Modification(ModificationType.REPLACE, "description", "changed again"));
        admin.add(
                person("delta", 9),
                List.of(
                        new Attribute("objectClass", "inetOrgPerson"),
                        new Attribute("uid", "delta9"),
                        new Attribute("cn", "delta 9"),
                        new Attribute("sn", "Person9")));

        Refreshed r = refreshOnly(admin, base, cookie, false);
        assertEquals(ResultCode.SUCCESS, r.result().getResultCode(), r.result().toString());
        ContentSyncInfoIntermediateResponse deleted =
                (ContentSyncInfoIntermediateResponse) r.events().get(0);
        assertEquals(ContentSyncInfoType.SYNC_ID_SET, deleted.getType());
        assertTrue(deleted.refreshDeletes());
        assertEquals(List.of(UUID.fromString(deletedUuid)), deleted.getEntryUUIDs());
        List<String> dns = r.entries().stream().map(SearchResultEntry::getDN).toList();
        assertEquals(List.of(person("delta", 0), person("delta", 9)), dns, "each changed entry once, as it is now");
        assertEquals("changed again", r.entries().get(0).getAttributeValue("description"));
        assertTrue(r.syncDone().refreshDeletes(), "a delete phase: the consumer keeps what it was not sent");
        assertTrue(r.cookie().startsWith("rid=007,sid=001,csn="), "the consumer's rid echoed: " + r.cookie());

        Refreshed again = refreshOnly(admin, base, r.cookie(), false);
        assertEquals(List.of(), again.events(), "nothing changed since");
        assertEquals(r.cookie(), again.cookie());
    }

    @Test
    void persistModeEndsTheRefreshWithSyncInfoThenSendsEachChangeWithItsCookie() throws Exception {
        String base = unit("live", 2);
        LDAPConnection consumer = larch.admin();
        String cookie = refreshOnly(consumer, base, null, false).cookie();
        SyncStream stream = SyncStream.start(consumer, base, ContentSyncRequestMode.REFRESH_AND_PERSIST, cookie, false);
        ContentSyncInfoIntermediateResponse end = stream.nextInfo();
        assertEquals(ContentSyncInfoType.REFRESH_DELETE, end.getType());
        assertTrue(end.refreshDone());

        LDAPConnection admin = larch.admin();
        admin.modify(person("live", 0), new Modification(ModificationType.REPLACE, "description", "now"));
        SearchResultEntry modified = stream.nextEntry();
        assertEquals(person("live", 0), modified.getDN());
        assertEquals(ContentSyncState.MODIFY, state(modified).getState());
        assertEquals("now", modified.getAttributeValue("description"));
        String changeCookie = state(modified).getCookie().stringValue();
        assertTrue(
                changeCookie.endsWith("csn=" + modified.getAttributeValue("entryCSN")),
                "the cookie carries the change's CSN: " + changeCookie);

        String uuid = admin.getEntry(person("live", 1), "entryUUID").getAttributeValue("entryUUID");
        admin.delete(person("live", 1));
        SearchResultEntry deleted = stream.nextEntry();
        assertEquals(ContentSyncState.DELETE, state(deleted).getState());
        assertEquals(UUID.fromString(uuid), state(deleted).getEntryUUID());
        assertEquals(0, deleted.getAttributes().size(), "a delete carries the DN only");

        admin.modifyDN(person("live", 0), "uid=renamed", true);
        SearchResultEntry renamed = stream.nextEntry();
        assertEquals(ContentSyncState.MODIFY, state(renamed).getState(), "slapd knows no moddn state");
        assertEquals("uid=renamed,ou=live," + SUFFIX, renamed.getDN());
        stream.assertQuiet(200);
        consumer.abandon(stream.id);
    }

    @Test
    void anEntryIsFoundByItsEntryUuidAndItsEntryCsn() throws Exception {
        unit("stamps", 1);
        SearchResultEntry person = larch.admin().getEntry(person("stamps", 0), "entryUUID", "entryCSN");
        for (String filter : List.of(
                "(entryUUID=" + person.getAttributeValue("entryUUID") + ")",
                "(entryCSN=" + person.getAttributeValue("entryCSN") + ")")) {
            SearchResult found = larch.admin().search(SUFFIX, SearchScope.SUB, filter, "1.1");
            assertEquals(
                    List.of(person("stamps", 0)),
                    found.getSearchEntries().stream()
                            .map(SearchResultEntry::getDN)
                            .toList(),
                    filter);
        }
    }

    @Test
    void aMalformedCookieIsAProtocolErrorAndTheServerGoesOn() throws Exception {
        Refreshed r = refreshOnly(larch.admin(), SUFFIX, "rid=1,csn=yesterday", false);
        assertEquals(ResultCode.PROTOCOL_ERROR, r.result().getResultCode());
        assertTrue(r.result().getDiagnosticMessage().contains("csn"), r.result().getDiagnosticMessage());
        assertEquals(
                ResultCode.SUCCESS,
                refreshOnly(larch.admin(), SUFFIX, null, false).result().getResultCode());
    }

    @Test
    void aMalformedControlValueIsAProtocolErrorOnAConnectionThatStaysUsable() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            SearchRequest r = new SearchRequest(SUFFIX, SearchScope.BASE, "(objectClass=*)");
            // A SEQUENCE holding an ENUMERATED 7: no such mode.
            r.addControl(new Control(ContentSyncRequestControl.SYNC_REQUEST_OID, true, new ASN1OctetString(new byte[] {
                0x30, 0x03, 0x0a, 0x01, 0x07
            })));
            LDAPSearchException refused = assertThrows(LDAPSearchException.class, () -> c.search(r));
            assertEquals(ResultCode.PROTOCOL_ERROR, refused.getResultCode());
            assertNotNull(c.getEntry(SUFFIX), "the connection goes on");
        }
    }

    @Test
    void aCookieFromTheFutureMustRefreshInFull() throws Exception {
        Refreshed r = refreshOnly(larch.admin(), SUFFIX, "rid=001,csn=29991231235959.999999Z#000000#001#000000", false);
        assertEquals(ResultCode.E_SYNC_REFRESH_REQUIRED, r.result().getResultCode());
        assertTrue(
                r.result().getDiagnosticMessage().contains("ahead"), r.result().getDiagnosticMessage());
    }
}
