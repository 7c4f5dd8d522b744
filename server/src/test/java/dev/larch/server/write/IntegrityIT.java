package dev.larch.server.write;

import java.util.List;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Referential integrity on delete and rename, and attribute uniqueness, with the default rules. */
class IntegrityIT {
    static final String S = TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch =
            LarchServerExtension.withBaseTree().configured(TestServer::withIntegrityRules);

    static void person(String uid, String ou) {
        larch.server()
                .add("dn: uid=" + uid + ",ou=" + ou + "," + S + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: "
                        + uid + "\nsn: " + uid + "\nmail: " + uid + "@example.com\n");
    }

    static void unit(String ou) {
        larch.server().add("dn: ou=" + ou + "," + S + "\nobjectClass: organizationalUnit\nou: " + ou + "\n");
    }

    static void group(String cn, String... members) {
        StringBuilder ldif =
                new StringBuilder("dn: cn=" + cn + "," + S + "\nobjectClass: groupOfNames\ncn: " + cn + "\n");
        for (String m : members) {
            ldif.append("member: ").append(m).append('\n');
        }
        larch.server().add(ldif.toString());
    }

    static List<String> members(LDAPConnection c, String cn) throws Exception {
        String[] values = c.getEntry("cn=" + cn + "," + S, "member").getAttributeValues("member");
        return values == null ? List.of() : List.of(values);
    }

    @Test
    void deletingAnEntryRemovesItFromEveryGroupAndALastMemberLeavesTheEmptyDn() throws Exception {
        unit("refdel");
        person("rd1", "refdel");
        person("rd2", "refdel");
        group("rdboth", "uid=rd1,ou=refdel," + S, "uid=rd2,ou=refdel," + S);
        group("rdone", "uid=rd1,ou=refdel," + S);
        larch.server()
                .add("dn: uid=rd3,ou=refdel," + S + "\nobjectClass: inetOrgPerson\nuid: rd3\ncn: rd3\nsn: rd3\n"
                        + "manager: uid=rd1,ou=refdel," + S + "\n");
        try (LDAPConnection c = larch.server().admin()) {
            c.delete("uid=rd1,ou=refdel," + S);
            assertEquals(List.of("uid=rd2,ou=refdel," + S), members(c, "rdboth"));
            assertEquals(List.of(""), members(c, "rdone"));
            assertFalse(c.getEntry("uid=rd3,ou=refdel," + S, "manager").hasAttribute("manager"));
            // the member index followed: nothing still names the deleted entry
            assertEquals(
                    0,
                    c.search(S, SearchScope.SUB, "(member=uid=rd1,ou=refdel," + S + ")")
                            .getEntryCount());
        }
    }

    @Test
    void renamingAnEntryOrAnAncestorRenamesItInGroups() throws Exception {
        unit("refren");
        person("rr1", "refren");
        group("rrgroup", "uid=rr1,ou=refren," + S);
        try (LDAPConnection c = larch.server().admin()) {
            c.modifyDN("uid=rr1,ou=refren," + S, "uid=rr1b", true);
            assertEquals(List.of("uid=rr1b,ou=refren," + S), members(c, "rrgroup"));
            c.modifyDN("ou=refren," + S, "ou=refren2", true);
            assertEquals(List.of("uid=rr1b,ou=refren2," + S), members(c, "rrgroup"));
        }
    }

    @Test
    void uidAndMailAreUniqueOnAddModifyAndRename() throws Exception {
        unit("uniq");
        person("u1", "uniq");
        person("u2", "uniq");
        try (LDAPConnection c = larch.server().admin()) {
            LDAPException add = assertThrows(
                    LDAPException.class,
                    () -> c.add(
                            "dn: uid=u1,ou=people," + S, "objectClass: inetOrgPerson", "uid: u1", "cn: x", "sn: x"));
            assertEquals(ResultCode.CONSTRAINT_VIOLATION, add.getResultCode());
            assertTrue(add.getDiagnosticMessage().contains("uid"), add.getDiagnosticMessage());
            assertFalse(add.getDiagnosticMessage().contains("ou=uniq"), "the holder is not named");

            LDAPException modify = assertThrows(
                    LDAPException.class,
                    () -> c.modify(
                            "uid=u2,ou=uniq," + S, new Modification(ModificationType.ADD, "mail", "u1@example.com")));
            assertEquals(ResultCode.CONSTRAINT_VIOLATION, modify.getResultCode());

            LDAPException rename = assertThrows(
                    LDAPException.class, () -> c.modifyDN("uid=u2,ou=uniq," + S, "uid=u1", false, "ou=people," + S));
            assertEquals(ResultCode.CONSTRAINT_VIOLATION, rename.getResultCode());

            // An entry keeps its own values: replacing them with themselves is no conflict.
            c.modify("uid=u1,ou=uniq," + S, new Modification(ModificationType.REPLACE, "mail", "u1@example.com"));
            assertArrayEquals(
                    new String[] {"u1@example.com"},
                    c.getEntry("uid=u1,ou=uniq," + S, "mail").getAttributeValues("mail"));
        }
    }
}
