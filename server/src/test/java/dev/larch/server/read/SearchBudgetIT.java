package dev.larch.server.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.larch.server.read.SearchLimitsIT.BULK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Huge filters through a real client, on the default search limits: a filter past
 * {@code listen.max-filter-elements} is refused, one within it but reading too much from the
 * indexes stops at the look-through limit, and meanwhile another client's lookups stay correct.
 */
class SearchBudgetIT {
    private static final int MAX_FILTER_ELEMENTS = 200_000;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("listen.max-filter-elements", MAX_FILTER_ELEMENTS)
                    // The administrator is the hostile client here: held to the limits like anyone.
                    .set("limits.apply-to-admin", true))
            .importing(SearchLimitsIT.bulk());

    /** {@code (|(cn=user 0*)(cn=user 1*)...)}: each term a prefix read matching up to 111 of the 300 people. */
    private static Filter prefixOr(int terms) {
        List<Filter> or = new ArrayList<>(terms);
        for (int i = 0; i < terms; i++) {
            or.add(Filter.createSubstringFilter("cn", "User " + (i % 300), null, null));
        }
        return Filter.createORFilter(or);
    }

    private static String uid(int i) {
        return String.format(Locale.ROOT, "u%04d", i);
    }

    @Test
    void aHundredThousandTermOrStopsAtTheLookThroughLimitWhileOthersKeepGettingAnswers() throws Exception {
        try (LDAPConnection hostile = larch.server().admin();
                LDAPConnection neighbour = larch.server().anonymous()) {
            SearchRequest huge = new SearchRequest(BULK, SearchScope.SUB, prefixOr(100_000), "1.1");
            CompletableFuture<LDAPSearchException> answer = CompletableFuture.supplyAsync(() -> {
                try {
                    hostile.search(huge);
                    return null;
                } catch (LDAPSearchException e) {
                    return e;
                }
            });
            for (int i = 0; i < 50; i++) {
                String expected = "uid=" + uid(i * 5) + "," + BULK;
                SearchResult found = neighbour.search(BULK, SearchScope.SUB, "(uid=" + uid(i * 5) + ")", "1.1");
                assertEquals(1, found.getEntryCount());
                assertEquals(
                        expected.toLowerCase(Locale.ROOT),
                        found.getSearchEntries().get(0).getDN().toLowerCase(Locale.ROOT));
            }
            LDAPSearchException e = answer.get();
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e == null ? ResultCode.SUCCESS : e.getResultCode());
            assertTrue(e.getDiagnosticMessage().contains("(limits.look-through-limit)"), e.getDiagnosticMessage());
            assertEquals(0, e.getEntryCount(), "planning stops before any entry is sent");
        }
    }

    @Test
    void aFilterPastTheElementLimitIsRefusedAndTheConnectionStaysUsable() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            // 200,000 terms and the OR itself: one element too many.
            SearchRequest tooLarge = new SearchRequest(BULK, SearchScope.SUB, prefixOr(MAX_FILTER_ELEMENTS), "1.1");
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(tooLarge));
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e.getResultCode());
            assertEquals(
                    "filter has more than " + MAX_FILTER_ELEMENTS + " elements (listen.max-filter-elements)",
                    e.getDiagnosticMessage());
            assertEquals(
                    1, c.search(BULK, SearchScope.SUB, "(uid=u0042)", "1.1").getEntryCount());
        }
    }

    @Test
    void anOrOfThousandsOfLookupsLikeSssdSendsFindsExactlyItsMatches() throws Exception {
        // 3,000 uid terms, one in ten naming one of the 300 people: an anonymous client, default limits.
        List<Filter> terms = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            terms.add(Filter.createEqualityFilter("uid", i % 10 == 0 ? uid(i / 10) : "absent" + i));
        }
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchResult result =
                    c.search(new SearchRequest(BULK, SearchScope.SUB, Filter.createORFilter(terms), "uid"));
            assertEquals(ResultCode.SUCCESS, result.getResultCode());
            assertEquals(300, result.getEntryCount());
        }
    }
}
