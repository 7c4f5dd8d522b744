package dev.larch.e2e;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every LDAP operation as a user runs it with OpenLDAP's tools, against the shared server. The
 * class owns {@code ou=ops}: read-only tests use {@code ou=people} and {@code ou=groups} below it,
 * and each writing test creates its own entries under {@code ou=work}.
 */
@ExtendWith(SharedServer.class)
class LdapUtilsOperationsIT {
    static final String OPS = "ou=ops," + TestData.SUFFIX;
    static final String PEOPLE = "ou=people," + OPS;
    static final String WORK = "ou=work," + OPS;

    static final String OPS_LDIF = """
            dn: ou=ops,dc=example,dc=com
            objectClass: organizationalUnit
            ou: ops

            dn: ou=people,ou=ops,dc=example,dc=com
            objectClass: organizationalUnit
            ou: people

            dn: uid=alice,ou=people,ou=ops,dc=example,dc=com
            objectClass: inetOrgPerson
            objectClass: posixAccount
            uid: alice
            cn: Alice Adams
            sn: Adams
            givenName: Alice
            mail: alice@example.com
            telephoneNumber: +1 555 0100
            uidNumber: 1001
            gidNumber: 100
            homeDirectory: /home/alice

            dn: uid=bob,ou=people,ou=ops,dc=example,dc=com
            objectClass: inetOrgPerson
            objectClass: posixAccount
            uid: bob
            cn: Bob Brown
            sn: Brown
            mail: bob@example.com
            telephoneNumber: +1 555 0101
            uidNumber: 1002
            gidNumber: 100
            homeDirectory: /home/bob

            dn: uid=carol,ou=people,ou=ops,dc=example,dc=com
            objectClass: inetOrgPerson
            objectClass: posixAccount
            uid: carol
            cn: Carol Clark
            sn: Clark
            mail: carol@example.com
            uidNumber: 1003
            gidNumber: 100
            homeDirectory: /home/carol

            dn: uid=dave,ou=people,ou=ops,dc=example,dc=com
            objectClass: inetOrgPerson
            objectClass: posixAccount
            uid: dave
            cn: Dave Davis
            sn: Davis
            mail: dave@example.com
            uidNumber: 1004
            gidNumber: 100
            homeDirectory: /home/dave

            dn: uid=eve,ou=people,ou=ops,dc=example,dc=com
            objectClass: inetOrgPerson
            objectClass: posixAccount
            uid: eve
            cn: Eve Evans
            sn: Evans
            mail: eve@example.com
            description: Café owner
            uidNumber: 1005
            gidNumber: 100
            homeDirectory: /home/eve

            dn: ou=groups,ou=ops,dc=example,dc=com
            objectClass: organizationalUnit
            ou: groups

            dn: cn=staff,ou=groups,ou=ops,dc=example,dc=com
            objectClass: groupOfNames
            cn: staff
            member: uid=alice,ou=people,ou=ops,dc=example,dc=com
            member: uid=bob,ou=people,ou=ops,dc=example,dc=com

            dn: ou=work,ou=ops,dc=example,dc=com
            objectClass: organizationalUnit
            ou: work
            """;

    static LdapUtils anonymous;
    static LdapUtils admin;
    static ProcessResult opsAdded;

    @BeforeAll
    static void loadTheOpsSubtree(SharedServer.Server server) {
        anonymous = LdapUtils.anonymous(server.port());
        admin = anonymous.asAdmin(server.adminPassword());
        opsAdded = admin.ldapaddLdif(OPS_LDIF);
    }

    private static String uid(String uid) {
        return "uid=" + uid + "," + PEOPLE;
    }

    private static List<String> uids(String... uids) {
        return Arrays.stream(uids).map(LdapUtilsOperationsIT::uid).toList();
    }

    private static void assertExit(int expected, ProcessResult result) {
        assertEquals(expected, result.exitCode(), result.describe());
    }

    // ---- ldapadd ---------------------------------------------------------------------------------

