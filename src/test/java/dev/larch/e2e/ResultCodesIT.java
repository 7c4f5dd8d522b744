package dev.larch.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each result code the server promises, as ldap-utils show it: the tool's exit code is the result
 * code, and standard error carries OpenLDAP's text for it, the matched DN and the server's message.
 * The class owns {@code ou=codes} on the shared server.
 */
@ExtendWith(SharedServer.class)
class ResultCodesIT {
    static final String CODES = "ou=codes," + TestData.SUFFIX;

    static LdapUtils anonymous;
    static LdapUtils admin;

    @BeforeAll
    static void createTheCodesSubtree(SharedServer.Server server) {
        anonymous = LdapUtils.anonymous(server.port());
        admin = anonymous.asAdmin(server.adminPassword());
        ProcessResult r = admin.ldapaddLdif(
                "dn: " + CODES + "\nobjectClass: organizationalUnit\nou: codes\n\n" + TestData.person("exists", CODES));
        assertEquals(0, r.exitCode(), r.describe());
    }

    private static void assertFails(int code, String firstErrorLine, ProcessResult r) {
        assertEquals(code, r.exitCode(), r.describe());
        assertEquals(firstErrorLine, r.err().lines().findFirst().orElse(""), r.describe());
    }

    private static void assertErrorLine(String line, ProcessResult r) {
        assertTrue(r.err().lines().anyMatch(line::equals), "no line '" + line + "'\n" + r.describe());
    }

    @Test
    void searchBelowAMissingEntryAnswersNoSuchObjectWithTheMatchedDn() {
        ProcessResult r = anonymous.ldapsearch("-b", "uid=nobody,ou=missing," + CODES, "-s", "base");
        assertEquals(32, r.exitCode(), r.describe());
        assertTrue(r.out().lines().anyMatch("result: 32 No such object"::equals), r.describe());
        assertTrue(r.out().lines().anyMatch(("matchedDN: " + CODES)::equals), r.describe());
    }

    @Test
    void modifyOfAMissingEntryAnswersNoSuchObjectWithTheMatchedDn() {
        ProcessResult r =
                admin.ldapmodifyLdif("dn: uid=nobody," + CODES + "\nchangetype: modify\nreplace: sn\nsn: x\n");
        assertFails(32, "ldap_modify: No such object (32)", r);
        assertErrorLine("\tmatched DN: " + CODES, r);
    }

    @Test
    void deleteOfAMissingEntryAnswersNoSuchObjectWithTheMatchedDn() {
        ProcessResult r = admin.ldapdelete("uid=nobody,ou=missing," + CODES);
        assertFails(32, "ldap_delete: No such object (32)", r);
        assertErrorLine("\tmatched DN: " + CODES, r);
    }

    @Test
    void addingAnExistingEntryAnswersEntryAlreadyExists() {
        ProcessResult r = admin.ldapaddLdif(TestData.person("exists", CODES));
        assertFails(68, "ldap_add: Already exists (68)", r);
        // RFC 4511 4.1.9: a matched DN accompanies name errors only.
        assertFalse(r.err().contains("matched DN"), r.describe());
    }

    @Test
    void renamingOntoAnExistingEntryAnswersEntryAlreadyExists() {
        assertEquals(0, admin.ldapaddLdif(TestData.person("other", CODES)).exitCode());
        ProcessResult r = admin.ldapmodrdn("uid=other," + CODES, "uid=exists");
        assertEquals(68, r.exitCode(), r.describe());
        // ldapmodrdn reports on standard output.
        assertEquals(
                "Rename Result: Already exists (68)",
                r.out().lines().findFirst().orElse(""),
                r.describe());
    }

    @Test
    void aSearchBaseThatIsNoDnAnswersInvalidDnSyntax() {
        ProcessResult r = anonymous.ldapsearch("-b", "not a dn", "-s", "base");
        assertEquals(34, r.exitCode(), r.describe());
        assertTrue(r.out().lines().anyMatch("result: 34 Invalid DN syntax"::equals), r.describe());
        assertFalse(r.out().contains("ERR_") || r.out().contains("0x"), "no library codes or dumps: " + r.describe());
    }

    @Test
    void addingAnEntryNamedByNoDnAnswersInvalidDnSyntax() {
        ProcessResult r = admin.ldapaddLdif("dn: nonsense\nobjectClass: top\n");
        assertFails(34, "ldap_add: Invalid DN syntax (34)", r);
    }

