package dev.larch.server.write;

import java.util.Set;
import java.util.TreeSet;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.entry.DefaultModification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Modify over the wire (RFC 4511 section 4.6, RFC 4525): each change type, each failure, atomicity. */
class ModifyHandlerIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree();

    /** A fresh posixAccount person per test, so tests do not see each other's changes. */
    private static String person(String uid) {
        String dn = "uid=" + uid + "," + PEOPLE;
        larch.server()
                .add("dn: " + dn + "\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\nuid: " + uid
                        + "\ncn: " + uid + " person\nsn: " + uid + "\nmail: " + uid
                        + "@example.com\ndescription: first\n"
                        + "uidNumber: 1000\ngidNumber: 100\nhomeDirectory: /home/" + uid + "\n");
        return dn;
    }

    private static Set<String> values(String dn, String attribute) throws LDAPException {
        SearchResultEntry e = larch.admin().getEntry(dn, attribute);
        Set<String> out = new TreeSet<>();
        if (e.getAttribute(attribute) != null) {
            for (String v : e.getAttributeValues(attribute)) {
                out.add(v);
            }
        }
        return out;
    }

    private static ResultCode modifyFails(String dn, Modification... mods) {
        return assertThrows(LDAPException.class, () -> larch.admin().modify(dn, mods))
                .getResultCode();
    }

    private static int count(String filter) throws LDAPException {
        return larch.admin()
                .search(TestServer.SUFFIX, SearchScope.SUB, filter, "1.1")
                .getEntryCount();
    }

    @Test
    void addDeleteAndReplaceChangeValuesAndIndexes() throws Exception {
        String dn = person("changes");
        larch.admin()
                .modify(
                        dn,
                        new Modification(ModificationType.ADD, "mail", "second@example.com"),
                        new Modification(ModificationType.DELETE, "description", "first"),
                        new Modification(ModificationType.REPLACE, "sn", "Changed"),
                        new Modification(ModificationType.ADD, "title", "Engineer"));
        assertEquals(Set.of("changes@example.com", "second@example.com"), values(dn, "mail"));
        assertEquals(Set.of(), values(dn, "description"));
        assertEquals(Set.of("Changed"), values(dn, "sn"));
        assertEquals(Set.of("Engineer"), values(dn, "title"));
        assertEquals(1, count("(mail=second@example.com)"));
        assertEquals(1, count("(sn=changed)"));
        assertEquals(0, count("(sn=changes)"));
        assertEquals(1, count("(&(uid=changes)(title=engineer))"));
    }

    @Test
    void deleteWithoutValuesRemovesTheAttribute() throws Exception {
        String dn = person("dropall");
        larch.admin().modify(dn, new Modification(ModificationType.DELETE, "mail"));
        assertEquals(Set.of(), values(dn, "mail"));
        assertEquals(0, count("(mail=dropall@example.com)"));
    }

    @Test
    void replaceWithoutValuesRemovesTheAttributeAndIsFineWhenAbsent() throws Exception {
        String dn = person("replacenone");
        larch.admin()
                .modify(
                        dn,
                        new Modification(ModificationType.REPLACE, "description"),
                        new Modification(ModificationType.REPLACE, "title"));
        assertEquals(Set.of(), values(dn, "description"));
    }

    @Test
    void incrementAddsToAnIntegerAttribute() throws Exception {
        String dn = person("counter");
        larch.admin().modify(dn, new Modification(ModificationType.INCREMENT, "uidNumber", "5"));
        assertEquals(Set.of("1005"), values(dn, "uidNumber"));
        larch.admin().modify(dn, new Modification(ModificationType.INCREMENT, "uidNumber", "-10"));
        assertEquals(Set.of("995"), values(dn, "uidNumber"));
    }

    @Test
    void incrementOfANonIntegerAttributeFails() throws Exception {
        String dn = person("notcounter");
        assertEquals(
                ResultCode.CONSTRAINT_VIOLATION,
                modifyFails(dn, new Modification(ModificationType.INCREMENT, "sn", "1")));
        assertEquals(
                ResultCode.NO_SUCH_ATTRIBUTE,
                modifyFails(dn, new Modification(ModificationType.INCREMENT, "shadowMin", "1")));
    }

    @Test
    void modifyStampsModifyTimestampAndModifiersName() throws Exception {
        String dn = person("stamps");
        SearchResultEntry before = larch.admin().getEntry(dn, "+");
        larch.admin().modify(dn, new Modification(ModificationType.REPLACE, "description", "second"));
        SearchResultEntry after = larch.admin().getEntry(dn, "+");
        assertEquals(new DN(TestServer.ADMIN_DN), new DN(after.getAttributeValue("modifiersName")));
        assertTrue(
                after.getAttributeValue("modifyTimestamp").compareTo(before.getAttributeValue("modifyTimestamp")) >= 0);
        assertEquals(before.getAttributeValue("createTimestamp"), after.getAttributeValue("createTimestamp"));
        assertEquals(before.getAttributeValue("entryUUID"), after.getAttributeValue("entryUUID"));
    }

    @Test
    void addingAnExistingValueIsAttributeOrValueExists() throws Exception {
        String dn = person("exists");
        assertEquals(
                ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
                modifyFails(dn, new Modification(ModificationType.ADD, "cn", "EXISTS  Person")));
    }

    @Test
    void deletingAnAbsentValueOrAttributeIsNoSuchAttribute() throws Exception {
        String dn = person("absent");
        assertEquals(
                ResultCode.NO_SUCH_ATTRIBUTE,
                modifyFails(dn, new Modification(ModificationType.DELETE, "mail", "other@example.com")));
        assertEquals(ResultCode.NO_SUCH_ATTRIBUTE, modifyFails(dn, new Modification(ModificationType.DELETE, "title")));
    }

    @Test
    void removingTheRdnValueIsNotAllowedOnRdn() throws Exception {
        String dn = person("rdn");
        assertEquals(
                ResultCode.NOT_ALLOWED_ON_RDN,
                modifyFails(dn, new Modification(ModificationType.DELETE, "uid", "rdn")));
        assertEquals(
                ResultCode.NOT_ALLOWED_ON_RDN,
                modifyFails(dn, new Modification(ModificationType.REPLACE, "uid", "other")));
        assertEquals(Set.of("rdn"), values(dn, "uid"));
        // another value may come and go as long as the naming value stays
        larch.admin().modify(dn, new Modification(ModificationType.ADD, "uid", "alias"));
        larch.admin().modify(dn, new Modification(ModificationType.DELETE, "uid", "alias"));
    }

    @Test
    void removingARequiredAttributeIsObjectClassViolation() throws Exception {
        String dn = person("required");
        assertEquals(
                ResultCode.OBJECT_CLASS_VIOLATION, modifyFails(dn, new Modification(ModificationType.DELETE, "sn")));
        assertEquals(
                ResultCode.OBJECT_CLASS_VIOLATION,
                modifyFails(dn, new Modification(ModificationType.DELETE, "objectClass", "posixAccount")));
    }

    @Test
    void addingADisallowedAttributeIsObjectClassViolation() throws Exception {
        String dn = person("disallowed");
        assertEquals(
                ResultCode.OBJECT_CLASS_VIOLATION,
                modifyFails(dn, new Modification(ModificationType.ADD, "dc", "nope")));
    }

    @Test
    void addingAnObjectClassBringsItsRulesAndSuperclasses() throws Exception {
        String dn = "cn=widget,ou=groups," + TestServer.SUFFIX;
        larch.server().add("dn: " + dn + "\nobjectClass: device\ncn: widget\n");
        larch.admin()
                .modify(
                        dn,
                        new Modification(ModificationType.ADD, "objectClass", "ieee802Device"),
                        new Modification(ModificationType.ADD, "macAddress", "00:11:22:33:44:55"));
        assertEquals(1, count("(&(cn=widget)(objectClass=top))"));
    }

    @Test
    void secondValueOfASingleValuedAttributeIsConstraintViolation() throws Exception {
        String dn = person("single");
        assertEquals(
                ResultCode.CONSTRAINT_VIOLATION,
                modifyFails(dn, new Modification(ModificationType.ADD, "uidNumber", "2000")));
        assertEquals(
                ResultCode.CONSTRAINT_VIOLATION,
                modifyFails(dn, new Modification(ModificationType.REPLACE, "uidNumber", "1", "2")));
    }

    @Test
    void badValueIsInvalidAttributeSyntaxAndUnknownTypeIsUndefinedAttributeType() throws Exception {
        String dn = person("syntax");
        assertEquals(
                ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                modifyFails(dn, new Modification(ModificationType.REPLACE, "uidNumber", "one")));
        assertEquals(
                ResultCode.UNDEFINED_ATTRIBUTE_TYPE,
                modifyFails(dn, new Modification(ModificationType.ADD, "fooBarBaz", "x")));
    }

    @Test
    void operationalAttributeIsNotUserModifiable() throws Exception {
        String dn = person("operational");
        assertEquals(
                ResultCode.CONSTRAINT_VIOLATION,
                modifyFails(dn, new Modification(ModificationType.REPLACE, "createTimestamp", "20200101000000Z")));
    }

    @Test
    void aFailingChangeLeavesEarlierChangesUnapplied() throws Exception {
        String dn = person("atomic");
        assertEquals(
                ResultCode.NO_SUCH_ATTRIBUTE,
                modifyFails(
                        dn,
                        new Modification(ModificationType.REPLACE, "description", "changed"),
                        new Modification(ModificationType.ADD, "mail", "new@example.com"),
                        new Modification(ModificationType.DELETE, "title", "missing")));
        assertEquals(Set.of("first"), values(dn, "description"));
        assertEquals(Set.of("atomic@example.com"), values(dn, "mail"));
        assertEquals(0, count("(mail=new@example.com)"));
        assertEquals(1, count("(&(uid=atomic)(description=first))"));
    }

    @Test
    void missingEntryIsNoSuchObject() {
        assertEquals(
                ResultCode.NO_SUCH_OBJECT,
                modifyFails("uid=ghost," + PEOPLE, new Modification(ModificationType.REPLACE, "description", "x")));
    }

    @Test
    void nonAdministratorIsInsufficientAccessRights() throws Exception {
        String dn = person("guarded");
        try (LDAPConnection anonymous = larch.server().anonymous()) {
            LDAPException e = assertThrows(
                    LDAPException.class,
                    () -> anonymous.modify(dn, new Modification(ModificationType.REPLACE, "description", "x")));
            assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, e.getResultCode());
        }
        assertEquals(Set.of("first"), values(dn, "description"));
    }

    @Test
    void apacheClientModifies() throws Exception {
        String dn = person("apache");
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
            c.modify(
                    dn,
                    new DefaultModification(ModificationOperation.REPLACE_ATTRIBUTE, "description", "via apache"),
                    new DefaultModification(ModificationOperation.INCREMENT_ATTRIBUTE, "uidNumber", "1"));
        }
        assertEquals(Set.of("via apache"), values(dn, "description"));
        assertEquals(Set.of("1001"), values(dn, "uidNumber"));
        assertNotEquals(null, larch.admin().getEntry(dn));
        assertNull(larch.admin().getEntry(dn).getAttribute("title"));
    }
}
