package dev.larch.e2e;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The access-control matrix over the wire: five clients (anonymous, a user on their own entry, another
 * user, a member of a nested group, the administrator) by the operations (read, search, compare,
 * write, add, delete, modify DN) on allowed and denied attributes and subtrees, every cell asserted.
 * The class owns {@code ou=acl}; its ACIs sit on that entry, on top of the built-in global rules.
 */
@ExtendWith(SharedServer.class)
class AccessControlMatrixIT {
    static final String ACL = "ou=acl," + TestData.SUFFIX;
    static final String PEOPLE = "ou=people," + ACL;
    static final String GROUPS = "ou=groups," + ACL;
    static final String OPEN = "ou=open," + ACL;
    static final String SECRET = "ou=secret," + ACL;
    static final String ALICE = "uid=alice," + PEOPLE;
    static final String BOB = "uid=bob," + PEOPLE;
    static final String GINA = "uid=gina," + PEOPLE;
    static final String EDITORS = "cn=editors," + GROUPS;
    static final String CLUB = "cn=club," + GROUPS;

    /** Who acts. */
    enum Who {
        ANONYMOUS,
        SELF,
        OTHER,
        MEMBER,
        ADMIN
    }

    static final String ACIS = """
            aci: (target = "ldap:///ou=secret,ou=acl,dc=example,dc=com")(version 3.0; acl "secret subtree"; deny (all) userdn = "ldap:///anyone";)
            aci: (targetattr = "mail || description || userPassword")(version 3.0; acl "self edit"; allow (write) userdn = "ldap:///self";)
            aci: (target = "ldap:///ou=open,ou=acl,dc=example,dc=com")(targetscope = "subordinate")(version 3.0; acl "editors"; allow (write, add, delete) groupdn = "ldap:///cn=editors,ou=groups,ou=acl,dc=example,dc=com";)
            aci: (targetattr = "telephoneNumber")(version 3.0; acl "no phones for anonymous"; deny (read, search, compare) userdn = "ldap:///anyone" and not userdn = "ldap:///all";)
            aci: (target = "ldap:///cn=club,ou=groups,ou=acl,dc=example,dc=com")(targetattr = "member")(version 3.0; acl "join the club"; allow (selfwrite) userdn = "ldap:///all";)
            """;

    static int port;
    static String adminPassword;
    static final AtomicInteger CELLS = new AtomicInteger();

    @BeforeAll
    static void loadTheAclSubtree(SharedServer.Server server) throws Exception {
        port = server.port();
        adminPassword = server.adminPassword();
        try (LDAPConnection admin = connect(Who.ADMIN)) {
            admin.add(ldif("dn: " + ACL, "objectClass: organizationalUnit", "ou: acl"));
            admin.modify(
                    ACL,
                    new Modification(
                            ModificationType.ADD,
                            "aci",
                            ACIS.lines().map(l -> l.substring("aci: ".length())).toArray(String[]::new)));
            admin.add(ldif("dn: " + PEOPLE, "objectClass: organizationalUnit", "ou: people"));
            for (String uid : List.of("alice", "bob", "gina")) {
                admin.add(ldif(
                        "dn: uid=" + uid + "," + PEOPLE,
                        "objectClass: inetOrgPerson",
                        "uid: " + uid,
                        "cn: " + uid,
                        "sn: " + uid,
                        "mail: " + uid + "@example.com",
                        "telephoneNumber: +1 555 0" + (100 + uid.length()),
                        "userPassword: " + ssha(uid + "-pw")));
            }
            admin.add(ldif("dn: " + GROUPS, "objectClass: organizationalUnit", "ou: groups"));
            admin.add(ldif("dn: cn=inner," + GROUPS, "objectClass: groupOfNames", "cn: inner", "member: " + GINA));
            admin.add(ldif("dn: " + EDITORS, "objectClass: groupOfNames", "cn: editors", "member: cn=inner," + GROUPS));
            admin.add(ldif("dn: " + CLUB, "objectClass: groupOfNames", "cn: club", "member: cn=inner," + GROUPS));
            admin.add(ldif("dn: " + OPEN, "objectClass: organizationalUnit", "ou: open"));
            admin.add(ldif("dn: " + SECRET, "objectClass: organizationalUnit", "ou: secret"));
            admin.add(ldif("dn: cn=hidden," + SECRET, "objectClass: organizationalRole", "cn: hidden"));
            admin.add(ldif("dn: cn=doomed," + SECRET, "objectClass: organizationalRole", "cn: doomed"));
            for (Who who : Who.values()) {
                String name = who.name().toLowerCase(Locale.ROOT);
                admin.add(
                        ldif("dn: cn=del-" + name + "," + OPEN, "objectClass: organizationalRole", "cn: del-" + name));
                admin.add(ldif("dn: cn=mv-" + name + "," + OPEN, "objectClass: organizationalRole", "cn: mv-" + name));
                admin.add(ldif("dn: cn=go-" + name + "," + OPEN, "objectClass: organizationalRole", "cn: go-" + name));
            }
        }
    }

