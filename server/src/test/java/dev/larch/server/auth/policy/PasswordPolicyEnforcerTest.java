package dev.larch.server.auth.policy;

import java.time.Clock;
import java.time.ZoneOffset;

import dev.larch.server.auth.PasswordSchemes;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.Test;

import static dev.larch.server.auth.policy.PolicyFixtures.T0;
import static dev.larch.server.auth.policy.PolicyFixtures.policy;
import static dev.larch.server.auth.policy.PolicyFixtures.user;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasswordPolicyEnforcerTest {
    private final PasswordPolicyEnforcer enforcer =
            new PasswordPolicyEnforcer(null, Clock.fixed(T0, ZoneOffset.UTC), 1_000_000);

    private static final PasswordPolicy QUALITY = policy("pwdCheckQuality: 1", "pwdMinLength: 8");

    @Test
    void aShortPasswordIsRefusedWithPasswordTooShort() {
        PolicyRefusal refusal =
                assertThrows(PolicyRefusal.class, () -> enforcer.check(QUALITY, user(), bytes("seven77"), false));
        assertEquals(ResultCodeEnum.CONSTRAINT_VIOLATION, refusal.code());
        assertEquals(PasswordPolicyErrorEnum.PASSWORD_TOO_SHORT, refusal.error());
        enforcer.check(QUALITY, user(), bytes("eight888"), false);
    }

    @Test
    void lengthCountsCharactersNotBytes() {
        assertThrows(PolicyRefusal.class, () -> enforcer.check(QUALITY, user(), bytes("ééééééé"), false));
        enforcer.check(QUALITY, user(), bytes("éééééééé"), false);
    }

    @Test
    void aSecondChangeWithinPwdMinAgeIsRefusedWithPasswordTooYoungButNotForTheAdministrator() {
        PasswordPolicy young = policy("pwdMinAge: 3600");
        Entry changedRecently = user("pwdChangedTime: 20251231230001Z"); // 3599 s before T0
        PolicyRefusal refusal = assertThrows(
                PolicyRefusal.class, () -> enforcer.check(young, changedRecently, bytes("whatever"), false));
        assertEquals(ResultCodeEnum.CONSTRAINT_VIOLATION, refusal.code());
        assertEquals(PasswordPolicyErrorEnum.PASSWORD_TOO_YOUNG, refusal.error());
        enforcer.check(young, changedRecently, bytes("whatever"), true);
        enforcer.check(young, user("pwdChangedTime: 20251231230000Z"), bytes("whatever"), false);
        enforcer.check(young, user(), bytes("whatever"), false);
    }

    @Test
    void aPasswordLongerThanPwdMaxLengthBytesIsRefusedWithPasswordTooLong() {
        PasswordPolicy max8 = policy("pwdCheckQuality: 1", "pwdMaxLength: 8");
        enforcer.check(max8, user(), bytes("eight888"), false);
        enforcer.check(max8, user(), bytes("éééé"), false);
        for (String tooLong : new String[] {"ninechars", "ééééé"}) {
            PolicyRefusal refusal =
                    assertThrows(PolicyRefusal.class, () -> enforcer.check(max8, user(), bytes(tooLong), false));
            assertEquals(ResultCodeEnum.CONSTRAINT_VIOLATION, refusal.code());
            assertEquals(PasswordPolicyErrorEnum.PASSWORD_TOO_LONG, refusal.error());
        }
        // Quality off: no length rule at all, as in OpenLDAP.
        enforcer.check(policy("pwdMaxLength: 8"), user(), bytes("ninechars"), false);
    }

    @Test
    void tooFewCharacterClassesAreRefusedWithInsufficientPasswordQuality() {
        PasswordPolicy three = policy("objectClass: larchPwdPolicy", "pwdCheckQuality: 1", "larchPwdMinCharClasses: 3");
        PolicyRefusal refusal =
                assertThrows(PolicyRefusal.class, () -> enforcer.check(three, user(), bytes("lowerUPPER"), false));
        assertEquals(ResultCodeEnum.CONSTRAINT_VIOLATION, refusal.code());
        assertEquals(PasswordPolicyErrorEnum.INSUFFICIENT_PASSWORD_QUALITY, refusal.error());
        enforcer.check(three, user(), bytes("lowerUPPER7"), false);
        enforcer.check(three, user(), bytes("lower-7"), false);
        enforcer.check(three, user(), bytes("lowerUPPER"), true);
    }

    @Test
    void aHashedValueIsRefusedOnlyWhenQualityMustBeChecked() {
        byte[] hashed = PasswordSchemes.hash("SSHA256", bytes("x"));
        enforcer.check(QUALITY, user(), hashed, false);
        PolicyRefusal refusal = assertThrows(
                PolicyRefusal.class,
                () -> enforcer.check(policy("pwdCheckQuality: 2", "pwdMinLength: 8"), user(), hashed, false));
        assertEquals(PasswordPolicyErrorEnum.INSUFFICIENT_PASSWORD_QUALITY, refusal.error());
    }

    @Test
    void theCurrentAndRememberedPasswordsCannotBeReused() {
        PasswordPolicy history = policy("pwdInHistory: 2");
        String oldHash = new String(PasswordSchemes.hash("SSHA256", bytes("older-one")), UTF_8);
        Entry target = user(
                "userPassword: " + new String(PasswordSchemes.hash("SSHA256", bytes("current-one")), UTF_8),
                "pwdHistory: 20250101000000.000Z#1.3.6.1.4.1.1466.115.121.1.40#" + oldHash.length() + "#" + oldHash);
        for (String reused : new String[] {"current-one", "older-one"}) {
            PolicyRefusal refusal =
                    assertThrows(PolicyRefusal.class, () -> enforcer.check(history, target, bytes(reused), false));
            assertEquals(PasswordPolicyErrorEnum.PASSWORD_IN_HISTORY, refusal.error());
        }
        PasswordChangeEffects effects = enforcer.check(history, target, bytes("brand-new"), false);
        assertEquals(2, effects.history().size());
        byte[] pushed = effects.history().get(1);
        assertTrue(new String(pushed, UTF_8).startsWith("20260101000000.000Z#1.3.6.1.4.1.1466.115.121.1.40#"));
        assertArrayEquals(target.get("userPassword").get().getBytes(), PasswordHistory.password(pushed));
    }

    @Test
    void historyKeepsOnlyPwdInHistoryValues() {
        Entry target = user(
                "userPassword: c",
                "pwdHistory: 20250101000000.000Z#1.3.6.1.4.1.1466.115.121.1.40#1#a",
                "pwdHistory: 20250102000000.000Z#1.3.6.1.4.1.1466.115.121.1.40#1#b");
        PasswordChangeEffects effects = enforcer.check(policy("pwdInHistory: 2"), target, bytes("d"), false);
        assertEquals(2, effects.history().size());
        assertArrayEquals(bytes("b"), PasswordHistory.password(effects.history().get(0)));
        assertArrayEquals(bytes("c"), PasswordHistory.password(effects.history().get(1)));
    }

    @Test
    void usersMayNotChangeWhenPwdAllowUserChangeIsFalse() {
        PolicyRefusal refusal = assertThrows(
                PolicyRefusal.class,
                () -> enforcer.check(policy("pwdAllowUserChange: FALSE"), user(), bytes("whatever"), false));
        assertEquals(ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS, refusal.code());
        assertEquals(PasswordPolicyErrorEnum.PASSWORD_MOD_NOT_ALLOWED, refusal.error());
    }

    @Test
    void anAdminResetSkipsTheChecksAndSetsPwdResetUnderMustChange() {
        PasswordChangeEffects effects = enforcer.check(
                policy("pwdMustChange: TRUE", "pwdMinLength: 8", "pwdCheckQuality: 2"), user(), bytes("x"), true);
        assertTrue(effects.reset());
        assertEquals("20260101000000.000Z", effects.changedTime());
        assertFalse(enforcer.check(policy(), user(), bytes("x"), true).reset());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
