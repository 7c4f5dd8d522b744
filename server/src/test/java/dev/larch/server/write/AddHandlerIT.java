package dev.larch.server.write;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldif.LDIFException;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Add over the wire (RFC 4511 section 4.7): schema checks and the result code for each broken rule. */
class AddHandlerIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree();

    private static Entry entry(String... ldifLines) {
        try {
            return new Entry(ldifLines);
        } catch (LDIFException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Entry person(String uid) {
        return entry(
                "dn: uid=" + uid + "," + PEOPLE,
                "objectClass: inetOrgPerson",
                "uid: " + uid,
                "cn: " + uid,
                "sn: " + uid);
    }

    private static ResultCode addFails(LDAPConnection c, Entry e) {
        return assertThrows(LDAPException.class, () -> c.add(e)).getResultCode();
    }

    @Test
    void addedEntryIsReadableWithServerMaintainedAttributes() throws Exception {
        assertEquals(ResultCode.SUCCESS, larch.admin().add(person("added")).getResultCode());
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchResultEntry e = c.getEntry("uid=added," + PEOPLE, "*", "+");
            assertNotNull(e);
            assertEquals("added", e.getAttributeValue("cn"));
            assertTrue(e.getAttributeValue("createTimestamp").matches("\\d{14}Z"));
            assertEquals(new DN(TestServer.ADMIN_DN), new DN(e.getAttributeValue("creatorsName")));
            assertTrue(e.getAttributeValue("entryUUID")
                    .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));
            assertEquals(
                    1,
                    c.search(TestServer.SUFFIX, SearchScope.SUB, "(uid=added)", "1.1")
                            .getEntryCount());
        }
    }

    @Test
    void binaryValuesRoundTripByteForByte() throws Exception {
        // A JFIF header (the JPEG syntax checks it) followed by every byte value, twice.
        byte[] header = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 0x10, 'J', 'F', 'I', 'F', 0};
        byte[] photo = new byte[header.length + 512];
        System.arraycopy(header, 0, photo, 0, header.length);
        for (int i = header.length; i < photo.length; i++) {
            photo[i] = (byte) i;
        }
        Entry e = person("photo");
        e.addAttribute("jpegPhoto", photo);
        larch.admin().add(e);
        try (LDAPConnection c = larch.server().anonymous()) {
            assertArrayEquals(
                    photo, c.getEntry("uid=photo," + PEOPLE, "jpegPhoto").getAttributeValueBytes("jpegPhoto"));
        }
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.anonymousBind();
            assertArrayEquals(
                    photo,
                    c.lookup("uid=photo," + PEOPLE, "jpegPhoto")
                            .get("jpegPhoto")
                            .getBytes());
        }
    }

    @Test
    void escapedMultiValuedAndUnicodeNamesResolveHoweverTheyAreSpelled() throws Exception {
        larch.admin()
                .add(entry(
                        "dn: cn=Smith\\, John," + PEOPLE,
                        "objectClass: inetOrgPerson",
                        "cn: Smith, John",
                        "sn: Smith"));
        larch.admin().add(entry("dn: cn=Ann+sn=Lee," + PEOPLE, "objectClass: inetOrgPerson", "cn: Ann", "sn: Lee"));
        larch.admin()
                .add(entry(
                        "dn: cn=J\u00f6rg \u0130nce," + PEOPLE,
                        "objectClass: inetOrgPerson",
                        "cn: J\u00f6rg \u0130nce",
                        "sn: \u0130nce"));
        try (LDAPConnection c = larch.server().anonymous()) {
            assertNotNull(c.getEntry("cn=Smith\\2C John," + PEOPLE));
            assertNotNull(c.getEntry("CN=SMITH\\, JOHN," + PEOPLE));
            assertNotNull(c.getEntry("sn=Lee+cn=Ann," + PEOPLE));
            assertNotNull(c.getEntry("cn=J\u00d6RG \u0130NCE," + PEOPLE));
            assertEquals(
                    1,
                    c.search(PEOPLE, SearchScope.ONE, "(cn=smith, john)", "1.1").getEntryCount());
            assertEquals(
                    1,
                    c.search(PEOPLE, SearchScope.ONE, "(cn=j\u00f6rg*)", "1.1").getEntryCount());
            assertEquals(
                    1,
                    c.search(PEOPLE, SearchScope.ONE, "(&(cn=ann)(sn=lee))", "1.1")
                            .getEntryCount());
        }
        assertEquals(
                ResultCode.ENTRY_ALREADY_EXISTS,
                addFails(
                        larch.admin(),
                        entry("dn: sn=Lee+cn=Ann," + PEOPLE, "objectClass: inetOrgPerson", "cn: Ann", "sn: Lee")));
        larch.admin().delete("sn=lee+cn=ann," + PEOPLE);
        larch.admin().delete("cn=smith\\2c john," + PEOPLE);
    }

    @Test
    void existingDnIsEntryAlreadyExistsWhateverItsSpelling() throws Exception {
        larch.admin().add(person("twice"));
        assertEquals(ResultCode.ENTRY_ALREADY_EXISTS, addFails(larch.admin(), person("twice")));
        Entry respelled = person("twice");
        respelled.setDN("UID=Twice, OU=People, DC=example, DC=com");
        assertEquals(ResultCode.ENTRY_ALREADY_EXISTS, addFails(larch.admin(), respelled));
    }

    @Test
    void missingParentIsNoSuchObjectWithTheDeepestExistingAncestorAsMatchedDn() throws Exception {
        Entry orphan = person("orphan");
        orphan.setDN("uid=orphan,ou=missing,ou=people," + TestServer.SUFFIX);
        LDAPException e = assertThrows(LDAPException.class, () -> larch.admin().add(orphan));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        assertEquals(new DN(PEOPLE), new DN(e.getMatchedDN()));
    }

    @Test
    void entryOutsideTheNamingContextIsNoSuchObject() {
        Entry outside = person("outside");
        outside.setDN("uid=outside,dc=elsewhere,dc=org");
        assertEquals(ResultCode.NO_SUCH_OBJECT, addFails(larch.admin(), outside));
    }

    @Test
    void malformedDnIsInvalidDnSyntax() {
        Entry bad = person("bad");
        bad.setDN("uid=bad,,ou=people");
        assertEquals(ResultCode.INVALID_DN_SYNTAX, addFails(larch.admin(), bad));
    }

    @Test
    void missingRequiredAttributeIsObjectClassViolation() {
        assertEquals(
                ResultCode.OBJECT_CLASS_VIOLATION,
                addFails(
                        larch.admin(),
                        entry("dn: uid=nosn," + PEOPLE, "objectClass: inetOrgPerson", "uid: nosn", "cn: nosn")));
    }

    @Test
    void attributeNoObjectClassAllowsIsObjectClassViolation() {
        assertEquals(
                ResultCode.OBJECT_CLASS_VIOLATION,
                addFails(
                        larch.admin(),
                        entry(
                                "dn: ou=unit," + TestServer.SUFFIX,
                                "objectClass: organizationalUnit",
                                "ou: unit",
                                "mail: unit@example.com")));
    }

    @Test
    void unknownObjectClassIsObjectClassViolation() {
        assertEquals(
                ResultCode.OBJECT_CLASS_VIOLATION,
                addFails(
                        larch.admin(),
                        entry(
                                "dn: ou=unknown," + TestServer.SUFFIX,
                                "objectClass: organizationalUnit",
                                "objectClass: noSuchClass",
                                "ou: unknown")));
    }

    @Test
    void entryWithoutStructuralClassIsObjectClassViolation() {
        assertEquals(
                ResultCode.OBJECT_CLASS_VIOLATION,
                addFails(
                        larch.admin(),
                        entry(
                                "dn: dc=aux," + TestServer.SUFFIX,
                                "objectClass: top",
                                "objectClass: dcObject",
                                "dc: aux")));
    }

    @Test
    void entryWithoutObjectClassIsObjectClassViolation() {
        assertEquals(
                ResultCode.OBJECT_CLASS_VIOLATION,
                addFails(larch.admin(), entry("dn: ou=noclass," + TestServer.SUFFIX, "ou: noclass")));
    }

    @Test
    void unknownAttributeIsUndefinedAttributeType() {
        Entry e = person("undefined");
        e.addAttribute("fooBarBaz", "x");
        assertEquals(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, addFails(larch.admin(), e));
    }

    @Test
    void valueOutsideTheSyntaxIsInvalidAttributeSyntax() {
        assertEquals(
                ResultCode.INVALID_ATTRIBUTE_SYNTAX,
                addFails(
                        larch.admin(),
                        entry(
                                "dn: uid=posix," + PEOPLE,
                                "objectClass: inetOrgPerson",
                                "objectClass: posixAccount",
                                "uid: posix",
                                "cn: posix",
                                "sn: posix",
                                "uidNumber: not-a-number",
                                "gidNumber: 100",
                                "homeDirectory: /home/posix")));
    }

    @Test
    void twoValuesOfASingleValuedAttributeIsConstraintViolation() {
        assertEquals(
                ResultCode.CONSTRAINT_VIOLATION,
                addFails(
                        larch.admin(),
                        entry(
                                "dn: uid=posix2," + PEOPLE,
                                "objectClass: inetOrgPerson",
                                "objectClass: posixAccount",
                                "uid: posix2",
                                "cn: posix2",
                                "sn: posix2",
                                "uidNumber: 1",
                                "uidNumber: 2",
                                "gidNumber: 100",
                                "homeDirectory: /home/posix2")));
    }

    @Test
    void clientSuppliedOperationalAttributeIsConstraintViolation() {
        Entry e = person("stamped");
        e.addAttribute("createTimestamp", "20200101000000Z");
        assertEquals(ResultCode.CONSTRAINT_VIOLATION, addFails(larch.admin(), e));
    }

    @Test
    void rdnValueMissingFromTheEntryIsNamingViolation() {
        assertEquals(
                ResultCode.NAMING_VIOLATION,
                addFails(
                        larch.admin(),
                        entry(
                                "dn: uid=named," + PEOPLE,
                                "objectClass: inetOrgPerson",
                                "uid: other",
                                "cn: named",
                                "sn: named")));
    }

    @Test
    void nonAdministratorIsInsufficientAccessRights() throws Exception {
        larch.admin()
                .add(entry(
                        "dn: uid=writer," + PEOPLE,
                        "objectClass: inetOrgPerson",
                        "uid: writer",
                        "cn: writer",
                        "sn: writer",
                        "userPassword: {SSHA}" + "x"));
        try (LDAPConnection anonymous = larch.server().anonymous()) {
            assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, addFails(anonymous, person("byanonymous")));
        }
        assertNull(larch.admin().getEntry("uid=byanonymous," + PEOPLE));
    }

    @Test
    void apacheClientAddsAnEntry() throws Exception {
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
            c.add(new DefaultEntry(
                    "uid=apache," + PEOPLE,
                    "objectClass: inetOrgPerson",
                    "uid: apache",
                    "cn: Apache Client",
                    "sn: Client"));
        }
        assertEquals(
                "Apache Client", larch.admin().getEntry("uid=apache," + PEOPLE).getAttributeValue("cn"));
    }
}
