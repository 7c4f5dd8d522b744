package dev.larch.server.read;

import com.unboundid.ldap.sdk.CompareResult;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.exception.LdapNoPermissionException;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Compare over the wire (RFC 4511 section 4.10), with each attribute's equality rule. */
class CompareHandlerIT {
    private static final String JDOE = "uid=jdoe,ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch =
            LarchServerExtension.withBaseTree().adding(SearchHandlerIT.PEOPLE_LDIF);

    private static ResultCode code(LDAPConnection c, String dn, String attribute, String value) {
        try {
            return c.compare(dn, attribute, value).getResultCode();
        } catch (LDAPException e) {
            return e.getResultCode();
        }
    }

    @Test
    void equalValueIsCompareTrueUnderTheAttributesEqualityRule() {
        assertEquals(ResultCode.COMPARE_TRUE, code(larch.anonymous(), JDOE, "cn", "John Doe"));
        assertEquals(ResultCode.COMPARE_TRUE, code(larch.anonymous(), JDOE, "CN", "  john   DOE "));
        assertEquals(ResultCode.COMPARE_TRUE, code(larch.anonymous(), JDOE, "2.5.4.3", "john doe"));
        assertEquals(ResultCode.COMPARE_TRUE, code(larch.anonymous(), JDOE, "objectClass", "inetOrgPerson"));
    }

    @Test
    void differentValueIsCompareFalse() {
        assertEquals(ResultCode.COMPARE_FALSE, code(larch.anonymous(), JDOE, "cn", "Jane Doe"));
        assertEquals(ResultCode.COMPARE_FALSE, code(larch.anonymous(), JDOE, "mail", "someone@example.com"));
    }

    @Test
    void telephoneNumberComparesIgnoringSpacesAndHyphens() {
        assertEquals(ResultCode.COMPARE_TRUE, code(larch.anonymous(), JDOE, "telephoneNumber", "+15550100"));
        assertEquals(ResultCode.COMPARE_TRUE, code(larch.anonymous(), JDOE, "telephoneNumber", "+1-555-0100"));
        assertEquals(ResultCode.COMPARE_FALSE, code(larch.anonymous(), JDOE, "telephoneNumber", "+15550101"));
    }

    @Test
    void memberComparesAsADistinguishedName() {
        assertEquals(
                ResultCode.COMPARE_TRUE,
                code(
                        larch.anonymous(),
                        "cn=staff,ou=groups," + TestServer.SUFFIX,
                        "member",
                        "UID=JDOE, ou=People, dc=Example, dc=com"));
    }

    @Test
    void attributeTheEntryLacksIsNoSuchAttribute() {
        assertEquals(ResultCode.NO_SUCH_ATTRIBUTE, code(larch.anonymous(), JDOE, "title", "Engineer"));
    }

    @Test
    void attributeTheSchemaLacksIsUndefinedAttributeType() {
        assertEquals(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, code(larch.anonymous(), JDOE, "noSuchAttribute", "x"));
    }

    @Test
    void missingEntryIsNoSuchObjectWithMatchedDn() throws Exception {
        LDAPException e = assertThrows(
                LDAPException.class,
                () -> larch.anonymous().compare("uid=nobody,ou=people," + TestServer.SUFFIX, "cn", "x"));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        assertEquals(new DN("ou=people," + TestServer.SUFFIX), new DN(e.getMatchedDN()));
    }

    @Test
    void userPasswordIsComparedForTheAdministratorOnly() throws Exception {
        assertEquals(
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
                code(larch.anonymous(), JDOE, "userPassword", "{SSHA256}not-a-real-hash"));
        assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, code(larch.anonymous(), JDOE, "userPassword", "wrong"));
        CompareResult r = larch.admin().compare(JDOE, "userPassword", "{SSHA256}not-a-real-hash");
        assertTrue(r.compareMatched());
    }

    @Test
    void apacheClientGetsTheSameAnswers() throws Exception {
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.anonymousBind();
            assertTrue(c.compare(JDOE, "sn", "DOE"));
            assertFalse(c.compare(JDOE, "sn", "Smith"));
            assertThrows(LdapNoPermissionException.class, () -> c.compare(JDOE, "userPassword", "x"));
        }
    }
}
