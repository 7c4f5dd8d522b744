package dev.larch.server.referral;

import java.util.List;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPRequest;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.UpdatableLDAPRequest;
import com.unboundid.ldap.sdk.controls.ManageDsaITRequestControl;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import com.unboundid.ldap.sdk.controls.SortKey;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Referral objects and the ManageDsaIT control (RFC 3296): without the control an operation on or
 * below a referral object is a referral and a search sends continuation references for the referral
 * objects in its scope; with it they are ordinary entries.
 */
class ManageDsaItIT {
    static final String SUFFIX = TestServer.SUFFIX;
    static final String REMOTE = "ou=remote," + SUFFIX;
    static final String REMOTE_URL = "ldap://other.example:389/ou=remote,dc=other,dc=com";
    static final String BELOW = "uid=below," + REMOTE;
    static final String SECRET = "ou=secret," + SUFFIX;
    static final String LOCAL = "uid=local,ou=people," + SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .importing("dn: " + REMOTE + "\nobjectClass: referral\nobjectClass: extensibleObject\nou: remote\n"
                    + "ref: " + REMOTE_URL + "\n\n"
                    + "dn: " + BELOW + "\nobjectClass: inetOrgPerson\nuid: below\ncn: Below\nsn: Below\n\n"
                    + "dn: " + SECRET + "\nobjectClass: referral\nobjectClass: extensibleObject\nou: secret\n"
                    + "ref: ldap://hidden.example/\n"
                    + "aci: (targetattr = \"ref\")(version 3.0; acl \"hide\"; deny (read) userdn = \"ldap:///anyone\";)\n\n"
                    + "dn: " + LOCAL + "\nobjectClass: inetOrgPerson\nuid: local\ncn: Local\nsn: Local\n");

    static <R extends UpdatableLDAPRequest> R manageDsaIt(R request) {
        request.addControl(new ManageDsaITRequestControl());
        return request;
    }

    static LDAPException refused(LDAPConnection c, LDAPRequest request) {
        return assertThrows(LDAPException.class, () -> {
            switch (request) {
                case SearchRequest r -> c.search(r);
                case CompareRequest r -> c.compare(r);
                case AddRequest r -> c.add(r);
                case DeleteRequest r -> c.delete(r);
                case ModifyRequest r -> c.modify(r);
                case ModifyDNRequest r -> c.modifyDN(r);
                default -> throw new IllegalArgumentException(request.toString());
            }
        });
    }

    static void assertReferral(LDAPException e, String matched, String... urls) {
        assertEquals(ResultCode.REFERRAL, e.getResultCode(), e.getMessage());
        assertEquals(matched, e.getMatchedDN());
        assertArrayEquals(urls, e.getReferralURLs());
    }

    @Test
    void theReferralClassAndRefLoadFromTheSchemaAndAddWithTheControl() throws Exception {
        String dn = "ou=added," + SUFFIX;
        try (LDAPConnection c = larch.admin()) {
            LDAPResult added = c.add(manageDsaIt(new AddRequest(
                    "dn: " + dn,
                    "objectClass: referral",
                    "objectClass: extensibleObject",
                    "ou: added",
                    "ref: ldap://elsewhere.example/ou=added,dc=elsewhere")));
            assertEquals(ResultCode.SUCCESS, added.getResultCode());
            SearchResult read =
                    c.search(manageDsaIt(new SearchRequest(dn, SearchScope.BASE, "(objectClass=*)", "ref")));
            assertEquals(
                    "ldap://elsewhere.example/ou=added,dc=elsewhere",
                    read.getSearchEntries().get(0).getAttributeValue("ref"));
            // at once a referral: the set of referral objects is updated when the add commits
            assertReferral(
                    assertThrows(LDAPException.class, () -> c.getEntry(dn)),
                    dn,
                    "ldap://elsewhere.example/ou=added,dc=elsewhere");
            assertEquals(
                    ResultCode.SUCCESS,
                    c.delete(manageDsaIt(new DeleteRequest(dn))).getResultCode());
            assertNotNull(c.getEntry("ou=people," + SUFFIX));
        }
    }

