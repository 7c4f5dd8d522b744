package dev.larch.server.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.RootDSE;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.schema.Schema;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.cursor.EntryCursor;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.apache.directory.ldap.client.api.future.SearchFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Search over the wire (RFC 4511 section 4.5): scopes, every filter type with each attribute's
 * matching rules, attribute selection, the root DSE and the subschema subentry.
 */
class SearchHandlerIT {
    private static final String SUFFIX = TestServer.SUFFIX;
    private static final String JDOE = "uid=jdoe,ou=people," + SUFFIX;

    static final String PEOPLE_LDIF = """
            dn: uid=jdoe,ou=people,dc=example,dc=com
            objectClass: top
            objectClass: person
            objectClass: organizationalPerson
            objectClass: inetOrgPerson
            uid: jdoe
            cn: John Doe
            sn: Doe
            givenName: John
            mail: jdoe@example.com
            telephoneNumber: +1 555 0100
            description: the first person
            userPassword: {SSHA256}not-a-real-hash

            dn: uid=asmith,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: asmith
            cn: Alice Smith
            sn: Smith
            mail: asmith@example.com
            telephoneNumber: +1 555 0101

            dn: uid=bjones,ou=people,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: bjones
            cn: Bob Jones
            sn: Jones
            title: Engineer

            dn: cn=staff,ou=groups,dc=example,dc=com
            objectClass: groupOfNames
            cn: staff
            member: uid=jdoe,ou=people,dc=example,dc=com
            member: uid=asmith,ou=people,dc=example,dc=com
            """;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("index.createTimestamp", "ordering"))
            .adding(PEOPLE_LDIF);

    /** Short names ("uid=jdoe,ou=people", "" for the suffix) to full, normalized DNs. */
    private static Set<String> expected(String shortNames) {
        Set<String> out = new TreeSet<>();
        if (shortNames.isEmpty()) {
            return out;
        }
        for (String s : shortNames.split(";")) {
            out.add(normalize(s.equals("suffix") ? SUFFIX : s + "," + SUFFIX));
        }
        return out;
    }

    private static String normalize(String dn) {
        try {
            return new DN(dn).toNormalizedString();
        } catch (Exception e) {
            throw new IllegalArgumentException(dn, e);
        }
    }

    private static Set<String> dns(SearchResult result) {
        return result.getSearchEntries().stream()
                .map(e -> normalize(e.getDN()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static Stream<Arguments> filters() {
        String all = "suffix;ou=people;ou=groups;uid=jdoe,ou=people;uid=asmith,ou=people;uid=bjones,ou=people;"
                + "cn=staff,ou=groups";
        String persons = "uid=jdoe,ou=people;uid=asmith,ou=people;uid=bjones,ou=people";
        return Stream.of(
                // scopes
                Arguments.of("suffix", SearchScope.BASE, "(objectClass=*)", "suffix"),
                Arguments.of("suffix", SearchScope.ONE, "(objectClass=*)", "ou=people;ou=groups"),
                Arguments.of("ou=people", SearchScope.SUB, "(objectClass=*)", "ou=people;" + persons),
                Arguments.of("ou=people", SearchScope.ONE, "(objectClass=*)", persons),
                Arguments.of("suffix", SearchScope.SUB, "(objectClass=*)", all),
                Arguments.of("ou=groups", SearchScope.SUB, "(uid=jdoe)", ""),
                Arguments.of("uid=jdoe,ou=people", SearchScope.BASE, "(uid=asmith)", ""),
                // equality, with each attribute's own rule
                Arguments.of("suffix", SearchScope.SUB, "(uid=jdoe)", "uid=jdoe,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(cn=JOHN  doe)", "uid=jdoe,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(telephoneNumber=+15550100)", "uid=jdoe,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(telephoneNumber=+1 555 01 01)", "uid=asmith,ou=people"),
                Arguments.of(
                        "suffix",
                        SearchScope.SUB,
                        "(member=UID=jdoe, OU=People,dc=example,dc=com)",
                        "cn=staff,ou=groups"),
                Arguments.of("suffix", SearchScope.SUB, "(uid=nobody)", ""),
                Arguments.of("suffix", SearchScope.SUB, "(objectClass=person)", persons),
                // and, or, not
                Arguments.of("suffix", SearchScope.SUB, "(&(objectClass=inetOrgPerson)(sn=doe))", "uid=jdoe,ou=people"),
                Arguments.of(
                        "suffix", SearchScope.SUB, "(|(uid=jdoe)(cn=staff))", "uid=jdoe,ou=people;cn=staff,ou=groups"),
                Arguments.of(
                        "suffix",
                        SearchScope.SUB,
                        "(&(objectClass=inetOrgPerson)(!(uid=jdoe)))",
                        "uid=asmith,ou=people;uid=bjones,ou=people"),
                Arguments.of(
                        "suffix",
                        SearchScope.SUB,
                        "(!(objectClass=inetOrgPerson))",
                        "suffix;ou=people;ou=groups;cn=staff,ou=groups"),
                // substrings
                Arguments.of("suffix", SearchScope.SUB, "(cn=jo*)", "uid=jdoe,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(uid=jd*)", "uid=jdoe,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(cn=*JONES)", "uid=bjones,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(cn=*li*)", "uid=asmith,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(cn=a*e*th)", "uid=asmith,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(cn=a*th*e)", ""),
                Arguments.of("suffix", SearchScope.SUB, "(description=*first*)", "uid=jdoe,ou=people"),
                Arguments.of(
                        "suffix",
                        SearchScope.SUB,
                        "(telephoneNumber=*5 550 1*)",
                        "uid=jdoe,ou=people;uid=asmith,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(member=uid=jdoe*)", ""),
                Arguments.of("suffix", SearchScope.SUB, "(objectClass=inetOrg*)", ""),
                // presence
                Arguments.of("suffix", SearchScope.SUB, "(mail=*)", "uid=jdoe,ou=people;uid=asmith,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(title=*)", "uid=bjones,ou=people"),
                Arguments.of(
                        "suffix",
                        SearchScope.SUB,
                        "(name=*)",
                        "ou=people;ou=groups;" + persons + ";cn=staff,ou=groups"),
                // ordering: createTimestamp has an ordering rule, sn has none and so matches nothing
                Arguments.of("suffix", SearchScope.SUB, "(createTimestamp>=20000101000000Z)", all),
                Arguments.of("suffix", SearchScope.SUB, "(createTimestamp<=20000101000000Z)", ""),
                Arguments.of("suffix", SearchScope.SUB, "(createTimestamp<=29991231235959Z)", all),
                Arguments.of("ou=people", SearchScope.ONE, "(createTimestamp>=20000101000000Z)", persons),
                Arguments.of("suffix", SearchScope.SUB, "(sn>=A)", ""),
                Arguments.of("suffix", SearchScope.SUB, "(sn<=Z)", ""),
                Arguments.of("suffix", SearchScope.SUB, "(!(sn>=A))", ""),
                // approximate (matched as equality)
                Arguments.of("suffix", SearchScope.SUB, "(cn~=john doe)", "uid=jdoe,ou=people"),
                // extensible
                Arguments.of("suffix", SearchScope.SUB, "(cn:caseExactMatch:=John Doe)", "uid=jdoe,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(cn:2.5.13.5:=john doe)", ""),
                Arguments.of("suffix", SearchScope.SUB, "(cn:=john doe)", "uid=jdoe,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(sn:caseIgnoreMatch:=JONES)", "uid=bjones,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(:caseIgnoreMatch:=jones)", "uid=bjones,ou=people"),
                Arguments.of("suffix", SearchScope.SUB, "(ou:dn:=people)", "ou=people;" + persons),
                Arguments.of(
                        "suffix", SearchScope.SUB, "(ou:dn:caseIgnoreMatch:=GROUPS)", "ou=groups;cn=staff,ou=groups"),
                Arguments.of("suffix", SearchScope.SUB, "(cn:1.2.3.4.5:=x)", ""),
                // undefined: unknown attributes never match, and not(undefined) is undefined too
                Arguments.of("suffix", SearchScope.SUB, "(noSuchAttribute=x)", ""),
                Arguments.of("suffix", SearchScope.SUB, "(!(noSuchAttribute=x))", ""),
                Arguments.of("suffix", SearchScope.SUB, "(|(noSuchAttribute=x)(uid=jdoe))", "uid=jdoe,ou=people"));
    }

    @ParameterizedTest(name = "{2} from {0} ({1})")
    @MethodSource("filters")
    void searchReturnsExactlyTheMatchingEntriesInScope(String base, SearchScope scope, String filter, String expected)
            throws Exception {
        String baseDn = base.equals("suffix") ? SUFFIX : base + "," + SUFFIX;
        SearchResult result = larch.anonymous().search(baseDn, scope, filter, "1.1");
        assertEquals(ResultCode.SUCCESS, result.getResultCode());
        assertEquals(expected(expected), dns(result));
    }

    @Test
    void missingBaseIsNoSuchObjectWithTheDeepestExistingAncestorAsMatchedDn() {
        LDAPSearchException e = assertThrows(
                LDAPSearchException.class,
                () -> larch.anonymous()
                        .search("uid=nobody,ou=nowhere,ou=people," + SUFFIX, SearchScope.SUB, "(objectClass=*)"));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        assertEquals(normalize("ou=people," + SUFFIX), normalize(e.getMatchedDN()));
    }

    @Test
    void baseOutsideTheNamingContextIsNoSuchObject() {
        LDAPSearchException e = assertThrows(
                LDAPSearchException.class,
                () -> larch.anonymous().search("dc=elsewhere,dc=org", SearchScope.SUB, "(objectClass=*)"));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
    }

    @Test
    void malformedBaseIsInvalidDnSyntax() {
        LDAPSearchException e = assertThrows(
                LDAPSearchException.class,
                () -> larch.anonymous().search("this is not a dn", SearchScope.SUB, "(objectClass=*)"));
        assertEquals(ResultCode.INVALID_DN_SYNTAX, e.getResultCode());
    }

    // ---- attribute selection (RFC 4511 section 4.5.1.8, RFC 3673) -------------------------------

    private static SearchResultEntry jdoe(LDAPConnection c, String... attributes) throws Exception {
        SearchResult r = c.search(JDOE, SearchScope.BASE, "(objectClass=*)", attributes);
        assertEquals(1, r.getEntryCount());
        return r.getSearchEntries().get(0);
    }

    private static Set<String> names(SearchResultEntry e) {
        return e.getAttributes().stream()
                .map(a -> a.getBaseName().toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void noAttributesListedReturnsAllUserAttributesOnly() throws Exception {
        assertEquals(
                Set.of("objectclass", "uid", "cn", "sn", "givenname", "mail", "telephonenumber", "description"),
                names(jdoe(larch.anonymous())));
    }

    @Test
    void starReturnsAllUserAttributesOnly() throws Exception {
        assertEquals(names(jdoe(larch.anonymous())), names(jdoe(larch.anonymous(), "*")));
    }

    @Test
    void plusReturnsOperationalAttributesOnly() throws Exception {
        Set<String> names = names(jdoe(larch.anonymous(), "+"));
        assertTrue(
                names.containsAll(Set.of(
                        "createtimestamp",
                        "modifytimestamp",
                        "creatorsname",
                        "modifiersname",
                        "entryuuid",
                        "entrydn",
                        "hassubordinates",
                        "subschemasubentry")),
                names.toString());
        assertFalse(names.contains("cn"), names.toString());
        SearchResultEntry e = jdoe(larch.anonymous(), "+");
        assertEquals("FALSE", e.getAttributeValue("hasSubordinates"));
        assertEquals(normalize(JDOE), normalize(e.getAttributeValue("entryDN")));
        assertEquals(normalize(TestServer.ADMIN_DN), normalize(e.getAttributeValue("creatorsName")));
    }

    @Test
    void starAndPlusReturnEverything() throws Exception {
        Set<String> names = names(jdoe(larch.anonymous(), "*", "+"));
        assertTrue(names.containsAll(Set.of("cn", "mail", "createtimestamp", "entryuuid")), names.toString());
    }

    @Test
    void oneDotOneReturnsNoAttributes() throws Exception {
        assertEquals(Set.of(), names(jdoe(larch.anonymous(), "1.1")));
    }

    @Test
    void namedAttributesReturnOnlyThoseWhateverTheirCase() throws Exception {
        SearchResultEntry e = jdoe(larch.anonymous(), "CN", "mail", "1.1");
        assertEquals(Set.of("cn", "mail"), names(e));
        assertEquals("John Doe", e.getAttributeValue("cn"));
    }

    @Test
    void namedOperationalAttributeIsReturnedWithoutPlus() throws Exception {
        SearchResultEntry e = jdoe(larch.anonymous(), "createTimestamp", "hasSubordinates");
        assertEquals(Set.of("createtimestamp", "hassubordinates"), names(e));
        assertTrue(e.getAttributeValue("createTimestamp").matches("\\d{14}Z"));
    }

    @Test
    void supertypeNameReturnsItsSubtypes() throws Exception {
        assertEquals(Set.of("cn", "sn", "givenname"), names(jdoe(larch.anonymous(), "name")));
    }

    @Test
    void unknownAttributeNamesAreIgnored() throws Exception {
        assertEquals(Set.of("uid"), names(jdoe(larch.anonymous(), "uid", "noSuchAttribute")));
    }

    @Test
    void typesOnlyReturnsNamesWithoutValues() throws Exception {
        SearchRequest request = new SearchRequest(JDOE, SearchScope.BASE, "(objectClass=*)", "cn", "mail");
        request.setTypesOnly(true);
        SearchResultEntry e =
                larch.anonymous().search(request).getSearchEntries().get(0);
        assertEquals(Set.of("cn", "mail"), names(e));
        for (Attribute a : e.getAttributes()) {
            assertFalse(a.hasValue(), a.getName());
        }
    }

    @Test
    void userPasswordIsReturnedToTheAdministratorOnly() throws Exception {
        assertNull(jdoe(larch.anonymous(), "userPassword").getAttribute("userPassword"));
        assertFalse(names(jdoe(larch.anonymous(), "*")).contains("userpassword"));
        try (LDAPConnection user = larch.server().anonymous()) {
            assertNull(jdoe(user, "*").getAttribute("userPassword"));
        }
        assertEquals(
                "{SSHA256}not-a-real-hash", jdoe(larch.admin(), "userPassword").getAttributeValue("userPassword"));
        assertTrue(names(jdoe(larch.admin())).contains("userpassword"));
    }

    @Test
    void filterOnUserPasswordDoesNotRevealItToAnonymous() throws Exception {
        // Matching on a value the client may not read would let it guess passwords one search at a time.
        SearchResult r =
                larch.anonymous().search(SUFFIX, SearchScope.SUB, "(userPassword={SSHA256}not-a-real-hash)", "1.1");
        assertEquals(0, r.getEntryCount());
        assertEquals(
                1,
                larch.admin()
                        .search(SUFFIX, SearchScope.SUB, "(userPassword={SSHA256}not-a-real-hash)", "1.1")
                        .getEntryCount());
        for (String filter : new String[] {
            "(userPassword=*)",
            "(userPassword={SSHA256}*)",
            "(:octetStringMatch:={SSHA256}not-a-real-hash)",
            "(!(userPassword=x))"
        }) {
            assertEquals(
                    0,
                    larch.anonymous()
                            .search(SUFFIX, SearchScope.SUB, filter, "1.1")
                            .getEntryCount(),
                    filter);
        }
        assertEquals(
                1,
                larch.admin()
                        .search(SUFFIX, SearchScope.SUB, "(:octetStringMatch:={SSHA256}not-a-real-hash)", "1.1")
                        .getEntryCount());
    }

    @Test
    void hasSubordinatesIsTrueForEntriesWithChildren() throws Exception {
        SearchResultEntry e = larch.anonymous()
                .searchForEntry("ou=people," + SUFFIX, SearchScope.BASE, "(objectClass=*)", "hasSubordinates");
        assertEquals("TRUE", e.getAttributeValue("hasSubordinates"));
    }

    // ---- root DSE and subschema -------------------------------------------------------------------

    @Test
    void rootDseListsNamingContextVersionExtensionsAndVendor() throws Exception {
        RootDSE root = larch.anonymous().getRootDSE();
        assertNotNull(root);
        assertArrayEquals(new String[] {SUFFIX}, root.getNamingContextDNs());
        assertArrayEquals(new String[] {"3"}, root.getAttributeValues("supportedLDAPVersion"));
        assertTrue(root.supportsExtendedOperation("1.3.6.1.4.1.4203.1.11.3"));
        assertEquals("cn=Subschema", root.getSubschemaSubentryDN());
        assertEquals("Larch", root.getVendorName());
        assertNotNull(root.getVendorVersion());
        // nothing beyond what is implemented: password policy, paged results, sort, assertion, VLV, persistent
        // search, content synchronization, ManageDsaIT, permissive modify, subtree delete, don't use copy,
        // proxied authorization
        assertArrayEquals(
                new String[] {
                    "1.3.6.1.4.1.42.2.27.8.5.1",
                    "1.2.840.113556.1.4.319",
                    "1.2.840.113556.1.4.473",
                    "1.3.6.1.1.12",
                    "2.16.840.1.113730.3.4.9",
                    "2.16.840.1.113730.3.4.3",
                    "1.3.6.1.4.1.4203.1.9.1.1",
                    "2.16.840.1.113730.3.4.2",
                    "1.2.840.113556.1.4.1413",
                    "1.2.840.113556.1.4.805",
                    "1.3.6.1.1.13.1",
                    "1.3.6.1.1.13.2",
                    "1.3.6.1.4.1.4203.1.10.2",
                    "1.3.6.1.4.1.4203.666.5.2",
                    "1.2.826.0.1.3344810.2.3",
                    "1.3.6.1.1.22",
                    "2.16.840.1.113730.3.4.18"
                },
                root.getSupportedControlOIDs());
    }

    @Test
    void rootDseAnswersOnlyBaseScope() {
        LDAPSearchException e = assertThrows(
                LDAPSearchException.class, () -> larch.anonymous().search("", SearchScope.SUB, "(objectClass=*)"));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
    }

    @Test
    void rootDseWithoutAttributeListReturnsNoOperationalAttributes() throws Exception {
        SearchResultEntry e = larch.anonymous().searchForEntry("", SearchScope.BASE, "(objectClass=*)");
        assertNotNull(e);
        assertNull(e.getAttribute("namingContexts"));
        assertNotNull(larch.anonymous()
                .searchForEntry("", SearchScope.BASE, "(objectClass=*)", "namingContexts")
                .getAttribute("namingContexts"));
    }

    @Test
    void subschemaIsReadableWithPlusAndParsesAsASchema() throws Exception {
        SearchResultEntry e =
                larch.anonymous().searchForEntry("cn=Subschema", SearchScope.BASE, "(objectClass=subschema)", "+");
        assertNotNull(e);
        for (String a : new String[] {"attributeTypes", "objectClasses", "ldapSyntaxes", "matchingRules"}) {
            assertTrue(e.hasAttribute(a), a);
        }
        Schema schema = larch.anonymous().getSchema();
        assertNotNull(schema.getAttributeType("telephoneNumber"));
        assertNotNull(schema.getObjectClass("inetOrgPerson"));
        assertNotNull(schema.getObjectClass("posixAccount"));
    }

    @Test
    void subschemaHasNoSubordinates() throws Exception {
        assertEquals(
                0,
                larch.anonymous()
                        .search("cn=Subschema", SearchScope.ONE, "(objectClass=*)")
                        .getEntryCount());
        assertEquals(
                1,
                larch.anonymous()
                        .search("cn=Subschema", SearchScope.SUB, "(objectClass=*)", "1.1")
                        .getEntryCount());
        assertEquals(
                0,
                larch.anonymous()
                        .search("cn=Subschema", SearchScope.BASE, "(objectClass=person)")
                        .getEntryCount());
    }

    // ---- several searches outstanding on one connection --------------------------------------------

    private static final class Collector implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        final List<String> dns = new ArrayList<>();
        final CompletableFuture<SearchResult> done = new CompletableFuture<>();

        @Override
        public synchronized void searchEntryReturned(SearchResultEntry entry) {
            dns.add(normalize(entry.getDN()));
        }

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {}

        @Override
        public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {
            done.complete(result);
        }
    }

    @Test
    void outstandingSearchesOnOneConnectionAreAnsweredByMessageId() throws Exception {
        String[] filters = {
            "(uid=jdoe)", "(uid=asmith)", "(objectClass=organizationalUnit)", "(cn=staff)", "(objectClass=*)"
        };
        String[] expected = {
            "uid=jdoe,ou=people",
            "uid=asmith,ou=people",
            "ou=people;ou=groups",
            "cn=staff,ou=groups",
            "suffix;ou=people;ou=groups;uid=jdoe,ou=people;uid=asmith,ou=people;"
                    + "uid=bjones,ou=people;cn=staff,ou=groups"
        };
        try (LDAPConnection c = larch.server().anonymous()) {
            List<Collector> collectors = new ArrayList<>();
            for (int round = 0; round < 20; round++) {
                for (String filter : filters) {
                    Collector collector = new Collector();
                    c.asyncSearch(new SearchRequest(collector, SUFFIX, SearchScope.SUB, filter, "1.1"));
                    collectors.add(collector);
                }
            }
            for (int i = 0; i < collectors.size(); i++) {
                Collector collector = collectors.get(i);
                assertEquals(
                        ResultCode.SUCCESS,
                        collector.done.get(20, TimeUnit.SECONDS).getResultCode());
                synchronized (collector) {
                    assertEquals(expected(expected[i % filters.length]), new TreeSet<>(collector.dns));
                }
            }
        }
    }

    // ---- the second codec ------------------------------------------------------------------------------

    @Test
    void apacheClientReadsEntriesWithTheirValues() throws Exception {
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.anonymousBind();
            List<Entry> entries = new ArrayList<>();
            try (EntryCursor cursor = c.search(
                    "ou=people," + SUFFIX,
                    "(telephoneNumber=*)",
                    org.apache.directory.api.ldap.model.message.SearchScope.ONELEVEL,
                    "cn",
                    "telephoneNumber")) {
                for (Entry e : cursor) {
                    entries.add(e);
                }
            }
            assertEquals(2, entries.size());
            Entry jdoe = entries.stream()
                    .filter(e -> e.getDn().getName().startsWith("uid=jdoe"))
                    .findFirst()
                    .orElseThrow();
            assertEquals("+1 555 0100", jdoe.get("telephoneNumber").getString());
            assertEquals("John Doe", jdoe.get("cn").getString());
            assertNull(jdoe.get("mail"));
        }
    }

    @Test
    void apacheClientSeesSearchResultDoneForEmptyResults() throws Exception {
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.anonymousBind();
            SearchRequestImpl request = new SearchRequestImpl();
            request.setBase(new Dn(SUFFIX));
            request.setFilter("(uid=nobody)");
            request.setScope(org.apache.directory.api.ldap.model.message.SearchScope.SUBTREE);
            request.setTypesOnly(true);
            SearchFuture future = c.searchAsync(request);
            Response response = future.get(10, TimeUnit.SECONDS);
            assertTrue(response instanceof SearchResultDone, String.valueOf(response));
            assertEquals(
                    ResultCodeEnum.SUCCESS,
                    ((SearchResultDone) response).getLdapResult().getResultCode());
        }
    }
}