    @Test
    void addingAPersonWithoutItsRequiredSurnameAnswersObjectClassViolation() {
        ProcessResult r =
                admin.ldapaddLdif("dn: uid=nosn," + CODES + "\nobjectClass: inetOrgPerson\nuid: nosn\ncn: No Sn\n");
        assertFails(65, "ldap_add: Object class violation (65)", r);
        assertTrue(r.err().contains("'sn'"), "the message should name the attribute\n" + r.describe());
    }

    @Test
    void addingAnAttributeTheSchemaDoesNotAllowAnswersObjectClassViolation() {
        ProcessResult r = admin.ldapaddLdif(TestData.person("extra", CODES) + "uidNumber: 5\n");
        assertFails(65, "ldap_add: Object class violation (65)", r);
    }

    @Test
    void anUnknownAttributeAnswersUndefinedAttributeType() {
        ProcessResult r = admin.ldapaddLdif(TestData.person("unknown", CODES) + "fooBar: 1\n");
        assertFails(17, "ldap_add: Undefined attribute type (17)", r);
        assertTrue(r.err().contains("fooBar"), r.describe());
    }

    @Test
    void modifyingAnUnknownAttributeAnswersUndefinedAttributeType() {
        ProcessResult r =
                admin.ldapmodifyLdif("dn: uid=exists," + CODES + "\nchangetype: modify\nadd: fooBar\nfooBar: 1\n-\n");
        assertFails(17, "ldap_modify: Undefined attribute type (17)", r);
    }

    @Test
    void aValueOutsideItsSyntaxAnswersInvalidAttributeSyntax() {
        ProcessResult r = admin.ldapaddLdif("""
                dn: uid=badsyntax,%s
                objectClass: inetOrgPerson
                objectClass: posixAccount
                uid: badsyntax
                cn: Bad Syntax
                sn: Syntax
                uidNumber: twelve
                gidNumber: 1
                homeDirectory: /home/bad
                """.formatted(CODES));
        assertFails(21, "ldap_add: Invalid syntax (21)", r);
    }

    @Test
    void twoValuesForASingleValuedAttributeAnswerConstraintViolation() {
        ProcessResult r = admin.ldapaddLdif(TestData.person("twice", CODES) + "displayName: one\ndisplayName: two\n");
        assertFails(19, "ldap_add: Constraint violation (19)", r);
    }

    @Test
    void aWrongAdminPasswordAnswersInvalidCredentials() {
        ProcessResult r = anonymous.asAdmin("wrong").ldapwhoami();
        assertFails(49, "ldap_bind: Invalid credentials (49)", r);
    }

    @Test
    void bindingAsAMissingEntryAnswersInvalidCredentials() {
        ProcessResult r = anonymous.as("uid=nobody," + CODES, "whatever").ldapwhoami();
        assertFails(49, "ldap_bind: Invalid credentials (49)", r);
    }

    @Test
    void anAnonymousAddAnswersInsufficientAccessRights() {
        ProcessResult r = anonymous.ldapaddLdif(TestData.person("anon", CODES));
        assertFails(50, "ldap_add: Insufficient access (50)", r);
    }

    @Test
    void anAnonymousDeleteAnswersInsufficientAccessRights() {
        ProcessResult r = anonymous.ldapdelete("uid=exists," + CODES);
        assertFails(50, "ldap_delete: Insufficient access (50)", r);
    }

    @Test
    void renamingTheSuffixAnswersUnwillingToPerform() {
        ProcessResult r = admin.ldapmodrdn(TestData.SUFFIX, "dc=elsewhere");
        assertEquals(53, r.exitCode(), r.describe());
        assertEquals(
                "Rename Result: Server is unwilling to perform (53)",
                r.out().lines().findFirst().orElse(""),
                r.describe());
    }

    @Test
    void movingAnEntryBelowItselfAnswersUnwillingToPerform() {
        ProcessResult r = admin.ldapmodrdn("-s", "uid=exists," + CODES, CODES, "ou=codes");
        assertEquals(53, r.exitCode(), r.describe());
        assertEquals(
                "Rename Result: Server is unwilling to perform (53)",
                r.out().lines().findFirst().orElse(""),
                r.describe());
    }

    @Test
    void aDnWithAnEmptyPasswordAnswersUnwillingToPerform() {
        ProcessResult r = anonymous.as(TestData.ADMIN_DN, "").ldapwhoami();
        assertFails(53, "ldap_bind: Server is unwilling to perform (53)", r);
    }
}
