package dev.larch.jmh.data;

import java.util.Set;
import java.util.TreeSet;

import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PeopleTest {

    /** The attribute types client-bench's PersonWriter writes besides objectClass (./larch gen). */
    private static final Set<String> DBGEN = Set.of(
            "cn",
            "sn",
            "givenName",
            "initials",
            "uid",
            "mail",
            "userPassword",
            "description",
            "departmentNumber",
            "employeeType",
            "title",
            "ou",
            "l",
            "roomNumber",
            "telephoneNumber",
            "facsimileTelephoneNumber",
            "homePhone",
            "mobile",
            "pager",
            "carLicense",
            "postalAddress",
            "manager",
            "secretary");

    private static Set<String> types(Entry e) {
        Set<String> out = new TreeSet<>();
        for (Attribute a : e) {
            out.add(a.getUpId());
        }
        return out;
    }

    @Test
    void everyPersonHasTheDbgenAttributeTypes() {
        assertEquals(People.ATTRIBUTE_TYPES, DBGEN.size());
        for (int i : new int[] {0, 1, 12_345, 99_999}) {
            Set<String> expected = new TreeSet<>(DBGEN);
            expected.add("objectClass");
            assertEquals(expected, types(People.person(i)), "person " + i);
        }
    }

    @Test
    void aPersonIsTheSameEveryTimeAndDiffersFromTheNext() throws LdapException {
        assertEquals(People.person(4_242), People.person(4_242));
        assertNotEquals(
                People.person(4_242).get("userPassword").get().getString(),
                People.person(4_243).get("userPassword").get().getString());
        assertTrue(People.person(4_242).get("userPassword").getString().startsWith("{SSHA}"));
    }

    @Test
    void namesAndKeysFollowTheNumber() throws LdapException {
        assertEquals("uid=user012345,ou=unit012,ou=people,dc=example,dc=com", People.dn(12_345));
        assertEquals("user012345x", People.absentUid(12_345));
        assertEquals(People.dn(12_300), People.person(12_345).get("manager").getString());
        assertEquals(People.dn(12_340), People.person(12_345).get("secretary").getString());
    }
}
