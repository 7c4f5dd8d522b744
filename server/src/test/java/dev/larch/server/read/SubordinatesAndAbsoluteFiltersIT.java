package dev.larch.server.read;

import java.util.List;

import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the Apache decoder alone would refuse, answered over the wire: the subordinates scope, RFC
 * 4526's absolute true and false filters, and an unknown extended request named in its error.
 */
class SubordinatesAndAbsoluteFiltersIT {
    static final String UNIT = "ou=subs," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch =
            LarchServerExtension.withBaseTree().importing(Ldif.bulkUnit(UNIT, 5, i -> "sub " + i));

    private static List<String> dns(SearchResult result) {
        return result.getSearchEntries().stream().map(SearchResultEntry::getDN).toList();
    }

    @Test
    void subordinatesScopeIsTheSubtreeWithoutItsBase() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            List<String> subordinates = dns(c.search(UNIT, SearchScope.SUBORDINATE_SUBTREE, "(objectClass=*)", "1.1"));
            assertEquals(5, subordinates.size());
            assertFalse(subordinates.contains(UNIT));
            // indexed candidates too
            assertEquals(
                    5,
                    c.search(UNIT, SearchScope.SUBORDINATE_SUBTREE, "(uid=u*)", "1.1")
                            .getEntryCount());
            assertEquals(
                    0,
                    c.search(UNIT, SearchScope.SUBORDINATE_SUBTREE, "(ou=subs)", "1.1")
                            .getEntryCount());
        }
    }

    @Test
    void absoluteTrueMatchesEverythingAndAbsoluteFalseNothing() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(
                    6,
                    c.search(new SearchRequest(UNIT, SearchScope.SUB, Filter.createANDFilter(), "1.1"))
                            .getEntryCount());
            assertEquals(
                    0,
                    c.search(new SearchRequest(UNIT, SearchScope.SUB, Filter.createORFilter(), "1.1"))
                            .getEntryCount());
            assertEquals(
                    6,
                    c.search(new SearchRequest(
                                    UNIT, SearchScope.SUB, Filter.createNOTFilter(Filter.createORFilter()), "1.1"))
                            .getEntryCount());
            assertTrue(c.getRootDSE().hasAttributeValue("supportedFeatures", "1.3.6.1.4.1.4203.1.5.3"));
        }
    }

    @Test
    void unknownExtendedRequestIsProtocolErrorNamingItsOid() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPException e = assertThrows(
                    LDAPException.class, () -> c.processExtendedOperation(new ExtendedRequest("1.2.3.4.5")));
            assertEquals(ResultCode.PROTOCOL_ERROR, e.getResultCode());
            assertTrue(e.getDiagnosticMessage().contains("1.2.3.4.5"), e.getDiagnosticMessage());
        }
    }
}
