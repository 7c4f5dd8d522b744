package dev.larch.server.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ServerSideSortRequestControl;
import com.unboundid.ldap.sdk.controls.ServerSideSortResponseControl;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import com.unboundid.ldap.sdk.controls.SortKey;
import com.unboundid.ldap.sdk.controls.VirtualListViewRequestControl;
import com.unboundid.ldap.sdk.controls.VirtualListViewResponseControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Server-side sort (RFC 2891) over the wire: the order of the ordering rule (or the one paired with
 * the equality rule), reversed, by several keys, missing values last; the sortResult of what cannot
 * be sorted, critical or not; the ceiling on sorted entries; sorting with paged results.
 */
class ServerSideSortIT {
    static final String SORTED = "ou=sorted," + TestServer.SUFFIX;
    static final int PEOPLE = 60;
    static final int MAX_SORT = 100;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("limits.max-sort-entries", MAX_SORT))
            .importing(people());

    /** People whose sn mixes case and repeats, whose uidNumber orders differently as a number than as text. */
    static String people() {
        StringBuilder ldif = new StringBuilder("dn: " + SORTED + "\nobjectClass: organizationalUnit\nou: sorted\n\n");
        for (int i = 0; i < PEOPLE; i++) {
            String uid = String.format(Locale.ROOT, "s%02d", i);
            ldif.append("dn: uid=")
                    .append(uid)
                    .append(',')
                    .append(SORTED)
                    .append('\n')
                    .append("objectClass: inetOrgPerson\nobjectClass: posixAccount\nuid: ")
                    .append(uid)
                    .append("\ncn: Person ")
                    .append(i)
                    .append("\nsn: ")
                    .append(i % 2 == 0 ? "smith" : "Jones")
                    .append((i * 7) % 10)
                    .append("\nuidNumber: ")
                    .append((i * 37) % 1000)
                    .append("\ngidNumber: 100\nhomeDirectory: /home/")
                    .append(uid)
                    .append('\n');
            if (i % 5 != 0) {
                ldif.append("givenName: G").append((char) ('a' + (i * 3) % 26)).append('\n');
            }
            ldif.append('\n');
        }
        return ldif.toString();
    }

    static SearchRequest people(ServerSideSortRequestControl sort) throws Exception {
        SearchRequest r =
                new SearchRequest(SORTED, SearchScope.ONE, "(uid=*)", "sn", "cn", "uid", "uidNumber", "givenName");
        r.addControl(sort);
        return r;
    }

    static ServerSideSortResponseControl sortResult(SearchResult result) throws Exception {
        ServerSideSortResponseControl control = ServerSideSortResponseControl.get(result);
        assertNotNull(control, "the search result carries the sortResult control");
        return control;
    }

    @Test
    void sortsByTheOrderingRuleOfTheEqualityRuleCaseIgnoringAndReversed() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchResult up =
                    c.search(people(new ServerSideSortRequestControl(true, new SortKey("sn"), new SortKey("cn"))));
            assertEquals(PEOPLE, up.getEntryCount());
            assertEquals(ResultCode.SUCCESS, sortResult(up).getResultCode());
            List<String> keys = keys(up, "sn", "cn");
            List<String> expected = new ArrayList<>(keys);
            expected.sort(Comparator.naturalOrder());
            assertEquals(expected, keys, "ordered by sn ignoring case, then by cn");

            SearchResult down = c.search(people(new ServerSideSortRequestControl(new SortKey("sn", true))));
            List<String> sns = keys(down, "sn");
            List<String> reversed = new ArrayList<>(sns);
            reversed.sort(Comparator.reverseOrder());
            assertEquals(reversed, sns);
        }
    }

    @Test
    void sortsIntegersAsNumbersAndMissingValuesLast() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            List<Integer> numbers = new ArrayList<>();
            for (SearchResultEntry e : c.search(people(new ServerSideSortRequestControl(new SortKey("uidNumber"))))
                    .getSearchEntries()) {
                numbers.add(Integer.parseInt(e.getAttributeValue("uidNumber")));
            }
            List<Integer> expected = new ArrayList<>(numbers);
            expected.sort(Comparator.naturalOrder());
            assertEquals(expected, numbers);

            for (boolean reverse : new boolean[] {false, true}) {
                List<SearchResultEntry> entries = c.search(
                                people(new ServerSideSortRequestControl(new SortKey("givenName", reverse))))
                        .getSearchEntries();
                int withGivenName = PEOPLE - PEOPLE / 5;
                for (int i = 0; i < PEOPLE; i++) {
                    assertEquals(i < withGivenName, entries.get(i).hasAttribute("givenName"), "entry " + i);
                }
            }
        }
    }

    @Test
    void anUnsortableCriticalKeyFailsTheSearchAndANonCriticalOneIsIgnored() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPSearchException unknown = assertThrows(
                    LDAPSearchException.class,
                    () -> c.search(people(new ServerSideSortRequestControl(true, new SortKey("noSuchThing")))));
            assertEquals(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION, unknown.getResultCode());
            assertEquals(
                    ResultCode.NO_SUCH_ATTRIBUTE,
                    sortResult(unknown.getSearchResult()).getResultCode());

            LDAPSearchException unordered = assertThrows(
                    LDAPSearchException.class,
                    () -> c.search(people(new ServerSideSortRequestControl(true, new SortKey("objectClass")))));
            assertEquals(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION, unordered.getResultCode());
            assertEquals(
                    ResultCode.INAPPROPRIATE_MATCHING,
                    sortResult(unordered.getSearchResult()).getResultCode());
            assertTrue(unordered.getMessage().contains("objectClass"), unordered.getMessage());

            SearchResult ignored =
                    c.search(people(new ServerSideSortRequestControl(false, new SortKey("objectClass"))));
            assertEquals(PEOPLE, ignored.getEntryCount());
            assertEquals(ResultCode.INAPPROPRIATE_MATCHING, sortResult(ignored).getResultCode());
        }
    }

    @Test
    void moreEntriesThanTheCeilingIsAdminLimitExceeded() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            // The whole tree holds more than MAX_SORT entries once the base tree is counted in.
            for (int i = 0; i < MAX_SORT; i++) {
                c.add(
                        "dn: uid=extra" + i + "," + SORTED,
                        "objectClass: inetOrgPerson",
                        "uid: extra" + i,
                        "cn: x",
                        "sn: x");
            }
            SearchRequest all = new SearchRequest(SORTED, SearchScope.ONE, "(uid=*)", "1.1");
            all.addControl(new ServerSideSortRequestControl(new SortKey("sn")));
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(all));
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e.getResultCode());
            assertTrue(e.getMessage().contains("limits.max-sort-entries"), e.getMessage());
            assertEquals(
                    ResultCode.ADMIN_LIMIT_EXCEEDED,
                    sortResult(e.getSearchResult()).getResultCode());
            for (int i = 0; i < MAX_SORT; i++) {
                c.delete("uid=extra" + i + "," + SORTED);
            }
        }
    }

    @Test
    void sortedPagesComeInOneOrder() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            ServerSideSortRequestControl bySn = new ServerSideSortRequestControl(new SortKey("sn"), new SortKey("uid"));
            SearchRequest whole = people(bySn);
            List<String> unpaged = keys(c.search(whole), "sn", "uid");

            List<String> paged = new ArrayList<>();
            ASN1OctetString cookie = null;
            do {
                SearchRequest page = people(bySn);
                page.addControl(new SimplePagedResultsControl(7, cookie, true));
                SearchResult result = c.search(page);
                paged.addAll(keys(result, "sn", "uid"));
                cookie = SimplePagedResultsControl.get(result).getCookie();
            } while (cookie.getValueLength() > 0);
            assertEquals(unpaged, paged);
            assertNotEquals(unpaged.get(0), unpaged.get(PEOPLE - 1));
        }
    }

    @Test
    void virtualListViewByOffsetAndByValue() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchRequest all = people(new ServerSideSortRequestControl(new SortKey("uidNumber")));
            List<String> sorted = keys(c.search(all), "uidNumber");

            SearchRequest byOffset = people(new ServerSideSortRequestControl(new SortKey("uidNumber")));
            byOffset.addControl(new VirtualListViewRequestControl(10, 2, 3, 0, null));
            SearchResult window = c.search(byOffset);
            assertEquals(sorted.subList(7, 13), keys(window, "uidNumber"));
            VirtualListViewResponseControl response = VirtualListViewResponseControl.get(window);
            assertEquals(10, response.getTargetPosition());
            assertEquals(PEOPLE, response.getContentCount());
            assertEquals(ResultCode.SUCCESS, response.getResultCode());

            // The first entry at or after 500, and one before it.
            SearchRequest byValue = people(new ServerSideSortRequestControl(new SortKey("uidNumber")));
            byValue.addControl(new VirtualListViewRequestControl("500", 1, 1, null));
            List<String> around = keys(c.search(byValue), "uidNumber");
            int first = 0;
            while (Integer.parseInt(sorted.get(first).trim()) < 500) {
                first++;
            }
            assertEquals(sorted.subList(first - 1, first + 2), around);

            SearchRequest unsorted = people(new ServerSideSortRequestControl(new SortKey("uidNumber")));
            unsorted.setControls(new VirtualListViewRequestControl(1, 0, 5, 0, null));
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(unsorted));
            assertEquals(
                    ResultCode.SORT_CONTROL_MISSING,
                    VirtualListViewResponseControl.get(e.getSearchResult()).getResultCode());
        }
    }

    /** Each entry's values of {@code attributes}, lower-cased, each ended by NUL so a prefix sorts first. */
    static List<String> keys(SearchResult result, String... attributes) {
        List<String> out = new ArrayList<>();
        for (SearchResultEntry e : result.getSearchEntries()) {
            StringBuilder key = new StringBuilder();
            for (String attribute : attributes) {
                key.append(String.valueOf(e.getAttributeValue(attribute)).toLowerCase(Locale.ROOT))
                        .append('\u0000');
            }
            out.add(key.toString());
        }
        return out;
    }
}
