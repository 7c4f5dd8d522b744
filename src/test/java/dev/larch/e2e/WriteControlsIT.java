package dev.larch.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Controls on writes and identity as OpenLDAP's tools send them: assertion, permissive modify,
 * subtree delete, proxied authorization, pre-read, post-read and no-op. The class owns {@code ou=wctl}.
 */
@ExtendWith(SharedServer.class)
class WriteControlsIT {
    static final String WCTL = "ou=wctl," + TestData.SUFFIX;
    static final String WREN = "uid=wren," + WCTL;
    static final String READ = "uid=read," + WCTL;

    static LdapUtils admin;

    @BeforeAll
    static void load(SharedServer.Server server) {
        admin = LdapUtils.anonymous(server.port()).asAdmin(server.adminPassword());
        ProcessResult added = admin.ldapaddLdif("dn: " + WCTL + "\nobjectClass: organizationalUnit\nou: wctl\n\n"
                + "dn: " + WREN + "\nobjectClass: inetOrgPerson\nuid: wren\ncn: Wren\nsn: First\n\n"
                + "dn: " + READ + "\nobjectClass: inetOrgPerson\nuid: read\ncn: Read\nsn: Before\n\n"
                + "dn: ou=doomed," + WCTL + "\nobjectClass: organizationalUnit\nou: doomed\n\n"
                + "dn: ou=inner,ou=doomed," + WCTL + "\nobjectClass: organizationalUnit\nou: inner\n");
        assertEquals(0, added.exitCode(), added.describe());
    }

    @Test
    void assertionGuardsAModify() {
        String change = "dn: " + WREN + "\nchangetype: modify\nreplace: sn\nsn: Second\n";
        ProcessResult refused = admin.ldapmodifyLdifWith(change, "-e", "assert=(sn=Nobody)");
        assertEquals(122, refused.exitCode(), refused.describe());
        assertTrue(refused.err().contains("Assertion Failed"), refused.describe());
        ProcessResult done = admin.ldapmodifyLdifWith(change, "-e", "assert=(sn=First)");
        assertEquals(0, done.exitCode(), done.describe());
    }

    @Test
    void permissiveModifyForgivesAnExistingValue() {
        String change = "dn: " + WREN + "\nchangetype: modify\nadd: cn\ncn: Wren\n";
        assertEquals(20, admin.ldapmodifyLdifWith(change).exitCode(), "attributeOrValueExists without the control");
        ProcessResult permissive = admin.ldapmodifyLdifWith(change, "-e", "!1.2.840.113556.1.4.1413");
        assertEquals(0, permissive.exitCode(), permissive.describe());
    }

    @Test
    void subtreeDeleteRemovesANonLeaf() {
        ProcessResult r = admin.ldapdelete("-e", "!1.2.840.113556.1.4.805", "ou=doomed," + WCTL);
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(
                32,
                admin.ldapsearch("-b", "ou=inner,ou=doomed," + WCTL, "-s", "base")
                        .exitCode());
    }

    @Test
    void theAdministratorActsAsAnotherIdentity() {
        ProcessResult r = admin.ldapwhoami("-e", "!authzid=dn:" + WREN);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("dn:" + WREN), r.describe());
    }

    @Test
    void preReadAndPostReadShowTheEntryAroundAModify() {
        String change = "dn: " + READ + "\nchangetype: modify\nreplace: sn\nsn: After\n";
        ProcessResult r = admin.ldapmodifyLdifWith(change, "-e", "preread=cn,sn", "-e", "postread");
        assertEquals(0, r.exitCode(), r.describe());
        String out = r.out() + r.err();
        assertTrue(out.contains("preread"), r.describe());
        assertTrue(out.contains("postread"), r.describe());
        assertTrue(out.contains("sn: Before"), r.describe());
        assertTrue(out.contains("sn: After"), r.describe());
        assertTrue(out.contains("cn: Read"), r.describe());
    }

    @Test
    void noOpChecksEveryUpdateAndChangesNothing() {
        String dn = "uid=ghost," + WCTL;
        ProcessResult add = admin.ldapmodifyLdifWith(
                "dn: " + dn + "\nchangetype: add\nobjectClass: inetOrgPerson\nuid: ghost\ncn: G\nsn: G\n",
                "-e",
                "!noop");
        ProcessResult modify = admin.ldapmodifyLdifWith(
                "dn: " + WREN + "\nchangetype: modify\nreplace: cn\ncn: Nobody\n", "-e", "!noop");
        ProcessResult delete = admin.ldapdelete("-e", "!noop", WREN);
        for (ProcessResult r : new ProcessResult[] {add, modify, delete}) {
            // noOperation is 16654; a process exit code keeps its low eight bits.
            assertEquals(16654 & 0xFF, r.exitCode(), r.describe());
            assertTrue(r.err().contains("No Operation"), r.describe());
        }
        assertEquals(32, admin.ldapsearch("-b", dn, "-s", "base").exitCode(), "the add was not committed");
        ProcessResult wren = admin.ldapsearch("-b", WREN, "-s", "base", "cn");
        assertEquals(0, wren.exitCode(), wren.describe());
        assertTrue(wren.out().contains("cn: Wren"), wren.describe());
        ProcessResult refused = admin.ldapmodifyLdifWith(
                "dn: " + WREN + "\nchangetype: modify\ndelete: sn\n", "-e", "!noop"); // sn is required
        assertEquals(65, refused.exitCode(), refused.describe());
    }
}
