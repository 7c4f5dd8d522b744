package dev.larch.server.auth.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static dev.larch.server.auth.policy.PolicyFixtures.T0;
import static dev.larch.server.auth.policy.PolicyFixtures.fresh;
import static dev.larch.server.auth.policy.PolicyFixtures.policy;
import static dev.larch.server.auth.policy.PolicyFixtures.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LockoutTest {
    private static final PasswordPolicy THREE_STRIKES =
            policy("pwdLockout: TRUE", "pwdMaxFailure: 3", "pwdLockoutDuration: 600");

    @Test
    void theFailureThatReachesMaxFailureLocksAtItsOwnTime() {
        Lockout.Update two = Lockout.afterFailures(THREE_STRIKES, fresh(), List.of(T0, T0.plusSeconds(1)));
        assertNull(two.accountLockedTime());
        assertEquals(2, two.failureTimes().size());

        PasswordState afterTwo = state(null, null, two.failureTimes(), List.of());
        Lockout.Update three = Lockout.afterFailures(THREE_STRIKES, afterTwo, List.of(T0.plusSeconds(2)));
        assertEquals(T0.plusSeconds(2), three.accountLockedTime());
    }

    @Test
    void aLockLastsPwdLockoutDurationThenEnds() {
        PasswordState locked = state(null, T0, List.of(T0, T0, T0), List.of());
        assertTrue(Lockout.isLocked(THREE_STRIKES, locked, T0.plusSeconds(599)));
        assertFalse(Lockout.isLocked(THREE_STRIKES, locked, T0.plusSeconds(600)));
        assertTrue(Lockout.hasExpiredLock(THREE_STRIKES, locked, T0.plusSeconds(600)));
    }

    @Test
    void zeroDurationLocksUntilAnAdministratorRemovesTheLock() {
        PasswordPolicy forever = policy("pwdLockout: TRUE", "pwdMaxFailure: 3", "pwdLockoutDuration: 0");
        PasswordState locked = state(null, T0, List.of(), List.of());
        assertTrue(Lockout.isLocked(forever, locked, T0.plusSeconds(365L * 24 * 3600)));
        assertFalse(Lockout.isLocked(forever, fresh(), T0));
    }

    @Test
    void withoutPwdLockoutFailuresNeverLockButAStoredLockStillHolds() {
        PasswordPolicy noLockout = policy("pwdMaxFailure: 3");
        assertNull(Lockout.afterFailures(noLockout, fresh(), List.of(T0, T0, T0, T0))
                .accountLockedTime());
        // slapd would ignore this lock; an account disabled before migration stays disabled
        assertTrue(Lockout.isLocked(noLockout, state(null, T0, List.of(), List.of()), T0.plusSeconds(86_400)));
    }

    @Test
    void anEntryNoPolicyGovernsIsLockedUntilTheLockIsRemoved() {
        PasswordState locked = state(null, T0, List.of(), List.of());
        assertTrue(Lockout.isLocked(PasswordPolicy.NONE, locked, T0.plusSeconds(365L * 24 * 3600)));
        assertFalse(Lockout.hasExpiredLock(PasswordPolicy.NONE, locked, T0.plusSeconds(365L * 24 * 3600)));
        assertFalse(Lockout.isLocked(PasswordPolicy.NONE, fresh(), T0));
    }

    @Test
    void theAdministrativeLockOutlastsAnyDuration() {
        PasswordState locked = state(null, PasswordState.LOCKED_UNTIL_REMOVED, List.of(), List.of());
        assertTrue(Lockout.isLocked(THREE_STRIKES, locked, T0.plusSeconds(365L * 24 * 3600)));
        assertFalse(Lockout.hasExpiredLock(THREE_STRIKES, locked, T0.plusSeconds(365L * 24 * 3600)));
    }

    @Test
    void aLockTimeInTheFutureIsNotYetInEffectNorExpired() {
        PasswordState scheduled = state(null, T0.plusSeconds(3600), List.of(), List.of());
        assertFalse(Lockout.isLocked(THREE_STRIKES, scheduled, T0));
        assertFalse(Lockout.hasExpiredLock(THREE_STRIKES, scheduled, T0), "a bind must not clear it");
        assertTrue(Lockout.isLocked(THREE_STRIKES, scheduled, T0.plusSeconds(3600)));
    }

    @Test
    void failuresOlderThanTheCountIntervalAreForgotten() {
        PasswordPolicy interval = policy("pwdLockout: TRUE", "pwdMaxFailure: 3", "pwdFailureCountInterval: 60");
        PasswordState old = state(null, null, List.of(T0, T0.plusSeconds(1)), List.of());
        Lockout.Update update = Lockout.afterFailures(interval, old, List.of(T0.plusSeconds(120)));
        assertEquals(List.of(T0.plusSeconds(120)), update.failureTimes());
        assertNull(update.accountLockedTime());
    }

    @Test
    void aFloodKeepsAtMostMaxFailureTimesTheNewest() {
        List<Instant> flood = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            flood.add(T0.plusMillis(i));
        }
        Lockout.Update update = Lockout.afterFailures(THREE_STRIKES, fresh(), flood);
        assertEquals(List.of(T0.plusMillis(997), T0.plusMillis(998), T0.plusMillis(999)), update.failureTimes());
        assertEquals(T0.plusMillis(2), update.accountLockedTime());
    }

    @Test
    void failuresWithinOneMillisecondStayDistinct() {
        Lockout.Update update = Lockout.afterFailures(THREE_STRIKES, fresh(), List.of(T0, T0));
        assertEquals(List.of(T0, T0.plusMillis(1)), update.failureTimes());
    }

    @Test
    void aFailureAfterAnExpiredLockStartsCountingAgain() {
        PasswordState expired = state(null, T0, List.of(T0, T0.plusMillis(1), T0.plusMillis(2)), List.of());
        Lockout.Update update = Lockout.afterFailures(THREE_STRIKES, expired, List.of(T0.plusSeconds(700)));
        assertNull(update.accountLockedTime());
        assertEquals(List.of(T0.plusSeconds(700)), update.failureTimes());
    }
}