    @AfterAll
    static void reportTheMatrixSize() {
        System.out.println("access-control matrix: " + CELLS.get() + " cells asserted");
    }

    // ---- read -----------------------------------------------------------------------------------

    @Test
    void readAnAllowedAttribute() throws Exception {
        expect(who -> has(who, ALICE, "mail"), Map.of(), true);
    }

    @Test
    void readAPasswordIsForTheAdministratorOnly() throws Exception {
        expect(who -> has(who, ALICE, "userPassword"), only(Who.ADMIN, true), false);
    }

    @Test
    void readAnAttributeDeniedToAnonymous() throws Exception {
        expect(who -> has(who, ALICE, "telephoneNumber"), only(Who.ANONYMOUS, false), true);
    }

    @Test
    void readTheSecretSubtreeFindsNothingButForTheAdministrator() throws Exception {
        expect(who -> count(who, SECRET, SearchScope.SUB, "(|(cn=hidden)(ou=secret))"), only(Who.ADMIN, 2), 0);
    }

    // ---- search ---------------------------------------------------------------------------------

    @Test
    void searchOnAnAttributeDeniedToAnonymousIsUndefinedForThem() throws Exception {
        expect(who -> count(who, PEOPLE, SearchScope.ONE, "(telephoneNumber=+1 555 0105)"), only(Who.ANONYMOUS, 0), 1);
    }

    @Test
    void searchOnAPasswordFindsNothingButForTheAdministrator() throws Exception {
        expect(who -> count(who, PEOPLE, SearchScope.ONE, "(userPassword=*)"), only(Who.ADMIN, 3), 0);
    }

    @Test
    void searchWithNotOnAPasswordIsNoOracleEither() throws Exception {
        expect(who -> count(who, PEOPLE, SearchScope.ONE, "(&(uid=*)(!(userPassword=*)))"), Map.of(), 0);
    }

    // ---- compare --------------------------------------------------------------------------------

    @Test
    void compareAnAllowedAttribute() throws Exception {
        expect(who -> compare(who, ALICE, "mail", "alice@example.com"), Map.of(), ResultCode.COMPARE_TRUE);
    }

