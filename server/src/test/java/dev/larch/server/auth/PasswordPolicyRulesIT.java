package dev.larch.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.BindRequest;
import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ErrorType;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10RequestControl;
import com.unboundid.ldap.sdk.experimental.DraftBeheraLDAPPasswordPolicy10ResponseControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The password policy rules of draft-behera-11 and OpenLDAP 2.6 beyond lockout and expiry, driven as
 * a user would: changes of one's own password ({@code pwdMinAge}, {@code pwdMaxLength}, the
 * character classes), binds of idle accounts ({@code pwdMaxIdle}), of accounts outside their
 * validity window ({@code pwdStartTime}, {@code pwdEndTime}), after expiry ({@code pwdGraceExpiry})
 * and after failures ({@code pwdMinDelay}, {@code pwdMaxDelay}). The accounts are imported with the
 * state an old directory would hand over (a password changed or a bind made years ago).
 */
class PasswordPolicyRulesIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final String POLICIES = "ou=policies," + TestServer.SUFFIX;
    private static final String LONG_AGO = "20200101000000Z";

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .importing("dn: " + POLICIES + """

                    objectClass: organizationalUnit
                    ou: policies

                    """ + policy("young", "pwdMinAge: 3600")
                    + policy(
                            "quality",
                            "objectClass: larchPwdPolicy",
                            "pwdCheckQuality: 1",
                            "pwdMaxLength: 16",
                            "larchPwdMinCharClasses: 3")
                    + policy("idle", "pwdMaxIdle: 3600")
                    + policy("graceexpiry", "pwdMaxAge: 86400", "pwdGraceAuthNLimit: 3", "pwdGraceExpiry: 3600")
                    + policy("graceforever", "pwdMaxAge: 86400", "pwdGraceAuthNLimit: 3")
                    + policy("slow", "pwdMinDelay: 1", "pwdMaxDelay: 3")
                    + person("changer", "young", "pwdChangedTime: " + LONG_AGO)
                    + person("chooser", "quality")
                    + person("longer", "quality")
                    + person("sleeper", "idle", "pwdLastSuccess: " + LONG_AGO)
                    + person("regular", "idle", "pwdChangedTime: " + LONG_AGO)
                    + person("fresh", "idle")
                    + person("expired", "graceexpiry", "pwdChangedTime: " + LONG_AGO)
                    + person("graced", "graceforever", "pwdChangedTime: " + LONG_AGO)
                    + person("future", null, "pwdStartTime: 20990101000000Z")
                    + person("ended", null, "pwdEndTime: " + LONG_AGO)
                    + person("guessed", "slow"));

    private static String policy(String cn, String... lines) {
        return "dn: cn=" + cn + "," + POLICIES + "\nobjectClass: device\nobjectClass: pwdPolicy\ncn: " + cn
                + "\npwdAttribute: userPassword\n" + String.join("\n", lines) + "\n\n";
    }

    private static String person(String uid, String policy, String... lines) {
        return "dn: " + dn(uid) + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: " + uid
                + "\nuserPassword: "
                + new String(PasswordSchemes.hash("SSHA256", password(uid).getBytes(UTF_8)), UTF_8) + "\n"
                + (policy == null ? "" : "pwdPolicySubentry: cn=" + policy + "," + POLICIES + "\n")
                + (lines.length == 0 ? "" : String.join("\n", lines) + "\n") + "\n";
    }

    private static String dn(String uid) {
        return "uid=" + uid + "," + PEOPLE;
    }

    private static String password(String uid) {
        return "Pw-" + uid + "-1";
    }

    @Test
    void aSecondChangeWithinPwdMinAgeIsRefusedWithPasswordTooYoung() throws Exception {
        try (LDAPConnection c = larch.server().boundAs(dn("changer"), password("changer"))) {
            assertEquals(
                    ResultCode.SUCCESS,
                    changeOwnPassword(c, "changer", "First-new-1").getResultCode());
            LDAPResult second = changeOwnPassword(c, "changer", "Second-new-2");
            assertEquals(ResultCode.CONSTRAINT_VIOLATION, second.getResultCode());
            assertEquals(DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_TOO_YOUNG, policyError(second));
        }
        // The administrator is exempt.
        LDAPResult reset = larch.admin()
                .modify(dn("changer"), new Modification(ModificationType.REPLACE, "userPassword", "Admin-set-3"));
        assertEquals(ResultCode.SUCCESS, reset.getResultCode());
    }

    @Test
    void aPasswordLongerThanPwdMaxLengthIsRefusedWithPasswordTooLongByLdapmodify() throws Exception {
        String out = ldapmodify(
                dn("longer"),
                password("longer"),
                "dn: " + dn("longer") + "\nchangetype: modify\nreplace: userPassword\nuserPassword: "
                        + "Abcdefgh-1234567890\n");
        assertTrue(out.contains("Constraint violation"), out);
        assertTrue(out.contains("Password is too long for policy"), out);
    }

    @Test
    void aPasswordWithTooFewCharacterClassesIsRefusedAndOneWithEnoughIsTaken() throws Exception {
        try (LDAPConnection c = larch.server().boundAs(dn("chooser"), password("chooser"))) {
            LDAPResult weak = changeOwnPassword(c, "chooser", "lowercase-only");
            assertEquals(ResultCode.CONSTRAINT_VIOLATION, weak.getResultCode());
            assertEquals(DraftBeheraLDAPPasswordPolicy10ErrorType.INSUFFICIENT_PASSWORD_QUALITY, policyError(weak));
            assertEquals(
                    ResultCode.SUCCESS,
                    changeOwnPassword(c, "chooser", "Mixed-case-42").getResultCode());
        }
    }

    @Test
    void anAccountIdleLongerThanPwdMaxIdleIsRefusedAsLocked() throws Exception {
        BindResult sleeper = bindWithControl(dn("sleeper"), password("sleeper"));
        assertEquals(ResultCode.INVALID_CREDENTIALS, sleeper.getResultCode());
        assertEquals(DraftBeheraLDAPPasswordPolicy10ErrorType.ACCOUNT_LOCKED, policyError(sleeper));
        // Without a last bind, the age of the password counts (as slapd's ppolicy does).
        assertEquals(
                ResultCode.INVALID_CREDENTIALS,
                bindWithControl(dn("regular"), password("regular")).getResultCode());
        // An administrator's reset of the password opens it again.
        larch.admin().modify(dn("sleeper"), new Modification(ModificationType.REPLACE, "userPassword", "Revived-pw-1"));
        assertEquals(
                ResultCode.SUCCESS,
                bindWithControl(dn("sleeper"), "Revived-pw-1").getResultCode());
    }

    @Test
    void aSuccessfulBindRecordsPwdLastSuccessWhenThePolicyHasPwdMaxIdle() throws Exception {
        assertEquals(
                ResultCode.SUCCESS,
                bindWithControl(dn("fresh"), password("fresh")).getResultCode());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Entry entry = null;
        while (System.nanoTime() < until) {
            entry = larch.admin().getEntry(dn("fresh"), "pwdLastSuccess");
            if (entry.hasAttribute("pwdLastSuccess")) {
                break;
            }
            Thread.sleep(20);
        }
        assertNotNull(entry);
        assertTrue(entry.hasAttribute("pwdLastSuccess"), "pwdLastSuccess written after the bind");
        assertEquals(
                ResultCode.SUCCESS,
                bindWithControl(dn("fresh"), password("fresh")).getResultCode());
    }

    @Test
    void aBindOutsidePwdStartTimeAndPwdEndTimeIsRefusedAsLocked() throws Exception {
        for (String uid : new String[] {"future", "ended"}) {
            BindResult result = bindWithControl(dn(uid), password(uid));
            assertEquals(ResultCode.INVALID_CREDENTIALS, result.getResultCode(), uid);
            assertEquals(DraftBeheraLDAPPasswordPolicy10ErrorType.ACCOUNT_LOCKED, policyError(result), uid);
        }
        larch.admin().modify(dn("ended"), new Modification(ModificationType.DELETE, "pwdEndTime"));
        assertEquals(
                ResultCode.SUCCESS,
                bindWithControl(dn("ended"), password("ended")).getResultCode());
    }

    @Test
    void graceLoginsEndPwdGraceExpirySecondsAfterThePasswordExpired() throws Exception {
        BindResult expired = bindWithControl(dn("expired"), password("expired"));
        assertEquals(ResultCode.INVALID_CREDENTIALS, expired.getResultCode());
        assertEquals(DraftBeheraLDAPPasswordPolicy10ErrorType.PASSWORD_EXPIRED, policyError(expired));
        BindResult graced = bindWithControl(dn("graced"), password("graced"));
        assertEquals(ResultCode.SUCCESS, graced.getResultCode(), "without pwdGraceExpiry the grace has no end");
    }

    @Test
    void theFailedBindDelayStartsAtPwdMinDelayAndDoublesUpToPwdMaxDelay() throws Exception {
        long[] expectedMillis = {1000, 2000, 3000};
        try (LDAPConnection c = larch.server().anonymous()) {
            for (long expected : expectedMillis) {
                long start = System.nanoTime();
                LDAPException e = assertThrows(LDAPException.class, () -> c.bind(dn("guessed"), "wrong"));
                long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertEquals(ResultCode.INVALID_CREDENTIALS, e.getResultCode());
                assertTrue(took >= expected - 50, "failure answered after " + took + " ms, expected " + expected);
                assertTrue(took < expected + 1500, "failure answered after " + took + " ms, expected " + expected);
            }
            assertEquals(
                    ResultCode.SUCCESS,
                    c.bind(dn("guessed"), password("guessed")).getResultCode());
        }
    }

    private static LDAPResult changeOwnPassword(LDAPConnection c, String uid, String newPassword) {
        ModifyRequest request =
                new ModifyRequest(dn(uid), new Modification(ModificationType.REPLACE, "userPassword", newPassword));
        request.addControl(new DraftBeheraLDAPPasswordPolicy10RequestControl());
        try {
            return c.modify(request);
        } catch (LDAPException e) {
            return e.toLDAPResult();
        }
    }

    private static BindResult bindWithControl(String dn, String password) throws LDAPException {
        try (LDAPConnection c = larch.server().anonymous()) {
            BindRequest request =
                    new SimpleBindRequest(dn, password, new DraftBeheraLDAPPasswordPolicy10RequestControl());
            try {
                return c.bind(request);
            } catch (LDAPException e) {
                return new BindResult(e.toLDAPResult());
            }
        }
    }

    private static DraftBeheraLDAPPasswordPolicy10ErrorType policyError(LDAPResult result) throws LDAPException {
        DraftBeheraLDAPPasswordPolicy10ResponseControl control =
                DraftBeheraLDAPPasswordPolicy10ResponseControl.get(result);
        assertNotNull(control, "a password policy response control");
        return control.getErrorType();
    }

    /** Runs ldap-utils' {@code ldapmodify -e ppolicy} bound as {@code dn}; returns what it printed. */
    private static String ldapmodify(String dn, String password, String ldif) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "ldapmodify",
                        "-x",
                        "-e",
                        "ppolicy",
                        "-H",
                        "ldap://127.0.0.1:" + larch.server().port(),
                        "-D",
                        dn,
                        "-w",
                        password)
                .redirectErrorStream(true)
                .start();
        p.getOutputStream().write(ldif.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return out;
    }
}
