package dev.larch.server.search;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.larch.server.error.LdapError;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SearchEngineTest {
    private static final String PEOPLE = "ou=People,dc=example,dc=com";
    private static final String SUFFIX = "dc=example,dc=com";

    @TempDir
    static Path dir;

    static TestTree tree;

    @BeforeAll
    static void load() {
        tree = new TestTree(dir)
                .add(Ldif.BASE
                        + Ldif.person("jdoe", "John Doe", "Doe", "+1 555 0100")
                        + Ldif.person("asmith", "Alice Smith", "Smith", "+1 555-0101")
                        + Ldif.person("bsmith", "Bob Smithers", "Smithers", null)
                        + posix("carl", 1000, "20200101000000Z") + posix("dave", 20000, "20250601120000Z")
                        + posix("eve", 300, "20190101000000Z")
                        + """
                dn: cn=staff,ou=Groups,dc=example,dc=com
                objectClass: groupOfNames
                cn: staff
                member: uid=jdoe,ou=People,dc=example,dc=com

                """);
    }

    private static String posix(String uid, int number, String created) {
        return "dn: uid=" + uid + ",ou=People,dc=example,dc=com\n"
                + "objectClass: inetOrgPerson\nobjectClass: posixAccount\n"
                + "uid: " + uid + "\ncn: " + uid + "\nsn: " + uid + "\n"
                + "uidNumber: " + number + "\ngidNumber: 100\nhomeDirectory: /home/" + uid + "\n"
                + "createTimestamp: " + created + "\n\n";
    }

    @AfterAll
    static void close() {
        tree.close();
    }

    static String dn(String uid) {
        return "uid=" + uid + "," + PEOPLE;
    }

    static Stream<Arguments> filters() {
        return Stream.of(
                Arguments.of("(cn=john DOE)", List.of(dn("jdoe")), "eq(cn)"),
                Arguments.of("(telephoneNumber=+15550100)", List.of(dn("jdoe")), "scan"),
                Arguments.of("(sn=Smi*)", List.of(dn("asmith"), dn("bsmith")), "eq-prefix(sn)"),
                Arguments.of("(cn=*smith*)", List.of(dn("asmith"), dn("bsmith")), "sub(cn)"),
                Arguments.of("(cn=*ers)", List.of(dn("bsmith")), "sub(cn)"),
                Arguments.of("(cn=a*ce*ith)", List.of(dn("asmith")), "sub(cn)"),
                Arguments.of("(telephoneNumber=*)", List.of(dn("jdoe"), dn("asmith")), "pres(telephoneNumber)"),
                Arguments.of(
                        "(&(objectClass=inetOrgPerson)(sn=Smith))",
                        List.of(dn("asmith")),
                        "and[eq(objectClass), eq(sn)]"),
                Arguments.of("(|(uid=jdoe)(uid=asmith))", List.of(dn("jdoe"), dn("asmith")), "or[eq(uid), eq(uid)]"),
                Arguments.of(
                        "(&(createTimestamp>=20200101000000Z)(createTimestamp<=20251231235959Z))",
                        List.of(dn("carl"), dn("dave")),
                        "and[ord(createTimestamp), ord(createTimestamp)]"),
                Arguments.of("(createTimestamp<=20191231235959Z)", List.of(dn("eve")), "ord(createTimestamp)"),
                // RFC 4519 gives sn and uidNumber no ordering rule: such items are Undefined.
                Arguments.of("(sn>=Smith)", List.of(), "empty(sn has no ordering rule)"),
                Arguments.of("(uidNumber>=1000)", List.of(), "empty(uidNumber has no ordering rule)"),
                Arguments.of("(cn~=john doe)", List.of(dn("jdoe")), "eq(cn)"),
                Arguments.of("(cn:caseExactMatch:=John Doe)", List.of(dn("jdoe")), "scan"),
                Arguments.of("(cn:caseExactMatch:=john doe)", List.of(), "scan"),
                Arguments.of("(name=Doe)", List.of(dn("jdoe")), "scan"),
                Arguments.of(
                        "(member=UID=jdoe, ou=people,dc=EXAMPLE,dc=com)",
                        List.of("cn=staff,ou=Groups,dc=example,dc=com"),
                        "scan"),
                Arguments.of("(foo=bar)", List.of(), "empty(unknown attribute foo)"),
                Arguments.of("(!(foo=bar))", List.of(), "scan"),
                Arguments.of("(&(uid=jdoe)(!(sn=Smith)))", List.of(dn("jdoe")), "and[eq(uid), scan]"),
                Arguments.of("(description=*)", List.of(), "scan"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filters")
    void subtreeSearchFromTheSuffixFindsExactlyTheMatches(String filter, List<String> expected, String plan) {
        assertEquals(sorted(expected), sorted(tree.search(SUFFIX, SearchScope.SUBTREE, filter)));
        assertEquals(plan, tree.planner.explain(tree.filter(filter)));
    }

    @Test
    void extensibleMatchWithDnAttributesMatchesRdnValues() {
        assertEquals(
                6,
                tree.search(SUFFIX, SearchScope.SUBTREE, "(ou:dn:=People)").stream()
                        .filter(d -> d.startsWith("uid="))
                        .count());
    }

    @Test
    void baseScopeReturnsOnlyTheBase() {
        assertEquals(List.of(PEOPLE), tree.search(PEOPLE, SearchScope.OBJECT, "(objectClass=*)"));
    }

    @Test
    void oneLevelScopeReturnsOnlyChildren() {
        assertEquals(
                6, tree.search(PEOPLE, SearchScope.ONELEVEL, "(objectClass=*)").size());
        assertEquals(
                List.of("ou=People," + SUFFIX, "ou=Groups," + SUFFIX),
                tree.search(SUFFIX, SearchScope.ONELEVEL, "(objectClass=organizationalUnit)"));
    }

    @Test
    void subtreeSearchNeverLeavesItsBase() {
        assertEquals(
                sorted(List.of("ou=Groups," + SUFFIX, "cn=staff,ou=Groups," + SUFFIX)),
                sorted(tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(objectClass=*)")));
        assertEquals(
                List.of("cn=staff,ou=Groups," + SUFFIX),
                tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(cn=staff)"));
        assertEquals(List.of(), tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(uid=jdoe)"));
    }

    @Test
    void indexedCandidatesOutsideAOneLevelScopeAreDropped() {
        assertEquals(List.of(), tree.search(SUFFIX, SearchScope.ONELEVEL, "(uid=jdoe)"));
    }

    @Test
    void missingEntryReportsTheDeepestExistingAncestorAsMatchedDn() {
        try (ReadTxn txn = tree.store.read()) {
            LdapError e = assertThrows(
                    LdapError.class,
                    () -> tree.directory.require(txn, tree.schemaEntries.dn("uid=nobody,ou=Nowhere," + PEOPLE)));
            assertEquals(ResultCodeEnum.NO_SUCH_OBJECT, e.code());
            assertEquals(PEOPLE, e.matchedDn().getName());
        }
    }

    @Test
    void aKeyAboveTheIndexEntryLimitCountsAsNotIndexed(@TempDir Path other) {
        try (TestTree small = new TestTree(other, TestTree.DEFAULT_INDEXES, 2)) {
            small.add(Ldif.BASE
                    + Ldif.person("a", "A A", "A", null)
                    + Ldif.person("b", "B B", "B", null)
                    + Ldif.person("c", "C C", "C", null));
            try (ReadTxn txn = small.store.read()) {
                assertNull(small.planner.candidates(txn, small.filter("(objectClass=inetOrgPerson)")));
                assertEquals(
                        1,
                        small.planner.candidates(txn, small.filter("(uid=a)")).size());
            }
            assertEquals(
                    3,
                    small.search(SUFFIX, SearchScope.SUBTREE, "(objectClass=inetOrgPerson)")
                            .size());
        }
    }

    private static List<String> sorted(List<String> l) {
        return l.stream().sorted().toList();
    }
}