    @Test
    void compareAPasswordIsRefused() throws Exception {
        expect(
                who -> compare(who, ALICE, "userPassword", "wrong"),
                only(Who.ADMIN, ResultCode.COMPARE_FALSE),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void compareInTheSecretSubtreeIsNoSuchObject() throws Exception {
        expect(
                who -> compare(who, "cn=hidden," + SECRET, "cn", "hidden"),
                only(Who.ADMIN, ResultCode.COMPARE_TRUE),
                ResultCode.NO_SUCH_OBJECT);
    }

    // ---- write ----------------------------------------------------------------------------------

    @Test
    void writeOwnMail() throws Exception {
        expect(
                who -> modify(who, ALICE, ModificationType.REPLACE, "mail", "alice@example.com"),
                Map.of(Who.SELF, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void writeOwnNameIsNotAllowed() throws Exception {
        expect(
                who -> modify(who, ALICE, ModificationType.REPLACE, "cn", "alice"),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void writeOwnPassword() throws Exception {
        expect(
                // Cleartext, as a user must send it (the server hashes it; a {SCHEME} value is the admin's alone).
                who -> modify(who, ALICE, ModificationType.REPLACE, "userPassword", "alice-pw"),
                Map.of(Who.SELF, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void writeInTheSecretSubtreeIsNoSuchObject() throws Exception {
        expect(
                who -> modify(who, "cn=hidden," + SECRET, ModificationType.REPLACE, "description", "x"),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    void selfwriteAddsOnlyTheWritersOwnDnToAGroup() throws Exception {
        expect(
                who -> who == Who.ANONYMOUS
                        ? modify(who, CLUB, ModificationType.ADD, "member", BOB)
                        : modify(who, CLUB, ModificationType.ADD, "member", dnOf(who)),
                Map.of(
                        Who.SELF, ResultCode.SUCCESS,
                        Who.OTHER, ResultCode.SUCCESS,
                        Who.MEMBER, ResultCode.SUCCESS,
                        Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void selfwriteDoesNotAddSomeoneElse() throws Exception {
        expect(
                who -> modify(
                        who,
                        CLUB,
                        ModificationType.ADD,
                        "member",
                        "uid=someone-" + who.name().toLowerCase(Locale.ROOT) + "," + PEOPLE),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void writeAciIsForTheAdministrator() throws Exception {
        expect(
                who -> modify(
                        who,
                        OPEN,
                        ModificationType.ADD,
                        "aci",
                        "(targetattr = \"description\")(version 3.0; acl \"by " + who
                                + "\"; allow (write) userdn = \"ldap:///self\";)"),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    // ---- add, delete, modify DN -----------------------------------------------------------------

    @Test
    void addInTheOpenSubtreeIsForEditors() throws Exception {
        expect(
                who -> add(who, "cn=new-" + who.name().toLowerCase(Locale.ROOT) + "," + OPEN),
                Map.of(Who.MEMBER, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void addElsewhereIsForTheAdministrator() throws Exception {
        expect(
                who -> add(who, "cn=new-" + who.name().toLowerCase(Locale.ROOT) + "," + PEOPLE),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void deleteInTheOpenSubtreeIsForEditors() throws Exception {
        expect(
                who -> delete(who, "cn=del-" + who.name().toLowerCase(Locale.ROOT) + "," + OPEN),
                Map.of(Who.MEMBER, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void deleteInTheSecretSubtreeIsNoSuchObject() throws Exception {
        expect(
                who -> delete(who, "cn=doomed," + SECRET),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    void renameInTheOpenSubtreeIsForEditors() throws Exception {
        expect(
                who -> rename(who, "cn=mv-" + who.name().toLowerCase(Locale.ROOT) + "," + OPEN, null),
                Map.of(Who.MEMBER, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void moveOutOfTheOpenSubtreeNeedsAddWhereItGoes() throws Exception {
        expect(
                who -> rename(who, "cn=go-" + who.name().toLowerCase(Locale.ROOT) + "," + OPEN, PEOPLE),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    // ---- beyond the matrix ----------------------------------------------------------------------

    @Test
    void hiddenEntriesNeverCountTowardTheSizeLimit() throws Exception {
        try (LDAPConnection bob = connect(Who.OTHER)) {
            SearchRequest request = new SearchRequest(ACL, SearchScope.SUB, "(objectClass=*)", "1.1");
            SearchResult visible = bob.search(request);
            request.setSizeLimit(visible.getEntryCount());
            SearchResult again = bob.search(request);
            assertEquals(ResultCode.SUCCESS, again.getResultCode());
            assertEquals(visible.getEntryCount(), again.getEntryCount());
            assertTrue(
                    visible.getSearchEntries().stream().noneMatch(e -> e.getDN().endsWith(SECRET)));
        }
    }

    @Test
    void aMalformedAciIsInvalidAttributeSyntaxNamingTheProblem() throws Exception {
        try (LDAPConnection admin = connect(Who.ADMIN)) {
            LDAPException e = assertThrows(
                    LDAPException.class,
                    () -> admin.modify(
                            OPEN,
                            new Modification(
                                    ModificationType.ADD,
                                    "aci",
                                    "(version 3.0; acl \"x\"; allow (reed) userdn = \"ldap:///anyone\";)")));
            assertEquals(ResultCode.INVALID_ATTRIBUTE_SYNTAX, e.getResultCode());
            assertEquals(
                    "invalid aci: at 31: expected a right (read, search, compare, write, selfwrite, add, delete, proxy, all), found 'reed'",
                    e.getDiagnosticMessage());
        }
    }

    @Test
    void ldapToolsSeeTheSameRules() {
        LdapUtils anonymous = LdapUtils.anonymous(port);
        ProcessResult phone =
                anonymous.ldapsearch("-LLL", "-b", ALICE, "-s", "base", "(objectClass=*)", "mail", "telephoneNumber");
        assertEquals(0, phone.exitCode(), phone.describe());
        assertTrue(phone.out().contains("mail: alice@example.com"), phone.describe());
        assertFalse(phone.out().contains("telephoneNumber"), phone.describe());
        ProcessResult secret = anonymous.ldapsearch("-LLL", "-b", SECRET, "(objectClass=*)", "1.1");
        assertEquals(0, secret.exitCode(), secret.describe());
        assertEquals("", secret.out().strip(), secret.describe());
        LdapUtils alice = anonymous.as(ALICE, "alice-pw");
        ProcessResult own = alice.ldapmodifyLdif(
                "dn: " + ALICE + "\nchangetype: modify\nreplace: description\ndescription: set by ldapmodify\n");
        assertEquals(0, own.exitCode(), own.describe());
        ProcessResult name = alice.ldapmodifyLdif("dn: " + ALICE + "\nchangetype: modify\nreplace: sn\nsn: nope\n");
        assertEquals(50, name.exitCode(), name.describe());
        ProcessResult hidden = alice.ldapmodifyLdif(
                "dn: cn=hidden," + SECRET + "\nchangetype: modify\nreplace: description\ndescription: nope\n");
        assertEquals(32, hidden.exitCode(), hidden.describe());
    }

    // ---- the matrix machinery -------------------------------------------------------------------

    private interface Cell<T> {
        T run(Who who) throws Exception;
    }

    private static <T> Map<Who, T> only(Who who, T value) {
        return Map.of(who, value);
    }

    /** Runs the cell for every client: the listed outcome where given, {@code otherwise} elsewhere. */
    private static <T> void expect(Cell<T> cell, Map<Who, T> listed, T otherwise) throws Exception {
        Map<Who, T> expected = new EnumMap<>(Who.class);
        Map<Who, T> actual = new EnumMap<>(Who.class);
        for (Who who : Who.values()) {
            expected.put(who, listed.getOrDefault(who, otherwise));
            actual.put(who, cell.run(who));
            CELLS.incrementAndGet();
        }
        assertEquals(expected, actual);
    }

    private static String dnOf(Who who) {
        return switch (who) {
            case ANONYMOUS -> "";
            case SELF -> ALICE;
            case OTHER -> BOB;
            case MEMBER -> GINA;
            case ADMIN -> TestData.ADMIN_DN;
        };
    }

    private static LDAPConnection connect(Who who) throws LDAPException {
        LDAPConnection c = new LDAPConnection("127.0.0.1", port);
        switch (who) {
            case ANONYMOUS -> {}
            case ADMIN -> c.bind(TestData.ADMIN_DN, adminPassword);
            case SELF -> c.bind(ALICE, "alice-pw");
            case OTHER -> c.bind(BOB, "bob-pw");
            case MEMBER -> c.bind(GINA, "gina-pw");
        }
        return c;
    }

    private static boolean has(Who who, String dn, String attribute) throws LDAPException {
        try (LDAPConnection c = connect(who)) {
            SearchResultEntry e = c.getEntry(dn, attribute);
            return e != null && e.hasAttribute(attribute);
        }
    }

    private static int count(Who who, String base, SearchScope scope, String filter) throws LDAPException {
        try (LDAPConnection c = connect(who)) {
            return c.search(new SearchRequest(base, scope, filter, "1.1")).getEntryCount();
        } catch (LDAPException e) {
            if (e.getResultCode().equals(ResultCode.NO_SUCH_OBJECT)) {
                return 0;
            }
            throw e;
        }
    }

    private static ResultCode compare(Who who, String dn, String attribute, String value) throws LDAPException {
        return outcome(who, c -> c.compare(new CompareRequest(dn, attribute, value)));
    }

    private static ResultCode modify(Who who, String dn, ModificationType type, String attribute, String value)
            throws LDAPException {
        return outcome(who, c -> c.modify(new ModifyRequest(dn, new Modification(type, attribute, value))));
    }

    private static ResultCode add(Who who, String dn) throws LDAPException {
        String cn = dn.substring(3, dn.indexOf(','));
        return outcome(
                who,
                c -> c.add(new AddRequest(
                        dn, new Attribute[] {new Attribute("objectClass", "organizationalRole"), new Attribute("cn", cn)
                        })));
    }

    private static ResultCode delete(Who who, String dn) throws LDAPException {
        return outcome(who, c -> c.delete(dn));
    }

    private static ResultCode rename(Who who, String dn, String newSuperior) throws LDAPException {
        String newRdn = dn.substring(0, dn.indexOf(',')).replace("cn=", "cn=renamed-");
        return outcome(who, c -> c.modifyDN(new ModifyDNRequest(dn, newRdn, true, newSuperior)));
    }

    private interface Operation {
        LDAPResult run(LDAPConnection c) throws LDAPException;
    }

    private static ResultCode outcome(Who who, Operation operation) throws LDAPException {
        try (LDAPConnection c = connect(who)) {
            return operation.run(c).getResultCode();
        } catch (LDAPException e) {
            if (e.getResultCode().equals(ResultCode.SERVER_DOWN)
                    || e.getResultCode().equals(ResultCode.CONNECT_ERROR)) {
                throw e;
            }
            return e.getResultCode();
        }
    }

    /** A salted SHA-1 hash as slappasswd writes it; the server refuses binds against cleartext values. */
    private static String ssha(String password) {
        try {
            byte[] salt = "8bytesal".getBytes(StandardCharsets.US_ASCII);
            MessageDigest sha = MessageDigest.getInstance("SHA-1");
            sha.update(password.getBytes(StandardCharsets.UTF_8));
            sha.update(salt);
            byte[] digest = sha.digest();
            byte[] stored = Arrays.copyOf(digest, digest.length + salt.length);
            System.arraycopy(salt, 0, stored, digest.length, salt.length);
            return "{SSHA}" + Base64.getEncoder().encodeToString(stored);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Entry ldif(String... lines) throws Exception {
        return new Entry(lines);
    }
}
