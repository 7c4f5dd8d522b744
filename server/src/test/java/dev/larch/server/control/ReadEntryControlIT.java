package dev.larch.server.control;

import java.util.Arrays;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ReadOnlyEntry;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.PostReadRequestControl;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import com.unboundid.ldap.sdk.controls.PreReadRequestControl;
import com.unboundid.ldap.sdk.controls.PreReadResponseControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The read entry controls (RFC 4527): copies of the target entry before and after an update. */
class ReadEntryControlIT {
    static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    static final String READER = "uid=reader," + PEOPLE;
    static final String HIDDEN = "uid=hidden," + PEOPLE;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding("dn: " + READER + "\nobjectClass: inetOrgPerson\nuid: reader\ncn: Reader\nsn: One\n"
                    + "userPassword: secret-r\n\n"
                    + "dn: " + HIDDEN + "\nobjectClass: inetOrgPerson\nuid: hidden\ncn: Hidden\nsn: Two\n"
                    + "aci: (targetattr=\"description\")(version 3.0; acl \"reader writes\"; allow (write) userdn=\"ldap:///"
                    + READER + "\";)\n"
                    + "aci: (targetattr=\"*\")(version 3.0; acl \"reader is blind\"; deny (read, search, compare) userdn=\"ldap:///"
                    + READER + "\";)\n");

