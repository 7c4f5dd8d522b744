package dev.larch.server.auth;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An open session loses its identity at once when an administrator locks, deletes or resets its
 * account: its next operation runs as anonymous. Its own password change keeps it.
 */
class SessionRevocationsIT {
    static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding(person("locked") + person("deleted") + person("reset") + person("changer") + person("bystander"));

    static String person(String uid) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nuserPassword: " + uid + "-pw\n\n";
    }

    static String dn(String uid) {
        return "uid=" + uid + "," + PEOPLE;
    }

    static String whoAmI(LDAPConnection c) throws Exception {
        return ((WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest())).getAuthorizationID();
    }

    @Test
    void anAdministrativeLockEndsTheAccountsOpenSessionsButNotOthers() throws Exception {
        try (LDAPConnection user = larch.server().boundAs(dn("locked"), "locked-pw");
                LDAPConnection other = larch.server().boundAs(dn("bystander"), "bystander-pw");
                LDAPConnection admin = larch.server().admin()) {
            assertEquals("dn:" + dn("locked"), whoAmI(user));
            admin.modify(dn("locked"), new Modification(ModificationType.ADD, "pwdAccountLockedTime", "000001010000Z"));

            assertEquals("", whoAmI(user));
            assertEquals("dn:" + dn("bystander"), whoAmI(other));
            assertEquals("dn:" + TestServer.ADMIN_DN, whoAmI(admin));
        }
    }

    @Test
    void deletingTheEntryEndsItsOpenSessions() throws Exception {
        try (LDAPConnection user = larch.server().boundAs(dn("deleted"), "deleted-pw");
                LDAPConnection admin = larch.server().admin()) {
            admin.delete(dn("deleted"));

            assertEquals("", whoAmI(user));
        }
    }

    @Test
    void anAdministratorsPasswordResetEndsTheAccountsOpenSessions() throws Exception {
        try (LDAPConnection user = larch.server().boundAs(dn("reset"), "reset-pw");
                LDAPConnection admin = larch.server().admin()) {
            assertEquals(
                    ResultCode.SUCCESS,
                    admin.processExtendedOperation(new PasswordModifyExtendedRequest(dn("reset"), null, "new-reset-pw"))
                            .getResultCode());

            assertEquals("", whoAmI(user));
            try (LDAPConnection again = larch.server().boundAs(dn("reset"), "new-reset-pw")) {
                assertEquals("dn:" + dn("reset"), whoAmI(again), "a new bind with the new password works");

                admin.processExtendedOperation(new PasswordModifyExtendedRequest(dn("reset"), null, "third-reset-pw"));
                assertEquals("", whoAmI(again), "a session bound after one reset still loses its identity at the next");
            }
        }
    }

    @Test
    void changingOnesOwnPasswordKeepsOnesSession() throws Exception {
        try (LDAPConnection user = larch.server().boundAs(dn("changer"), "changer-pw")) {
            user.modify(dn("changer"), new Modification(ModificationType.REPLACE, "userPassword", "changer-pw2"));

            assertEquals("dn:" + dn("changer"), whoAmI(user));
        }
    }
}