    @Test
    void ldapaddAddsEveryEntryOfAnLdifFile() {
        assertExit(0, opsAdded);
        List<String> added = OPS_LDIF.lines()
                .filter(l -> l.startsWith("dn: "))
                .map(l -> l.substring(4))
                .toList();
        assertEquals(
                added.stream().map(dn -> "adding new entry \"" + dn + "\"").toList(),
                opsAdded.out().lines().filter(l -> !l.isEmpty()).toList());
        assertEquals(10, added.size());
        assertEquals(
                added.stream().sorted().toList(),
                anonymous.dns(OPS, "sub", "(objectClass=*)").stream()
                        .filter(added::contains)
                        .sorted()
                        .toList());
    }

    // ---- ldapsearch: scopes -------------------------------------------------------------------------

    @Test
    void baseScopeReturnsOnlyTheBaseEntry() {
        assertEquals(List.of(PEOPLE), anonymous.dns(PEOPLE, "base", "(objectClass=*)"));
    }

    @Test
    void oneLevelScopeReturnsTheChildrenButNotTheBase() {
        assertEquals(uids("alice", "bob", "carol", "dave", "eve"), anonymous.dns(PEOPLE, "one", "(objectClass=*)"));
    }

    @Test
    void subtreeScopeReturnsTheBaseAndEveryDescendant() {
        List<String> expected = Stream.concat(Stream.of(PEOPLE), uids("alice", "bob", "carol", "dave", "eve").stream())
                .toList();
        assertEquals(expected, anonymous.dns(PEOPLE, "sub", "(objectClass=*)"));
    }

    @Test
    void subtreeSearchNeverLeavesItsBase() {
        assertEquals(List.of("cn=staff,ou=groups," + OPS), anonymous.dns("ou=groups," + OPS, "sub", "(cn=*)"));
    }

    // ---- ldapsearch: filters -------------------------------------------------------------------------