    @Test
    void postReadOnAddReturnsTheEntryAsStoredWithOperationalAttributesWhenAsked() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            AddRequest add = new AddRequest(
                    "dn: uid=added," + PEOPLE, "objectClass: inetOrgPerson", "uid: added", "cn: Added", "sn: New");
            add.addControl(new PostReadRequestControl(true, "cn", "sn", "createTimestamp"));
            LDAPResult result = c.add(add);
            ReadOnlyEntry copy = PostReadResponseControl.get(result).getEntry();
            assertEquals("uid=added," + PEOPLE, copy.getDN());
            assertEquals("Added", copy.getAttributeValue("cn"));
            assertEquals("New", copy.getAttributeValue("sn"));
            assertNotNull(copy.getAttributeValue("createTimestamp"));
            assertFalse(copy.hasAttribute("uid"), "only the selected attributes");
        }
    }

    @Test
    void preAndPostReadOnModifyShowTheEntryBeforeAndAfterTheChange() throws Exception {
        larch.server()
                .add("dn: uid=modified," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: modified\ncn: M\nsn: Before\n");
        try (LDAPConnection c = larch.server().admin()) {
            ModifyRequest modify = new ModifyRequest(
                    "uid=modified," + PEOPLE, new Modification(ModificationType.REPLACE, "sn", "After"));
            modify.addControl(new PreReadRequestControl(true, "sn"));
            modify.addControl(new PostReadRequestControl(true)); // no attributes: all user attributes
            LDAPResult result = c.modify(modify);
            assertEquals("Before", PreReadResponseControl.get(result).getEntry().getAttributeValue("sn"));
            ReadOnlyEntry after = PostReadResponseControl.get(result).getEntry();
            assertEquals("After", after.getAttributeValue("sn"));
            assertEquals("M", after.getAttributeValue("cn"));
            assertTrue(after.hasObjectClass("inetOrgPerson"));
        }
    }

    @Test
    void preReadOnDeleteReturnsTheDeletedEntry() throws Exception {
        larch.server()
                .add("dn: uid=deleted," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: deleted\ncn: D\nsn: Gone\n");
        try (LDAPConnection c = larch.server().admin()) {
            DeleteRequest delete = new DeleteRequest("uid=deleted," + PEOPLE);
            delete.addControl(new PreReadRequestControl(true, "*"));
            ReadOnlyEntry copy = PreReadResponseControl.get(c.delete(delete)).getEntry();
            assertEquals("Gone", copy.getAttributeValue("sn"));
            assertNull(c.getEntry("uid=deleted," + PEOPLE));
        }
    }

    @Test
    void preAndPostReadOnModifyDnShowTheOldAndNewNames() throws Exception {
        larch.server().add("dn: uid=old," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: old\ncn: R\nsn: Renamed\n");
        try (LDAPConnection c = larch.server().admin()) {
            ModifyDNRequest rename = new ModifyDNRequest("uid=old," + PEOPLE, "uid=new", true);
            rename.addControl(new PreReadRequestControl(true, "uid"));
            rename.addControl(new PostReadRequestControl(true, "uid", "entryDN"));
            LDAPResult result = c.modifyDN(rename);
            ReadOnlyEntry before = PreReadResponseControl.get(result).getEntry();
            ReadOnlyEntry after = PostReadResponseControl.get(result).getEntry();
            assertEquals("uid=old," + PEOPLE, before.getDN());
            assertEquals("old", before.getAttributeValue("uid"));
            assertEquals("uid=new," + PEOPLE, after.getDN());
            assertEquals("new", after.getAttributeValue("uid"));
            assertEquals("uid=new," + PEOPLE, after.getAttributeValue("entryDN"));
        }
    }

    @Test
    void theCopiesNeverShowAttributesTheClientMayNotRead() throws Exception {
        String self = "uid=self," + PEOPLE;
        larch.server()
                .add("dn: " + self
                        + "\nobjectClass: inetOrgPerson\nuid: self\ncn: Self\nsn: S\nuserPassword: secret-s\n");
        try (LDAPConnection c = larch.server().boundAs(self, "secret-s")) {
            // The built-in rules let a user change its own password but read nobody's.
            ModifyRequest modify =
                    new ModifyRequest(self, new Modification(ModificationType.REPLACE, "userPassword", "secret-s2"));
            modify.addControl(new PreReadRequestControl(true, "userPassword", "cn"));
            modify.addControl(new PostReadRequestControl(true, "*", "+"));
            LDAPResult result = c.modify(modify);
            ReadOnlyEntry before = PreReadResponseControl.get(result).getEntry();
            ReadOnlyEntry after = PostReadResponseControl.get(result).getEntry();
            assertEquals("Self", before.getAttributeValue("cn"));
            assertFalse(before.hasAttribute("userPassword"));
            assertEquals("Self", after.getAttributeValue("cn"));
            assertFalse(after.hasAttribute("userPassword"));
        }
    }

    @Test
    void aCriticalCopyOfAnEntryTheClientMayNotReadFailsTheUpdateAndChangesNothing() throws Exception {
        try (LDAPConnection c = larch.server().boundAs(READER, "secret-r")) {
            ModifyRequest critical =
                    new ModifyRequest(HIDDEN, new Modification(ModificationType.REPLACE, "description", "changed"));
            critical.addControl(new PostReadRequestControl(true, "description"));
            assertEquals(
                    ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
                    assertThrows(LDAPException.class, () -> c.modify(critical)).getResultCode());
            assertNull(larch.server().admin().getEntry(HIDDEN, "description").getAttributeValue("description"));

            ModifyRequest optional =
                    new ModifyRequest(HIDDEN, new Modification(ModificationType.REPLACE, "description", "changed"));
            optional.addControl(new PostReadRequestControl(false, "description"));
            LDAPResult result = c.modify(optional);
            assertEquals(ResultCode.SUCCESS, result.getResultCode());
            assertNull(PostReadResponseControl.get(result), "no copy of an entry the client may not read");
            assertEquals(
                    "changed",
                    larch.server().admin().getEntry(HIDDEN, "description").getAttributeValue("description"));
        }
    }

    @Test
    void aValueThatIsNotAnAttributeSelectionIsAProtocolErrorAndChangesNothing() throws Exception {
        larch.server().add("dn: uid=kept," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: kept\ncn: K\nsn: Kept\n");
        byte[][] malformed = {
            {}, // empty
            {0x04, 0x00}, // an OCTET STRING, not a SEQUENCE
            {0x30, 0x05, 0x04, 0x01, 0x61}, // truncated
            {0x30, 0x03, 0x02, 0x01, 0x00}, // an INTEGER where an LDAPString belongs
            {0x30, 0x03, 0x04, 0x01, (byte) 0xFF}, // not UTF-8
            {0x30, 0x00, 0x00}, // bytes after the SEQUENCE
            {0x30, (byte) 0x80, 0x00, 0x00}, // indefinite length
            {0x30, (byte) 0x85, 0, 0, 0, 0, 0}, // five length octets
            {0x3F, 0x01, 0x00}, // multi-octet tag
        };
        try (LDAPConnection c = larch.server().admin()) {
            for (byte[] value : malformed) {
                ModifyRequest modify = new ModifyRequest(
                        "uid=kept," + PEOPLE, new Modification(ModificationType.REPLACE, "sn", "Changed"));
                modify.addControl(
                        new Control(PreReadRequestControl.PRE_READ_REQUEST_OID, true, new ASN1OctetString(value)));
                assertEquals(
                        ResultCode.PROTOCOL_ERROR,
                        assertThrows(LDAPException.class, () -> c.modify(modify))
                                .getResultCode(),
                        Arrays.toString(value));
            }
            ModifyRequest absent = new ModifyRequest(
                    "uid=kept," + PEOPLE, new Modification(ModificationType.REPLACE, "sn", "Changed"));
            absent.addControl(new Control(PostReadRequestControl.POST_READ_REQUEST_OID, true));
            assertEquals(
                    ResultCode.PROTOCOL_ERROR,
                    assertThrows(LDAPException.class, () -> c.modify(absent)).getResultCode());
            assertEquals("Kept", c.getEntry("uid=kept," + PEOPLE, "sn").getAttributeValue("sn"));
        }
    }

    @Test
    void eachControlIsRefusedWhenCriticalOnAnOperationItDoesNotApplyTo() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            AddRequest add = new AddRequest(
                    "dn: uid=never," + PEOPLE, "objectClass: inetOrgPerson", "uid: never", "cn: N", "sn: N");
            add.addControl(new PreReadRequestControl(true, "cn"));
            assertEquals(
                    ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                    assertThrows(LDAPException.class, () -> c.add(add)).getResultCode());
            DeleteRequest delete = new DeleteRequest(READER);
            delete.addControl(new PostReadRequestControl(true, "cn"));
            assertEquals(
                    ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                    assertThrows(LDAPException.class, () -> c.delete(delete)).getResultCode());
            assertNotNull(c.getEntry(READER));
        }
    }
}
