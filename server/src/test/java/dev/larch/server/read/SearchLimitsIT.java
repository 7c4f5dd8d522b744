package dev.larch.server.read;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Size limits from the request and the configuration, the look-through limit on unindexed
 * searches, and the administrator held to the server's limits (by default; see {@link
 * AdminExemptFromSearchLimitsIT}).
 */
class SearchLimitsIT {
    static final int ENTRIES = 300;
    static final int SIZE_LIMIT = 20;
    static final int LOOK_THROUGH_LIMIT = 100;
    static final String BULK = "ou=bulk," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("limits.size-limit", SIZE_LIMIT)
                    .set("limits.time-limit-seconds", 0)
                    .set("limits.look-through-limit", LOOK_THROUGH_LIMIT)
                    .set("limits.apply-to-admin", true))
            .importing(bulk());

    /** The bulk unit and its {@value #ENTRIES} people. */
    static String bulk() {
        return Ldif.bulkUnit(BULK, ENTRIES, i -> "entry number " + i);
    }

    static SearchRequest all(int sizeLimit) throws Exception {
        SearchRequest r = new SearchRequest(BULK, SearchScope.ONE, "(objectClass=inetOrgPerson)", "1.1");
        r.setSizeLimit(sizeLimit);
        return r;
    }

    @Test
    void requestSizeLimitSendsThatManyEntriesThenSizeLimitExceeded() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(all(7)));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            assertEquals(7, e.getEntryCount());
        }
    }

    @Test
    void configSizeLimitCapsAnonymousSearches() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(all(0)));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            assertEquals(SIZE_LIMIT, e.getEntryCount());
            // a client may ask for less, never for more
            e = assertThrows(LDAPSearchException.class, () -> c.search(all(SIZE_LIMIT * 10)));
            assertEquals(SIZE_LIMIT, e.getEntryCount());
            e = assertThrows(LDAPSearchException.class, () -> c.search(all(3)));
            assertEquals(3, e.getEntryCount());
        }
    }

    @Test
    void resultExactlyAtTheSizeLimitIsSuccess() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchRequest r = new SearchRequest(BULK, SearchScope.ONE, "(|(uid=u0001)(uid=u0002)(uid=u0003))", "1.1");
            r.setSizeLimit(3);
            assertEquals(ResultCode.SUCCESS, c.search(r).getResultCode());
        }
    }

    @Test
    void unindexedSearchPastTheLookThroughLimitIsAdminLimitExceeded() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPSearchException e = assertThrows(
                    LDAPSearchException.class, () -> c.search(BULK, SearchScope.SUB, "(description=*needle*)", "1.1"));
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e.getResultCode());
            // an indexed search finds one entry among thousands without hitting the limit
            assertEquals(
                    1, c.search(BULK, SearchScope.SUB, "(uid=u0299)", "1.1").getEntryCount());
        }
    }

    @Test
    void administratorIsHeldToTheLimitsByDefault() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(all(0)));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            assertEquals(SIZE_LIMIT, e.getEntryCount());
            e = assertThrows(
                    LDAPSearchException.class, () -> c.search(BULK, SearchScope.SUB, "(description=*needle*)", "1.1"));
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e.getResultCode());
            assertTrue(e.getDiagnosticMessage().contains("(limits.look-through-limit)"), e.getDiagnosticMessage());
        }
    }
}