    static Stream<Arguments> filters() {
        return Stream.of(
                Arguments.of("(uid=alice)", uids("alice")),
                Arguments.of("(cn=ALICE ADAMS)", uids("alice")),
                Arguments.of("(telephoneNumber=+15550100)", uids("alice")),
                Arguments.of("(cn=a*)", uids("alice")),
                Arguments.of("(sn=*r*)", uids("bob", "carol")),
                Arguments.of("(mail=*@example.com)", uids("alice", "bob", "carol", "dave", "eve")),
                Arguments.of("(cn=c*k)", uids("carol")),
                Arguments.of(
                        "(createTimestamp>=20000101000000Z)",
                        Stream.concat(Stream.of(PEOPLE), uids("alice", "bob", "carol", "dave", "eve").stream())
                                .toList()),
                Arguments.of("(createTimestamp<=20000101000000Z)", List.of()),
                // uidNumber has no ORDERING rule in the nis schema: >= is Undefined (RFC 4511 4.5.1.7).
                Arguments.of("(uidNumber>=1004)", List.of()),
                Arguments.of("(telephoneNumber=*)", uids("alice", "bob")),
                Arguments.of("(sn~=Brown)", uids("bob")),
                Arguments.of("(&(objectClass=posixAccount)(mail=*e@*)(!(uid=carol)))", uids("alice", "dave", "eve")),
                Arguments.of("(|(uid=alice)(uid=eve)(uid=nobody))", uids("alice", "eve")),
                Arguments.of(
                        "(!(uid=alice))",
                        Stream.concat(Stream.of(PEOPLE), uids("bob", "carol", "dave", "eve").stream())
                                .toList()),
                Arguments.of("(uid:caseExactMatch:=alice)", uids("alice")),
                Arguments.of("(cn:caseExactMatch:=alice adams)", List.of()),
                Arguments.of(
                        "(ou:dn:=ops)",
                        Stream.concat(Stream.of(PEOPLE), uids("alice", "bob", "carol", "dave", "eve").stream())
                                .toList()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filters")
    void filterSelectsExactlyTheMatchingEntries(String filter, List<String> expected) {
        assertEquals(
                expected.stream().sorted().toList(),
                anonymous.dns(PEOPLE, "sub", filter).stream().sorted().toList());
    }

    // ---- ldapsearch: output ---------------------------------------------------------------------------

    @Test
    void searchPrintsAnEntryAsLdifWithNonAsciiValuesInBase64() {
        ProcessResult r = anonymous.ldapsearch("-LLL", "-b", uid("eve"), "-s", "base");
        assertExit(0, r);
        // The attributes of an entry have no order in LDAP (RFC 4511 section 4.1.7): compared as a set of lines.
        assertEquals(
                """
                dn: uid=eve,ou=people,ou=ops,dc=example,dc=com
                uid: eve
                uidNumber: 1005
                mail: eve@example.com
                homeDirectory: /home/eve
                gidNumber: 100
                description:: Q2Fmw6kgb3duZXI=
                sn: Evans
                cn: Eve Evans
                objectClass: inetOrgPerson
                objectClass: posixAccount
                objectClass: organizationalPerson
                objectClass: top
                objectClass: person
                """.lines().sorted().toList(),
                r.out().lines().filter(l -> !l.isEmpty()).sorted().toList(),
                "superclasses of the given object classes are stored with the entry");
        assertTrue(r.out().startsWith("dn: uid=eve,"), r.out());
    }

    @Test
    void searchReturnsOnlyTheRequestedAttributes() {
        ProcessResult r =
                anonymous.ldapsearch("-LLL", "-b", PEOPLE, "(|(uid=alice)(uid=bob))", "cn", "mail", "telephoneNumber");
        assertExit(0, r);
        assertEquals("""
                dn: uid=alice,ou=people,ou=ops,dc=example,dc=com
                mail: alice@example.com
                telephoneNumber: +1 555 0100
                cn: Alice Adams

                dn: uid=bob,ou=people,ou=ops,dc=example,dc=com
                mail: bob@example.com
                telephoneNumber: +1 555 0101
                cn: Bob Brown

                """, r.out());
    }

    @Test
    void typesOnlySearchReturnsAttributeNamesWithoutValues() {
        ProcessResult r = anonymous.ldapsearch("-LLL", "-A", "-b", uid("carol"), "-s", "base", "cn", "sn");
        assertExit(0, r);
        assertEquals("dn: " + uid("carol") + "\nsn:\ncn:\n\n", r.out());
    }

    @Test
    void operationalAttributesAppearOnlyWhenAskedFor() {
        ProcessResult r = anonymous.ldapsearch("-LLL", "-b", uid("alice"), "-s", "base", "+");
        assertExit(0, r);
        List<String> names = r.out()
                .lines()
                .filter(l -> l.contains(":"))
                .map(l -> l.substring(0, l.indexOf(':')))
                .toList();
        assertTrue(
                names.containsAll(List.of(
                        "dn",
                        "entryUUID",
                        "createTimestamp",
                        "creatorsName",
                        "modifyTimestamp",
                        "entryDN",
                        "subschemaSubentry",
                        "hasSubordinates")),
                r.out());
        assertTrue(!names.contains("uid") && !names.contains("cn"), r.out());
    }

    @Test
    void clientSizeLimitStopsTheSearchWithSizeLimitExceededAfterThatManyEntries() {
        ProcessResult r = anonymous.ldapsearch("-LLL", "-z", "2", "-b", PEOPLE, "-s", "one", "1.1");
        assertExit(4, r);
        assertEquals(2, r.out().lines().filter(l -> l.startsWith("dn: ")).count(), r.describe());
        assertTrue(r.err().contains("Size limit exceeded (4)"), r.describe());
    }

    // ---- ldapmodify ------------------------------------------------------------------------------------

    @Test
    void ldapmodifyAddsReplacesDeletesAndIncrements() {
        String dn = "uid=mod," + WORK;
        assertExit(0, admin.ldapaddLdif("""
                dn: %s
                objectClass: inetOrgPerson
                objectClass: posixAccount
                uid: mod
                cn: Mod Person
                sn: Person
                mail: mod@example.com
                mail: mod2@example.com
                telephoneNumber: +1 555 0000
                uidNumber: 2000
                gidNumber: 100
                homeDirectory: /home/mod
                """.formatted(dn)));

        ProcessResult modify = admin.ldapmodifyLdif("""
                dn: %s
                changetype: modify
                add: description
                description: first
                description: second
                -
                replace: telephoneNumber
                telephoneNumber: +1 555 0199
                -
                delete: mail
                mail: mod@example.com
                -
                increment: uidNumber
                uidNumber: 5
                -
                """.formatted(dn));
        assertExit(0, modify);
        assertEquals("modifying entry \"" + dn + "\"\n\n", modify.out());

        ProcessResult r = anonymous.ldapsearch(
                "-LLL", "-b", dn, "-s", "base", "description", "telephoneNumber", "mail", "uidNumber");
        assertExit(0, r);
        assertEquals(
                List.of(
                        "description: first",
                        "description: second",
                        "mail: mod2@example.com",
                        "telephoneNumber: +1 555 0199",
                        "uidNumber: 2005"),
                r.out()
                        .lines()
                        .filter(l -> !l.isEmpty() && !l.startsWith("dn: "))
                        .sorted()
                        .toList());

        assertExit(0, admin.ldapmodifyLdif("dn: " + dn + "\nchangetype: modify\ndelete: description\n-\n"));
        ProcessResult after = anonymous.ldapsearch("-LLL", "-b", dn, "-s", "base", "description");
        assertEquals("dn: " + dn + "\n\n", after.out());
    }

    // ---- ldapmodrdn -------------------------------------------------------------------------------------

    @Test
    void ldapmodrdnRenamesAndDeletesTheOldRdnValue() {
        assertExit(0, admin.ldapaddLdif(TestData.person("ren1", WORK)));
        assertExit(0, admin.ldapmodrdn("-r", "uid=ren1," + WORK, "uid=ren2"));

        assertEquals(List.of(), anonymous.dns(WORK, "one", "(uid=ren1)"));
        ProcessResult r = anonymous.ldapsearch("-LLL", "-b", "uid=ren2," + WORK, "-s", "base", "uid");
        assertExit(0, r);
        assertEquals("dn: uid=ren2," + WORK + "\nuid: ren2\n\n", r.out());
    }

    @Test
    void ldapmodrdnWithoutDeleteOldRdnKeepsTheOldValue() {
        assertExit(0, admin.ldapaddLdif(TestData.person("keep1", WORK)));
        assertExit(0, admin.ldapmodrdn("uid=keep1," + WORK, "uid=keep2"));

        ProcessResult r = anonymous.ldapsearch("-LLL", "-b", "uid=keep2," + WORK, "-s", "base", "uid");
        assertExit(0, r);
        assertEquals(
                List.of("uid: keep1", "uid: keep2"),
                r.out().lines().filter(l -> l.startsWith("uid: ")).sorted().toList());
    }

    @Test
    void ldapmodrdnWithNewSuperiorMovesTheWholeSubtree() {
        String src = "ou=src," + WORK;
        String dst = "ou=dst," + WORK;
        assertExit(
                0,
                admin.ldapaddLdif("""
                dn: %1$s
                objectClass: organizationalUnit
                ou: src

                dn: %2$s
                objectClass: organizationalUnit
                ou: dst

                dn: ou=team,%1$s
                objectClass: organizationalUnit
                ou: team

                """.formatted(src, dst) + TestData.person("mover1", "ou=team," + src) + "\n"
                        + TestData.person("mover2", "ou=team," + src)));

        ProcessResult move = admin.ldapmodrdn("-s", dst, "ou=team," + src, "ou=team");
        assertExit(0, move);

        assertEquals(
                List.of("ou=team," + dst, "uid=mover1,ou=team," + dst, "uid=mover2,ou=team," + dst),
                anonymous.dns("ou=team," + dst, "sub", "(objectClass=*)"));
        assertEquals(List.of(src), anonymous.dns(src, "sub", "(objectClass=*)"));
        // The indexes moved with the entries.
        assertEquals(List.of("uid=mover2,ou=team," + dst), anonymous.dns(TestData.SUFFIX, "sub", "(uid=mover2)"));
        assertExit(32, anonymous.ldapsearch("-b", "uid=mover1,ou=team," + src, "-s", "base"));
    }

    // ---- ldapdelete -------------------------------------------------------------------------------------

    @Test
    void ldapdeleteRemovesALeaf() {
        assertExit(0, admin.ldapaddLdif(TestData.person("gone", WORK)));
        assertExit(0, admin.ldapdelete("uid=gone," + WORK));
        assertExit(32, anonymous.ldapsearch("-b", "uid=gone," + WORK, "-s", "base"));
        assertEquals(List.of(), anonymous.dns(TestData.SUFFIX, "sub", "(uid=gone)"));
    }

    @Test
    void ldapdeleteOfANonLeafFailsWithNotAllowedOnNonLeaf() {
        ProcessResult r = admin.ldapdelete(PEOPLE);
        assertExit(66, r);
        assertTrue(r.err().startsWith("ldap_delete: Operation not allowed on non-leaf (66)\n"), r.describe());
        assertEquals(List.of(PEOPLE), anonymous.dns(PEOPLE, "base", "(objectClass=*)"));
    }

    // ---- ldapcompare, ldapwhoami -------------------------------------------------------------------------

    @Test
    void ldapcompareAnswersTrueForAMatchingValue() {
        ProcessResult r = anonymous.ldapcompare(uid("alice"), "sn:ADAMS");
        assertExit(6, r);
        assertEquals("TRUE\n", r.out());
    }

    @Test
    void ldapcompareAnswersFalseForAnotherValue() {
        ProcessResult r = anonymous.ldapcompare(uid("alice"), "sn:Brown");
        assertExit(5, r);
        assertEquals("FALSE\n", r.out());
    }

    @Test
    void ldapwhoamiAnswersAnonymousWithoutABind() {
        ProcessResult r = anonymous.ldapwhoami();
        assertExit(0, r);
        assertEquals("anonymous\n", r.out());
    }

    @Test
    void ldapwhoamiAnswersTheAdminDnAfterAnAdminBind() {
        ProcessResult r = admin.ldapwhoami();
        assertExit(0, r);
        assertEquals("dn:" + TestData.ADMIN_DN + "\n", r.out());
    }

    // ---- root DSE and subschema ----------------------------------------------------------------------------

    @Test
    void subschemaEntryShowsAttributeTypesAndObjectClasses() {
        ProcessResult r = anonymous.ldapsearch("-LLL", "-o", "ldif-wrap=no", "-b", "cn=Subschema", "-s", "base", "+");
        assertExit(0, r);
        List<String> lines = r.out().lines().toList();
        assertTrue(
                lines.stream().anyMatch(l -> l.startsWith("attributeTypes: ( 2.5.4.4 NAME ( 'sn' 'surname' )")),
                r.out());
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.startsWith("objectClasses: ( 2.16.840.1.113730.3.2.2 NAME 'inetOrgPerson'")),
                r.out());
        assertTrue(
                lines.stream().anyMatch(l -> l.startsWith("objectClasses: ( 1.3.6.1.1.1.2.0 NAME 'posixAccount'")),
                r.out());
        assertTrue(lines.stream().filter(l -> l.startsWith("attributeTypes: ")).count() > 100, r.out());
    }

    @Test
    void rootDseShowsNamingContextsVendorAndSubschema() {
        ProcessResult r = anonymous.ldapsearch("-LLL", "-b", "", "-s", "base", "+");
        assertExit(0, r);
        List<String> lines = r.out().lines().toList();
        assertTrue(
                lines.containsAll(List.of(
                        "dn:",
                        "namingContexts: dc=example,dc=com",
                        "vendorName: Larch",
                        "supportedLDAPVersion: 3",
                        "subschemaSubentry: cn=Subschema",
                        "supportedExtension: 1.3.6.1.4.1.4203.1.11.3")),
                r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("vendorVersion: Larch ")), r.out());
    }
}
