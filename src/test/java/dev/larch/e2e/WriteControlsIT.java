package dev.larch.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Controls on writes and identity as OpenLDAP's tools send them: assertion, permissive modify,
 * subtree delete and proxied authorization. The class owns {@code ou=wctl}.
 */
@ExtendWith(SharedServer.class)
class WriteControlsIT {
    static final String WCTL = "ou=wctl," + TestData.SUFFIX;
    static final String WREN = "uid=wren," + WCTL;

    static LdapUtils admin;

    @BeforeAll
    static void load(SharedServer.Server server) {
        admin = LdapUtils.anonymous(server.port()).asAdmin(server.adminPassword());
        ProcessResult added = admin.ldapaddLdif("dn: " + WCTL + "\nobjectClass: organizationalUnit\nou: wctl\n\n"
                + "dn: " + WREN + "\nobjectClass: inetOrgPerson\nuid: wren\ncn: Wren\nsn: First\n\n"
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
}
