package dev.larch.e2e;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Group membership as OpenLDAP's tools ask for it: memberOf on a person, and the AD in-chain rule
 * through a nested group. The class owns {@code ou=grp}.
 */
@ExtendWith(SharedServer.class)
class GroupsIT {
    static final String GRP = "ou=grp," + TestData.SUFFIX;

    static LdapUtils admin;

    @BeforeAll
    static void load(SharedServer.Server server) {
        admin = LdapUtils.anonymous(server.port()).asAdmin(server.adminPassword());
        ProcessResult added = admin.ldapaddLdif("dn: " + GRP + "\nobjectClass: organizationalUnit\nou: grp\n\n"
                + "dn: uid=gina," + GRP + "\nobjectClass: inetOrgPerson\nuid: gina\ncn: Gina\nsn: G\n\n"
                + "dn: cn=inner," + GRP + "\nobjectClass: groupOfNames\ncn: inner\nmember: uid=gina," + GRP + "\n\n"
                + "dn: cn=outer," + GRP + "\nobjectClass: groupOfNames\ncn: outer\nmember: cn=inner," + GRP + "\n");
        assertEquals(0, added.exitCode(), added.describe());
    }

    private static List<String> values(ProcessResult r, String attribute) {
        assertEquals(0, r.exitCode(), r.describe());
        return r.out()
                .lines()
                .filter(l -> l.startsWith(attribute + ": "))
                .map(l -> l.substring(attribute.length() + 2))
                .sorted()
                .toList();
    }

    @Test
    void memberOfListsDirectAndNestedGroups() {
        assertEquals(
                List.of("cn=inner," + GRP, "cn=outer," + GRP),
                values(admin.ldapsearch("-LLL", "-b", "uid=gina," + GRP, "-s", "base", "memberOf"), "memberOf"));
    }

    @Test
    void inChainRuleFindsNestedMembers() {
        assertEquals(
                List.of("uid=gina," + GRP),
                values(
                        admin.ldapsearch(
                                "-LLL",
                                "-b",
                                GRP,
                                "(&(objectClass=inetOrgPerson)(memberOf:1.2.840.113556.1.4.1941:=cn=outer," + GRP
                                        + "))",
                                "1.1"),
                        "dn"));
    }
}