    @Test
    void aReferralObjectWithoutRefIsRefusedBySchema() throws Exception {
        try (LDAPConnection c = larch.admin()) {
            LDAPException e = assertThrows(
                    LDAPException.class,
                    () -> c.add(manageDsaIt(new AddRequest(
                            "dn: ou=noref," + SUFFIX,
                            "objectClass: referral",
                            "objectClass: extensibleObject",
                            "ou: noref"))));
            assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, e.getResultCode());
        }
    }

    @Test
    void aSearchBasedOnOrBelowAReferralObjectIsAReferralWithTheDnAdjusted() throws Exception {
        try (LDAPConnection c = larch.anonymous()) {
            assertReferral(
                    refused(c, new SearchRequest(REMOTE, SearchScope.BASE, "(objectClass=*)")), REMOTE, REMOTE_URL);
            assertReferral(
                    refused(c, new SearchRequest(REMOTE, SearchScope.SUB, "(objectClass=*)")), REMOTE, REMOTE_URL);
            // RFC 3296 section 5: the target's RDNs below the referral object go in front of the URL's DN
            assertReferral(
                    refused(c, new SearchRequest(BELOW, SearchScope.BASE, "(objectClass=*)")),
                    REMOTE,
                    "ldap://other.example:389/uid=below,ou=remote,dc=other,dc=com");
            assertReferral(
                    refused(c, new SearchRequest("cn=absent,uid=below," + REMOTE, SearchScope.ONE, "(objectClass=*)")),
                    REMOTE,
                    "ldap://other.example:389/cn=absent,uid=below,ou=remote,dc=other,dc=com");
        }
    }

    @Test
    void aSubtreeSearchSendsAContinuationReferenceAndDoesNotDescend() throws Exception {
        try (LDAPConnection c = larch.anonymous()) {
            SearchResult all = c.search(SUFFIX, SearchScope.SUB, "(objectClass=*)");
            List<String> dns = all.getSearchEntries().stream()
                    .map(SearchResultEntry::getDN)
                    .toList();
            assertFalse(dns.contains(REMOTE));
            assertFalse(dns.contains(BELOW));
            assertTrue(dns.contains(LOCAL));
            assertEquals(
                    1,
                    all.getReferenceCount(),
                    "the hidden referral object is not shown: " + all.getSearchReferences());
            assertArrayEquals(
                    new String[] {REMOTE_URL + "??sub"},
                    all.getSearchReferences().get(0).getReferralURLs());
            assertEquals(dns.size(), all.getEntryCount());

            // indexed: the candidate below the referral object is left out, the referral object is sent whatever the
            // filter
            SearchResult indexed = c.search(SUFFIX, SearchScope.SUB, "(uid=below)");
            assertEquals(0, indexed.getEntryCount());
            assertEquals(1, indexed.getReferenceCount());

            SearchResult oneLevel = c.search(SUFFIX, SearchScope.ONE, "(ou=people)");
            assertEquals(1, oneLevel.getEntryCount());
            assertArrayEquals(
                    new String[] {REMOTE_URL + "??base"},
                    oneLevel.getSearchReferences().get(0).getReferralURLs());
        }
    }

    @Test
    void withTheControlReferralObjectsAreOrdinaryEntries() throws Exception {
        try (LDAPConnection c = larch.anonymous()) {
            SearchResult all = c.search(manageDsaIt(new SearchRequest(SUFFIX, SearchScope.SUB, "(objectClass=*)")));
            List<String> dns = all.getSearchEntries().stream()
                    .map(SearchResultEntry::getDN)
                    .toList();
            assertTrue(dns.containsAll(List.of(REMOTE, BELOW, SECRET, LOCAL)), dns.toString());
            assertEquals(0, all.getReferenceCount());
            SearchResultEntry below = c.search(
                            manageDsaIt(new SearchRequest(BELOW, SearchScope.BASE, "(objectClass=*)")))
                    .getSearchEntries()
                    .get(0);
            assertEquals("Below", below.getAttributeValue("cn"));
        }
    }

    @Test
    void everyOperationOnOrBelowAReferralObjectIsAReferralWithoutTheControlAndWorksWithIt() throws Exception {
        try (LDAPConnection c = larch.admin()) {
            String belowUrl = "ldap://other.example:389/uid=below,ou=remote,dc=other,dc=com";
            assertReferral(refused(c, new CompareRequest(BELOW, "cn", "Below")), REMOTE, belowUrl);
            assertReferral(
                    refused(c, new ModifyRequest(BELOW, new Modification(ModificationType.REPLACE, "sn", "Changed"))),
                    REMOTE,
                    belowUrl);
            assertReferral(
                    refused(
                            c,
                            new ModifyRequest(REMOTE, new Modification(ModificationType.REPLACE, "description", "x"))),
                    REMOTE,
                    REMOTE_URL);
            assertReferral(refused(c, new DeleteRequest(BELOW)), REMOTE, belowUrl);
            assertReferral(refused(c, new ModifyDNRequest(BELOW, "uid=moved", true)), REMOTE, belowUrl);
            assertReferral(
                    refused(
                            c,
                            new AddRequest(
                                    "dn: uid=new," + REMOTE,
                                    "objectClass: inetOrgPerson",
                                    "uid: new",
                                    "cn: n",
                                    "sn: n")),
                    REMOTE,
                    "ldap://other.example:389/uid=new,ou=remote,dc=other,dc=com");
            // moving a local entry below a referral object would move it to another server
            assertEquals(
                    ResultCode.AFFECTS_MULTIPLE_DSAS,
                    refused(c, new ModifyDNRequest(LOCAL, "uid=local", false, REMOTE))
                            .getResultCode());

            assertEquals(
                    ResultCode.COMPARE_TRUE,
                    c.compare(manageDsaIt(new CompareRequest(BELOW, "cn", "Below")))
                            .getResultCode());
            c.modify(
                    manageDsaIt(new ModifyRequest(BELOW, new Modification(ModificationType.REPLACE, "sn", "Changed"))));
            c.add(manageDsaIt(new AddRequest(
                    "dn: uid=new," + REMOTE, "objectClass: inetOrgPerson", "uid: new", "cn: n", "sn: n")));
            c.modifyDN(manageDsaIt(new ModifyDNRequest("uid=new," + REMOTE, "uid=renamed", true)));
            c.delete(manageDsaIt(new DeleteRequest("uid=renamed," + REMOTE)));
            c.modify(manageDsaIt(
                    new ModifyRequest(REMOTE, new Modification(ModificationType.REPLACE, "description", "x"))));
            SearchResultEntry below = c.search(
                            manageDsaIt(new SearchRequest(BELOW, SearchScope.BASE, "(objectClass=*)")))
                    .getSearchEntries()
                    .get(0);
            assertEquals("Changed", below.getAttributeValue("sn"));
        }
    }

    @Test
    void removingTheReferralClassMakesAnOrdinaryEntryAndAddingItBackAReferral() throws Exception {
        String dn = "ou=switch," + SUFFIX;
        try (LDAPConnection c = larch.admin()) {
            c.add(manageDsaIt(new AddRequest(
                    "dn: " + dn, "objectClass: organizationalUnit", "objectClass: extensibleObject", "ou: switch")));
            assertNotNull(c.getEntry(dn));
            c.modify(new ModifyRequest(
                    dn,
                    new Modification(ModificationType.ADD, "objectClass", "referral"),
                    new Modification(ModificationType.ADD, "ref", "ldap://switch.example/")));
            // a URL without a DN stays without one: the client keeps its own target
            assertReferral(assertThrows(LDAPException.class, () -> c.getEntry(dn)), dn, "ldap://switch.example/");
            c.modify(manageDsaIt(new ModifyRequest(
                    dn,
                    new Modification(ModificationType.DELETE, "objectClass", "referral"),
                    new Modification(ModificationType.DELETE, "ref"))));
            assertNotNull(c.getEntry(dn));
            c.delete(dn);
        }
    }

    @Test
    void aClientThatMayNotReadRefIsNotToldOfTheReferral() throws Exception {
        try (LDAPConnection c = larch.anonymous()) {
            LDAPException e = refused(c, new SearchRequest("cn=x," + SECRET, SearchScope.BASE, "(objectClass=*)"));
            assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
            assertEquals(0, e.getReferralURLs().length);
            SearchResult all = c.search(SUFFIX, SearchScope.ONE, "(objectClass=*)");
            for (SearchResultReference reference : all.getSearchReferences()) {
                assertFalse(reference.getReferralURLs()[0].contains("hidden"));
            }
        }
        try (LDAPConnection admin = larch.admin()) {
            assertReferral(
                    refused(admin, new SearchRequest(SECRET, SearchScope.BASE, "(objectClass=*)")),
                    SECRET,
                    "ldap://hidden.example/");
        }
    }

    @Test
    void pagedAndSortedSearchesSendEachReferenceOnce() throws Exception {
        try (LDAPConnection c = larch.anonymous()) {
            int references = 0;
            int entries = 0;
            byte[] cookie = null;
            do {
                SearchRequest page = new SearchRequest(SUFFIX, SearchScope.SUB, "(objectClass=*)");
                page.addControl(
                        new SimplePagedResultsControl(1, cookie == null ? null : new ASN1OctetString(cookie), false));
                SearchResult result = c.search(page);
                references += result.getReferenceCount();
                entries += result.getEntryCount();
                SimplePagedResultsControl response = SimplePagedResultsControl.get(result);
                cookie = response.moreResultsToReturn() ? response.getCookie().getValue() : null;
            } while (cookie != null);
            assertEquals(1, references);
            assertEquals(c.search(SUFFIX, SearchScope.SUB, "(objectClass=*)").getEntryCount(), entries);

            SearchRequest sorted = new SearchRequest(SUFFIX, SearchScope.SUB, "(objectClass=*)");
            sorted.addControl(new ServerSideSortRequestControl(new SortKey("ou")));
            SearchResult result = c.search(sorted);
            assertEquals(1, result.getReferenceCount());
            assertNull(result.getSearchEntry(BELOW));
        }
    }
}
