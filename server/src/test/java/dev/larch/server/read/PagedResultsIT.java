package dev.larch.server.read;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Simple paged results (RFC 2696) over the wire: every entry once across pages, whether the search
 * walks its scope or reads candidates from an index; cookies that work once, on their own connection,
 * for their own request; abandoning with a page size of 0; the per-connection bound; the size limits.
 */
class PagedResultsIT {
    static final int ENTRIES = 300;
    static final int SERVER_SIZE_LIMIT = 20;
    static final int LOOK_THROUGH_LIMIT = 100;
    static final int MAX_OPEN = 3;
    static final String BULK = "ou=paged," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("limits.size-limit", SERVER_SIZE_LIMIT)
                    .set("limits.time-limit-seconds", 0)
                    .set("limits.look-through-limit", LOOK_THROUGH_LIMIT)
                    .set("limits.apply-to-admin", true)
                    .set("limits.max-paged-searches-per-connection", MAX_OPEN))
            .importing(Ldif.bulkUnit(BULK, ENTRIES, i -> "paged " + i));

    /** Pages through {@code request} with pages of {@code pageSize}; returns the DNs in order. */
    static List<String> pageThrough(LDAPConnection c, SearchRequest request, int pageSize) throws Exception {
        List<String> dns = new ArrayList<>();
        ASN1OctetString cookie = null;
        for (int pages = 0; pages < 10_000; pages++) {
            request.setControls(new SimplePagedResultsControl(pageSize, cookie, true));
            SearchResult result = c.search(request);
            assertEquals(ResultCode.SUCCESS, result.getResultCode());
            assertTrue(result.getEntryCount() <= pageSize, "page of " + result.getEntryCount());
            for (SearchResultEntry e : result.getSearchEntries()) {
                dns.add(e.getDN());
            }
            SimplePagedResultsControl response = SimplePagedResultsControl.get(result);
            assertNotNull(response, "every page carries the paged results control");
            if (!response.moreResultsToReturn()) {
                return dns;
            }
            cookie = response.getCookie();
        }
        throw new AssertionError("paging did not end");
    }

    static void assertEachOnce(List<String> dns, int expected) {
        Set<String> distinct = new HashSet<>(dns);
        assertEquals(dns.size(), distinct.size(), "an entry came twice");
        assertEquals(expected, dns.size());
    }

    @Test
    void subtreeWalkPastTheLookThroughLimitComesWholeInPages() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            // Unpaged, the walk of 301 entries stops at the look-through limit of 100...
            SearchRequest walk = new SearchRequest(BULK, SearchScope.SUB, "(description=paged*)", "1.1");
            assertThrows(LDAPSearchException.class, () -> c.search(walk));
            // ...paged, each page is a search of its own and resumes where the last one stopped.
            assertEachOnce(pageThrough(c, walk, 17), ENTRIES);
        }
    }

    @Test
    void oneLevelAndIndexedCandidatesComeWholeInPages() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            assertEachOnce(
                    pageThrough(c, new SearchRequest(BULK, SearchScope.ONE, "(objectClass=*)", "1.1"), 19), ENTRIES);
            // uid is equality- and substring-indexed: the planner hands a candidate list.
            assertEachOnce(pageThrough(c, new SearchRequest(BULK, SearchScope.SUB, "(uid=u01*)", "1.1"), 7), 100);
            assertEachOnce(
                    pageThrough(c, new SearchRequest(TestServer.SUFFIX, SearchScope.SUB, "(uid=u02*)", "1.1"), 9), 100);
        }
    }

    @Test
    void lastPageHasAnEmptyCookieEvenWhenItIsFull() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            SearchRequest r = new SearchRequest(BULK, SearchScope.SUB, "(uid=u000*)", "1.1");
            r.setControls(new SimplePagedResultsControl(10, null, true));
            SearchResult result = c.search(r);
            assertEquals(10, result.getEntryCount());
            assertFalse(SimplePagedResultsControl.get(result).moreResultsToReturn());
        }
    }

    @Test
    void entriesDeletedBetweenPagesDoNotStopThePaging() throws Exception {
        String unit = "ou=shrinking," + TestServer.SUFFIX;
        larch.server().add(Ldif.bulkUnit(unit, 30, i -> "shrinking " + i));
        try (LDAPConnection c = larch.server().admin()) {
            SearchRequest r = new SearchRequest(unit, SearchScope.ONE, "(objectClass=*)", "1.1");
            r.setControls(new SimplePagedResultsControl(10, null, true));
            SearchResult first = c.search(r);
            List<String> seen = new ArrayList<>();
            first.getSearchEntries().forEach(e -> seen.add(e.getDN()));
            // The last entry sent and the one after it go before the next page.
            c.delete(seen.get(9));
            c.delete("uid=u0010," + unit);
            ASN1OctetString cookie = SimplePagedResultsControl.get(first).getCookie();
            for (boolean more = true; more; ) {
                r.setControls(new SimplePagedResultsControl(10, cookie, true));
                SearchResult page = c.search(r);
                page.getSearchEntries().forEach(e -> seen.add(e.getDN()));
                more = SimplePagedResultsControl.get(page).moreResultsToReturn();
                cookie = SimplePagedResultsControl.get(page).getCookie();
            }
            assertEachOnce(seen, 29);
        }
    }

    /**
     * Every DN of the tree, read by subtree walks below each of the suffix's children: walks in tree
     * order, not the whole-tree walk in ID order a search based at the suffix makes.
     */
    private static Set<String> treeByUnits(LDAPConnection c) throws Exception {
        Set<String> dns = new HashSet<>(
                pageThrough(c, new SearchRequest(TestServer.SUFFIX, SearchScope.BASE, "(objectClass=*)", "1.1"), 20));
        for (String child :
                pageThrough(c, new SearchRequest(TestServer.SUFFIX, SearchScope.ONE, "(objectClass=*)", "1.1"), 20)) {
            dns.addAll(pageThrough(c, new SearchRequest(child, SearchScope.SUB, "(objectClass=*)", "1.1"), 20));
        }
        return dns;
    }

    @Test
    void aWalkOfTheWholeTreeComesWholeInPagesWhileEntriesComeAndGo() throws Exception {
        // Based at the suffix with an unindexed filter, the walk reads the entries in ID order and each
        // page resumes after the last ID sent.
        String unit = "ou=churning," + TestServer.SUFFIX;
        larch.server().add(Ldif.bulkUnit(unit, 30, i -> "churning " + i));
        try (LDAPConnection c = larch.server().admin()) {
            Set<String> before = treeByUnits(c);
            SearchRequest r = new SearchRequest(TestServer.SUFFIX, SearchScope.SUB, "(objectClass=*)", "1.1");
            String unsent = "uid=u0029," + unit;
            String added = "uid=late," + unit;
            List<String> seen = new ArrayList<>();
            ASN1OctetString cookie = null;
            boolean changed = false;
            for (boolean more = true; more; ) {
                r.setControls(new SimplePagedResultsControl(SERVER_SIZE_LIMIT, cookie, true));
                SearchResult page = c.search(r);
                page.getSearchEntries().forEach(e -> seen.add(e.getDN()));
                more = SimplePagedResultsControl.get(page).moreResultsToReturn();
                cookie = SimplePagedResultsControl.get(page).getCookie();
                String last = seen.get(seen.size() - 1);
                if (!changed && more && last.endsWith("," + unit)) {
                    // A page ended inside the unit (31 entries, in ID order, pages of 20): the last entry
                    // sent and one not yet sent go, a new one comes, before the next page.
                    assertFalse(seen.contains(unsent));
                    c.delete(last);
                    c.delete(unsent);
                    c.add("dn: " + added, "objectClass: inetOrgPerson", "uid: late", "cn: Late", "sn: Late");
                    changed = true;
                }
            }
            assertTrue(changed, "no page ended inside the unit");
            assertEquals(added, seen.get(seen.size() - 1), "in ID order the newest entry comes last");
            Set<String> expected = new HashSet<>(before);
            expected.remove(unsent);
            expected.add(added);
            assertEachOnce(seen, expected.size());
            assertEquals(expected, new HashSet<>(seen));

            // The client's size limit counts over the walk's pages too.
            SearchRequest limited = new SearchRequest(TestServer.SUFFIX, SearchScope.SUB, "(objectClass=*)", "1.1");
            limited.setSizeLimit(SERVER_SIZE_LIMIT + 5);
            limited.setControls(new SimplePagedResultsControl(SERVER_SIZE_LIMIT, null, true));
            SearchResult firstOfTwo = c.search(limited);
            assertEquals(SERVER_SIZE_LIMIT, firstOfTwo.getEntryCount());
            limited.setControls(new SimplePagedResultsControl(
                    SERVER_SIZE_LIMIT, SimplePagedResultsControl.get(firstOfTwo).getCookie(), true));
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(limited));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            assertEquals(5, e.getEntryCount());
        }
    }

    @Test
    void aWalkOfTheWholeTreeInPagesLeavesOutWhatTheClientMayNotSee() throws Exception {
        String secret = "ou=secret," + TestServer.SUFFIX;
        larch.server()
                .add("dn: " + secret + "\nobjectClass: organizationalUnit\nou: secret\n"
                        + "aci: (targetattr=\"*\")(version 3.0; acl \"hidden\"; deny (read, search)"
                        + " userdn=\"ldap:///anyone\";)\n\n"
                        + "dn: cn=inside," + secret + "\nobjectClass: device\ncn: inside\n\n"
                        + "dn: cn=deeper,cn=inside," + secret + "\nobjectClass: device\ncn: deeper\n");
        Set<String> visible;
        try (LDAPConnection admin = larch.server().admin()) {
            visible = treeByUnits(admin);
        }
        assertTrue(visible.contains("cn=deeper,cn=inside," + secret));
        visible.removeIf(dn -> dn.endsWith(secret));
        try (LDAPConnection c = larch.server().anonymous()) {
            // Pages of 50 asked for, cut to the server's size limit of 20; the hidden entries count for neither.
            List<String> all =
                    pageThrough(c, new SearchRequest(TestServer.SUFFIX, SearchScope.SUB, "(objectClass=*)", "1.1"), 50);
            assertEachOnce(all, visible.size());
            assertEquals(visible, new HashSet<>(all));
        }
    }

    @Test
    void aCookieWorksOnceOnItsConnectionForItsRequest() throws Exception {
        try (LDAPConnection c = larch.server().admin();
                LDAPConnection other = larch.server().admin()) {
            SearchRequest r = new SearchRequest(BULK, SearchScope.ONE, "(objectClass=*)", "1.1");
            r.setControls(new SimplePagedResultsControl(5, null, true));
            ASN1OctetString cookie = SimplePagedResultsControl.get(c.search(r)).getCookie();

            SearchRequest changed = new SearchRequest(BULK, SearchScope.ONE, "(uid=*)", "1.1");
            changed.setControls(new SimplePagedResultsControl(5, cookie, true));
            assertRefused(c, changed, "different search request");

            r.setControls(new SimplePagedResultsControl(5, cookie, true));
            assertRefused(other, r, "unknown paged results cookie");

            // The mismatch above did not consume it... the foreign connection could not either; use it once.
            SearchRequest again = new SearchRequest(BULK, SearchScope.ONE, "(objectClass=*)", "1.1");
            again.setControls(new SimplePagedResultsControl(5, null, true));
            ASN1OctetString fresh =
                    SimplePagedResultsControl.get(c.search(again)).getCookie();
            again.setControls(new SimplePagedResultsControl(5, fresh, true));
            assertEquals(5, c.search(again).getEntryCount());
            assertRefused(c, again, "unknown paged results cookie");
        }
    }

    @Test
    void pageSizeZeroAbandonsThePagedSearch() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            SearchRequest r = new SearchRequest(BULK, SearchScope.ONE, "(objectClass=*)", "1.1");
            r.setControls(new SimplePagedResultsControl(5, null, true));
            ASN1OctetString cookie = SimplePagedResultsControl.get(c.search(r)).getCookie();
            r.setControls(new SimplePagedResultsControl(0, cookie, true));
            SearchResult abandoned = c.search(r);
            assertEquals(0, abandoned.getEntryCount());
            assertFalse(SimplePagedResultsControl.get(abandoned).moreResultsToReturn());
            r.setControls(new SimplePagedResultsControl(5, cookie, true));
            assertRefused(c, r, "unknown paged results cookie");
        }
    }

    @Test
    void aConnectionKeepsAtMostTheConfiguredOpenPagedSearches() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            List<ASN1OctetString> cookies = new ArrayList<>();
            SearchRequest r = new SearchRequest(BULK, SearchScope.ONE, "(objectClass=*)", "1.1");
            for (int i = 0; i <= MAX_OPEN; i++) {
                r.setControls(new SimplePagedResultsControl(2, null, true));
                cookies.add(SimplePagedResultsControl.get(c.search(r)).getCookie());
            }
            // The oldest was forgotten to make room; the newest still works.
            r.setControls(new SimplePagedResultsControl(2, cookies.get(0), true));
            assertRefused(c, r, "max-paged-searches-per-connection");
            r.setControls(new SimplePagedResultsControl(2, cookies.get(MAX_OPEN), true));
            assertEquals(2, c.search(r).getEntryCount());
        }
    }

    @Test
    void serverSizeLimitCapsThePageAndTheClientsSizeLimitCountsOverAllPages() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            // The anonymous client asks for pages of 50; the server's size limit of 20 cuts them.
            List<String> all = pageThrough(c, new SearchRequest(BULK, SearchScope.ONE, "(objectClass=*)", "1.1"), 50);
            assertEachOnce(all, ENTRIES);
        }
        try (LDAPConnection c = larch.server().admin()) {
            SearchRequest r = new SearchRequest(BULK, SearchScope.ONE, "(objectClass=*)", "1.1");
            r.setSizeLimit(15);
            r.setControls(new SimplePagedResultsControl(10, null, true));
            SearchResult first = c.search(r);
            assertEquals(10, first.getEntryCount());
            r.setControls(new SimplePagedResultsControl(
                    10, SimplePagedResultsControl.get(first).getCookie(), true));
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(r));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            assertEquals(5, e.getEntryCount());
            assertTrue(e.getMessage().contains("over all pages"), e.getMessage());
        }
    }

    @Test
    void rootDseAnswersInOnePage() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchRequest r = new SearchRequest("", SearchScope.BASE, "(objectClass=*)", "supportedControl");
            r.setControls(new SimplePagedResultsControl(10, null, true));
            SearchResult result = c.search(r);
            assertEquals(1, result.getEntryCount());
            assertFalse(SimplePagedResultsControl.get(result).moreResultsToReturn());
            assertTrue(result.getSearchEntries()
                    .get(0)
                    .hasAttributeValue("supportedControl", SimplePagedResultsControl.PAGED_RESULTS_OID));
        }
    }

    private static void assertRefused(LDAPConnection c, SearchRequest r, String why) {
        LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(r));
        assertEquals(ResultCode.UNWILLING_TO_PERFORM, e.getResultCode());
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }
}
