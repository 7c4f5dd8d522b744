package dev.larch.server.auth;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Wrong passwords presented outside binds count like failed binds: Password Modify's old password
 * and a Modify deleting a userPassword value by its cleartext would otherwise be oracles that
 * guess without ever locking the account.
 */
class PasswordGuessesIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final String POLICY = "cn=lock3,ou=policies," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch =
            LarchServerExtension.withBaseTree().adding("""
                    dn: ou=policies,dc=example,dc=com
                    objectClass: organizationalUnit
                    ou: policies

                    dn: cn=lock3,ou=policies,dc=example,dc=com
                    objectClass: device
                    objectClass: pwdPolicy
                    cn: lock3
                    pwdAttribute: userPassword
                    pwdLockout: TRUE
                    pwdMaxFailure: 3
                    pwdLockoutDuration: 0

                    """ + person("modifier") + person("deleter"));

    private static String person(String uid) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nuserPassword: "
                + new String(PasswordSchemes.hash("SSHA256", ("pw-" + uid).getBytes(UTF_8)), UTF_8)
                + "\npwdPolicySubentry: " + POLICY + "\n\n";
    }

    @Test
    void threeWrongOldPasswordsInPasswordModifyLockTheAccount() throws Exception {
        String dn = "uid=modifier," + PEOPLE;
        LDAPConnection admin = larch.admin();
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    ResultCode.INVALID_CREDENTIALS,
                    admin.processExtendedOperation(new PasswordModifyExtendedRequest(dn, "guess-" + i, "new-pw-1"))
                            .getResultCode());
        }
        assertLocked(dn, "pw-modifier");
        // ... and the right old password is no oracle either while it is locked
        assertEquals(
                ResultCode.INVALID_CREDENTIALS,
                admin.processExtendedOperation(new PasswordModifyExtendedRequest(dn, "pw-modifier", "new-pw-1"))
                        .getResultCode());
    }

    @Test
    void threeDeletesOfWrongCleartextValuesLockTheAccount() throws Exception {
        String dn = "uid=deleter," + PEOPLE;
        LDAPConnection admin = larch.admin();
        for (int i = 0; i < 3; i++) {
            String guess = "guess-" + i;
            LDAPException e = assertThrows(
                    LDAPException.class,
                    () -> admin.modify(dn, new Modification(ModificationType.DELETE, "userPassword", guess)));
            assertEquals(ResultCode.NO_SUCH_ATTRIBUTE, e.getResultCode());
        }
        assertLocked(dn, "pw-deleter");
    }

    private static void assertLocked(String dn, String rightPassword) throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(
                    ResultCode.INVALID_CREDENTIALS,
                    assertThrows(LDAPException.class, () -> c.bind(dn, rightPassword))
                            .getResultCode(),
                    "the right password after three wrong ones outside binds");
        }
    }
}
