package dev.larch.server.auth.policy;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import static dev.larch.server.auth.policy.PolicyFixtures.T0;
import static dev.larch.server.auth.policy.PolicyFixtures.policy;
import static dev.larch.server.auth.policy.PolicyFixtures.user;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccountValidityTest {
    private static final PasswordPolicy IDLE_HOUR = policy("pwdMaxIdle: 3600");
    private static final PasswordPolicy IDLE_90_DAYS = policy("pwdMaxIdle: 7776000");

    private static PasswordState window(Instant start, Instant end) {
        return new PasswordState(null, null, null, List.of(), List.of(), false, null, start, end);
    }

    private static PasswordState lastBind(Instant changed, Instant lastSuccess) {
        return new PasswordState(null, changed, null, List.of(), List.of(), false, lastSuccess, null, null);
    }

    @Test
    void bindsBeforePwdStartTimeAreRefusedAndFromItOnAllowed() {
        PasswordState state = window(T0, null);
        assertTrue(AccountValidity.refuses(PasswordPolicy.NONE, state, T0.minusSeconds(1)));
        assertFalse(AccountValidity.refuses(PasswordPolicy.NONE, state, T0));
    }

    @Test
    void bindsFromPwdEndTimeOnAreRefused() {
        PasswordState state = window(null, T0);
        assertFalse(AccountValidity.refuses(PasswordPolicy.NONE, state, T0.minusSeconds(1)));
        assertTrue(AccountValidity.refuses(PasswordPolicy.NONE, state, T0));
    }

    @Test
    void aStartAtOrAfterTheEndClosesTheAccountForGood() {
        PasswordState state = window(T0.plusSeconds(10), T0);
        for (long s : new long[] {-100, 0, 5, 10, 100}) {
            assertTrue(AccountValidity.refuses(PasswordPolicy.NONE, state, T0.plusSeconds(s)));
        }
    }

    @Test
    void aWindowValueThatIsNoTimeClosesTheAccount() {
        for (String line : new String[] {"pwdStartTime: 202601020000+0100", "pwdEndTime: 202601020000+0100"}) {
            PasswordState state = PasswordState.of(user(line));
            assertTrue(AccountValidity.refuses(PasswordPolicy.NONE, state, T0), line);
            assertTrue(AccountValidity.refuses(PasswordPolicy.NONE, state, T0.plusSeconds(1L << 40)), line);
        }
    }

    @Test
    void anAccountIdleLongerThanPwdMaxIdleIsRefused() {
        PasswordState state = lastBind(null, T0);
        assertFalse(AccountValidity.refuses(IDLE_HOUR, state, T0.plusSeconds(3600)));
        assertTrue(AccountValidity.refuses(IDLE_HOUR, state, T0.plusSeconds(3601)));
    }

    @Test
    void withoutALastBindTheChangeOfThePasswordCountsAndWithNeitherNothingIsIdle() {
        assertTrue(AccountValidity.idle(IDLE_HOUR, lastBind(T0, null), T0.plusSeconds(3601)));
        assertFalse(AccountValidity.idle(IDLE_HOUR, lastBind(T0, T0.plusSeconds(3000)), T0.plusSeconds(3601)));
        assertFalse(AccountValidity.idle(IDLE_HOUR, lastBind(null, null), T0.plusSeconds(1L << 40)));
    }

    @Test
    void aPasswordChangedAfterTheLastBindOpensAnIdleAccountAgain() {
        assertTrue(AccountValidity.idle(IDLE_HOUR, lastBind(null, T0), T0.plusSeconds(7200)));
        assertFalse(AccountValidity.idle(IDLE_HOUR, lastBind(T0.plusSeconds(7000), T0), T0.plusSeconds(7200)));
    }

    @Test
    void withoutPwdMaxIdleNothingIsIdleAndNoLastSuccessIsWritten() {
        PasswordPolicy none = policy();
        assertFalse(AccountValidity.idle(none, lastBind(T0, T0), T0.plusSeconds(1L << 40)));
        assertFalse(AccountValidity.lastSuccessDue(none, lastBind(null, null), T0));
    }

    @Test
    void pwdLastSuccessIsRewrittenOnlyOncePerPrecision() {
        assertEquals(3600, AccountValidity.precisionSeconds(IDLE_90_DAYS));
        assertEquals(360, AccountValidity.precisionSeconds(IDLE_HOUR), "a tenth of a short pwdMaxIdle");
        assertTrue(AccountValidity.lastSuccessDue(IDLE_90_DAYS, lastBind(null, null), T0));
        assertFalse(AccountValidity.lastSuccessDue(IDLE_90_DAYS, lastBind(null, T0), T0.plusSeconds(3599)));
        assertTrue(AccountValidity.lastSuccessDue(IDLE_90_DAYS, lastBind(null, T0), T0.plusSeconds(3600)));
    }
}
