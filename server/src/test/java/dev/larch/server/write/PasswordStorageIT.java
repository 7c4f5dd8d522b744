package dev.larch.server.write;

import java.nio.charset.StandardCharsets;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedResult;
import dev.larch.config.LarchConfig;
import dev.larch.server.auth.PasswordSchemes;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.extras.extended.pwdModify.PasswordModifyRequestImpl;
import org.apache.directory.api.ldap.extras.extended.pwdModify.PasswordModifyResponse;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Passwords written over the wire are stored hashed with the configured scheme (the default,
 * PBKDF2-SHA256), and Password Modify (RFC 3062) changes them, through both client codecs.
 */
class PasswordStorageIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .importing(person(
                            "hist1",
                            new String(
                                    PasswordSchemes.hash("SSHA256", "pw-hist".getBytes(StandardCharsets.UTF_8)),
                                    StandardCharsets.US_ASCII))
                    + "pwdHistory: 20240101000000Z#1.3.6.1.4.1.1466.115.121.1.40#8#{SSHA}b2xkb2xkb2xk\n");

    private static String person(String uid, String password) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\n" + (password == null ? "" : "userPassword: " + password + "\n");
    }

    private static String dn(String uid) {
        return "uid=" + uid + "," + PEOPLE;
    }

    private static byte[] stored(String uid) throws LDAPException {
        SearchResultEntry e = larch.admin().getEntry(dn(uid), "userPassword", "modifiersName");
        return e.getAttribute("userPassword").getValueByteArray();
    }

    private static boolean canBind(String uid, String password) {
        try (LDAPConnection c = larch.server().boundAs(dn(uid), password)) {
            return c.isConnected();
        } catch (LDAPException e) {
            assertEquals(ResultCode.INVALID_CREDENTIALS, e.getResultCode());
            return false;
        }
    }

    @Test
    void aCleartextPasswordAddedIsStoredHashedWithTheDefaultSchemeAndBindsWork() throws Exception {
        larch.server().add(person("add1", "s3cret-add"));
        String value = new String(stored("add1"), StandardCharsets.US_ASCII);
        assertTrue(
                value.startsWith(
                        "{PBKDF2-SHA256}" + LarchConfig.defaults().passwords().pbkdf2Iterations() + "$"),
                value);
        assertFalse(value.contains("s3cret-add"));
        assertTrue(canBind("add1", "s3cret-add"));
        assertFalse(canBind("add1", "wrong"));
    }

    @Test
    void modifyHashesReplacedAndAddedValuesAndDeletesByCleartext() throws Exception {
        larch.server().add(person("mod1", "first"));
        larch.admin().modify(dn("mod1"), new Modification(ModificationType.REPLACE, "userPassword", "second"));
        assertTrue(PasswordSchemes.isHashed(stored("mod1")));
        assertTrue(canBind("mod1", "second"));
        assertFalse(canBind("mod1", "first"));
        larch.admin().modify(dn("mod1"), new Modification(ModificationType.ADD, "userPassword", "third"));
        assertTrue(canBind("mod1", "third"));
        // ldapmodify's "delete: userPassword / userPassword: second": the cleartext finds its hash.
        larch.admin().modify(dn("mod1"), new Modification(ModificationType.DELETE, "userPassword", "second"));
        assertFalse(canBind("mod1", "second"));
        assertTrue(canBind("mod1", "third"));
        LDAPException missing = assertThrows(
                LDAPException.class,
                () -> larch.admin()
                        .modify(dn("mod1"), new Modification(ModificationType.DELETE, "userPassword", "never-set")));
        assertEquals(ResultCode.NO_SUCH_ATTRIBUTE, missing.getResultCode());
    }

    @Test
    void theAdministratorMayWritePrehashedValuesWhichAreKeptAsGiven() throws Exception {
        byte[] ssha = PasswordSchemes.hash("SSHA512", "migrated".getBytes(StandardCharsets.UTF_8));
        larch.server().add(person("pre1", new String(ssha, StandardCharsets.US_ASCII)));
        assertArrayEquals(ssha, stored("pre1"));
        assertTrue(canBind("pre1", "migrated"));
    }

    @Test
    void aUserChangesTheirOwnPasswordWithTheOldOne() throws Exception {
        larch.server().add(person("self1", "old-pw"));
        try (LDAPConnection c = larch.server().boundAs(dn("self1"), "old-pw")) {
            assertEquals(
                    ResultCode.INVALID_CREDENTIALS,
                    c.processExtendedOperation(new PasswordModifyExtendedRequest(null, "not-it", "new-pw"))
                            .getResultCode());
            PasswordModifyExtendedResult r = (PasswordModifyExtendedResult)
                    c.processExtendedOperation(new PasswordModifyExtendedRequest(null, "old-pw", "new-pw"));
            assertEquals(ResultCode.SUCCESS, r.getResultCode());
            assertEquals(null, r.getGeneratedPassword());
        }
        assertTrue(canBind("self1", "new-pw"));
        assertFalse(canBind("self1", "old-pw"));
        SearchResultEntry e = larch.admin().getEntry(dn("self1"), "modifiersName");
        assertEquals(dn("self1"), e.getAttributeValue("modifiersName"));
    }

    @Test
    void aUserCannotChangeAnotherEntrysPasswordNorCanAnonymous() throws Exception {
        larch.server().add(person("self2", "pw2") + "\n" + person("other2", "pw-other"));
        try (LDAPConnection c = larch.server().boundAs(dn("self2"), "pw2")) {
            assertEquals(
                    ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
                    c.processExtendedOperation(new PasswordModifyExtendedRequest(dn("other2"), (String) null, "x"))
                            .getResultCode());
        }
        assertEquals(
                ResultCode.UNWILLING_TO_PERFORM,
                larch.anonymous()
                        .processExtendedOperation(new PasswordModifyExtendedRequest(dn("other2"), (String) null, "x"))
                        .getResultCode());
        assertTrue(canBind("other2", "pw-other"));
    }

    @Test
    void theAdministratorResetsWithoutTheOldPasswordAndGetsAGeneratedOne() throws Exception {
        larch.server().add(person("reset1", "forgotten"));
        PasswordModifyExtendedResult r = (PasswordModifyExtendedResult) larch.admin()
                .processExtendedOperation(
                        new PasswordModifyExtendedRequest(dn("reset1"), (String) null, (String) null));
        assertEquals(ResultCode.SUCCESS, r.getResultCode());
        String generated = r.getGeneratedPassword();
        assertNotNull(generated);
        assertEquals(16, generated.length());
        assertTrue(canBind("reset1", generated));
        assertFalse(canBind("reset1", "forgotten"));
        assertTrue(PasswordSchemes.isHashed(stored("reset1")));
    }

    @Test
    void apacheClientDecodesTheGeneratedPassword() throws Exception {
        larch.server().add(person("apache1", "pw"));
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
            PasswordModifyRequestImpl request = new PasswordModifyRequestImpl();
            request.setUserIdentity(dn("apache1").getBytes(StandardCharsets.UTF_8));
            ExtendedResponse response = c.extended(request);
            assertEquals(ResultCodeEnum.SUCCESS, response.getLdapResult().getResultCode());
            PasswordModifyResponse pm = assertInstanceOf(PasswordModifyResponse.class, response);
            assertTrue(canBind("apache1", new String(pm.getGenPassword(), StandardCharsets.UTF_8)));
        }
    }

    @Test
    void passwordModifyOfAMissingEntryIsNoSuchObject() throws Exception {
        assertEquals(
                ResultCode.NO_SUCH_OBJECT,
                larch.admin()
                        .processExtendedOperation(new PasswordModifyExtendedRequest(dn("nobody"), (String) null, "x"))
                        .getResultCode());
    }

    @Test
    void theRootDseAdvertisesPasswordModify() throws Exception {
        assertTrue(larch.anonymous().getRootDSE().hasAttributeValue("supportedExtension", "1.3.6.1.4.1.4203.1.11.1"));
    }

    @Test
    void pwdHistoryIsHiddenFromNonAdministratorsAsUserPasswordIs() throws Exception {
        Attribute shown = larch.admin().getEntry(dn("hist1"), "pwdHistory").getAttribute("pwdHistory");
        assertNotNull(shown);
        try (LDAPConnection c = larch.server().boundAs(dn("hist1"), "pw-hist")) {
            assertEquals(null, c.getEntry(dn("hist1"), "pwdHistory").getAttribute("pwdHistory"));
            assertEquals(
                    0,
                    c.search(dn("hist1"), SearchScope.BASE, "(pwdHistory=*)").getEntryCount(),
                    "a filter on pwdHistory must not be an oracle");
        }
        assertEquals(
                1,
                larch.admin()
                        .search(dn("hist1"), SearchScope.BASE, "(pwdHistory=*)")
                        .getEntryCount());
    }
}
