package dev.larch.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Referral objects and ManageDsaIT (RFC 3296) as OpenLDAP's tools see them: {@code # search reference}
 * lines without the control, the referral object and what lies below it with {@code -M}, {@code -MM}
 * or {@code -e manageDSAit}, and referral results (exit code 10). The class owns {@code ou=refs}.
 */
@ExtendWith(SharedServer.class)
class ReferralsIT {
    static final String REFS = "ou=refs," + TestData.SUFFIX;
    static final String AWAY = "ou=away," + REFS;
    static final String UNDER = "uid=under," + AWAY;
    static final String URL = "ldap://far.example:389/ou=away,dc=far";

    static LdapUtils admin;

    @BeforeAll
    static void load(SharedServer.Server server) {
        admin = LdapUtils.anonymous(server.port()).asAdmin(server.adminPassword());
        ProcessResult added = admin.ldapaddLdif("dn: " + REFS + "\nobjectClass: organizationalUnit\nou: refs\n\n"
                + "dn: " + AWAY + "\nobjectClass: referral\nobjectClass: extensibleObject\nou: away\nref: " + URL
                + "\n");
        assertEquals(0, added.exitCode(), added.describe());
        ProcessResult under = admin.ldapmodifyLdifWith(
                "dn: " + UNDER + "\nchangetype: add\nobjectClass: inetOrgPerson\nuid: under\ncn: Under\nsn: Under\n",
                "-M");
        assertEquals(0, under.exitCode(), under.describe());
    }

    @AfterAll
    static void remove() {
        // Other classes search the whole tree: leave no referral object behind.
        ProcessResult r = admin.ldapdelete("-M", "-r", REFS);
        assertEquals(0, r.exitCode(), r.describe());
    }

    @Test
    void aSubtreeSearchPrintsASearchReferenceAndNothingBelowIt() {
        ProcessResult r = admin.ldapsearch("-o", "ldif-wrap=no", "-b", REFS, "-s", "sub", "(objectClass=*)", "1.1");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("# search reference"), r.describe());
        assertTrue(r.out().contains("ref: " + URL + "??sub"), r.describe());
        assertTrue(r.out().contains("dn: " + REFS), r.describe());
        assertFalse(r.out().contains("dn: " + AWAY), r.describe());
        assertFalse(r.out().contains("dn: " + UNDER), r.describe());
        assertTrue(r.out().contains("# numReferences: 1"), r.describe());
    }

    @Test
    void manageDsaItShowsTheReferralObjectAsAnEntry() {
        for (String[] control : new String[][] {{"-M"}, {"-MM"}, {"-e", "manageDSAit"}, {"-e", "!manageDSAit"}}) {
            String[] args = new String[control.length + 7];
            System.arraycopy(control, 0, args, 0, control.length);
            System.arraycopy(
                    new String[] {"-o", "ldif-wrap=no", "-b", REFS, "-s", "sub", "(objectClass=*)"},
                    0,
                    args,
                    control.length,
                    7);
            ProcessResult r = admin.ldapsearch(args);
            assertEquals(0, r.exitCode(), r.describe());
            assertFalse(r.out().contains("# search reference"), r.describe());
            assertTrue(r.out().contains("dn: " + AWAY), r.describe());
            assertTrue(r.out().contains("dn: " + UNDER), r.describe());
        }
        ProcessResult ref = admin.ldapsearch("-M", "-LLL", "-b", AWAY, "-s", "base", "(objectClass=*)", "ref");
        assertEquals(0, ref.exitCode(), ref.describe());
        assertTrue(ref.out().contains("ref: " + URL), ref.describe());
    }

    @Test
    void aBaseBelowTheReferralObjectIsAReferral() {
        ProcessResult r = admin.ldapsearch("-b", UNDER, "-s", "base", "(objectClass=*)");
        assertEquals(10, r.exitCode(), r.describe());
        String both = r.out() + r.err();
        assertTrue(both.contains("ldap://far.example:389/uid=under,ou=away,dc=far"), r.describe());
        assertTrue(both.contains(AWAY), "the matched DN is the referral object\n" + r.describe());
    }

    @Test
    void ldapmodifyNeedsTheControlBelowAReferralObject() {
        String change = "dn: " + UNDER + "\nchangetype: modify\nreplace: sn\nsn: Changed\n";
        ProcessResult refused = admin.ldapmodifyLdifWith(change);
        assertEquals(10, refused.exitCode(), refused.describe());
        ProcessResult done = admin.ldapmodifyLdifWith(change, "-M");
        assertEquals(0, done.exitCode(), done.describe());
    }
}
