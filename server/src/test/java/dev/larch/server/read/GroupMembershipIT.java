package dev.larch.server.read;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * memberOf computed from the groups (groupOfNames and groupOfUniqueNames, nested, with a cycle), the
 * memberOf equality filter, and the in-chain matching rule both ways.
 */
class GroupMembershipIT {
    static final String G = "ou=groups," + TestServer.SUFFIX;
    static final String P = "ou=people," + TestServer.SUFFIX;

    static String person(String uid) {
        return "uid=" + uid + "," + P;
    }

    static String group(String cn) {
        return "cn=" + cn + "," + G;
    }

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("index.uniqueMember", "equality"))
            .adding(String.join(
                    "\n",
                    List.of(
                            people("ann", "bob", "cat", "dan", "eve"),
                            groupOfNames("g1", person("ann"), group("g3")),
                            groupOfNames("g2", group("g1"), person("bob")),
                            groupOfNames("g3", group("g2")),
                            groupOfNames("lonely", person("eve")),
                            "dn: " + group("gu") + "\nobjectClass: groupOfUniqueNames\ncn: gu\nuniqueMember: "
                                    + person("dan") + "\n")));

    static String people(String... uids) {
        StringBuilder out = new StringBuilder();
        for (String uid : uids) {
            out.append("dn: ")
                    .append(person(uid))
                    .append("\nobjectClass: inetOrgPerson\nuid: ")
                    .append(uid)
                    .append("\ncn: ")
                    .append(uid)
                    .append("\nsn: ")
                    .append(uid)
                    .append("\n\n");
        }
        return out.toString();
    }

    static String groupOfNames(String cn, String... members) {
        StringBuilder out = new StringBuilder("dn: " + group(cn) + "\nobjectClass: groupOfNames\ncn: " + cn + "\n");
        for (String m : members) {
            out.append("member: ").append(m).append('\n');
        }
        return out.append('\n').toString();
    }

    static Set<String> memberOf(LDAPConnection c, String dn, String... attributes) throws Exception {
        SearchResultEntry e = c.getEntry(dn, attributes);
        String[] values = e.getAttributeValues("memberOf");
        return values == null ? Set.of() : new TreeSet<>(List.of(values));
    }

    static Set<String> dns(SearchResult result) {
        Set<String> out = new TreeSet<>();
        result.getSearchEntries().forEach(e -> out.add(e.getDN()));
        return out;
    }

    @Test
    void memberOfListsNestedGroupsAndEndsAtACycle() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(Set.of(group("g1"), group("g2"), group("g3")), memberOf(c, person("ann"), "memberOf"));
            assertEquals(Set.of(group("g1"), group("g2"), group("g3")), memberOf(c, person("bob"), "+"));
            assertEquals(Set.of(group("gu")), memberOf(c, person("dan"), "memberOf"));
            assertEquals(Set.of(), memberOf(c, person("cat"), "memberOf"));
            // not asked for, not computed
            assertNull(c.getEntry(person("ann")).getAttribute("memberOf"));
            assertFalse(c.getEntry(person("ann"), "*").hasAttribute("memberOf"));
        }
    }

    @Test
    void memberOfFilterAndTheInChainRuleBothWays() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(
                    Set.of(person("ann"), person("bob"), group("g1"), group("g2")),
                    dns(c.search(TestServer.SUFFIX, SearchScope.SUB, "(memberOf=" + group("g3") + ")", "1.1")));
            assertEquals(
                    Set.of(person("ann"), person("bob")),
                    dns(c.search(
                            TestServer.SUFFIX,
                            SearchScope.SUB,
                            "(&(objectClass=inetOrgPerson)(memberOf:1.2.840.113556.1.4.1941:=" + group("g3") + "))",
                            "1.1")));
            assertEquals(
                    Set.of(group("g1"), group("g2"), group("g3")),
                    dns(c.search(
                            TestServer.SUFFIX,
                            SearchScope.SUB,
                            "(member:1.2.840.113556.1.4.1941:=" + person("ann") + ")",
                            "1.1")));
            assertEquals(
                    Set.of(group("lonely")),
                    dns(c.search(
                            G, SearchScope.ONE, "(member:1.2.840.113556.1.4.1941:=" + person("eve") + ")", "1.1")));
            assertEquals(
                    Set.of(),
                    dns(c.search(TestServer.SUFFIX, SearchScope.SUB, "(memberOf=cn=nosuch," + G + ")", "1.1")));
        }
    }
}
