package dev.larch.server.auth.policy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Account lockout (draft-behera sections 7.1 and 7.2): whether an entry is locked now, and its
 * failure times and lock after one more failed bind. Pure functions of policy, state and time.
 */
final class Lockout {
    private Lockout() {}

    /**
     * Whether the account is locked at {@code now}. A {@code pwdAccountLockedTime} locks whatever the
     * policy's {@code pwdLockout} says, and also when no policy governs the entry ({@code policy} is
     * then {@link PasswordPolicy#NONE}): the administrative value (see
     * {@link PasswordState#LOCKED_UNTIL_REMOVED}) until an administrator removes it; a time in the
     * future not yet (as slapd's ppolicy); a past time until {@code pwdLockoutDuration} is over, or
     * until removed when that is 0. Slapd ignores the attribute when {@code pwdLockout} is FALSE; Larch
     * fails closed, so that an account disabled on an OpenLDAP server stays disabled after migration.
     */
    static boolean isLocked(PasswordPolicy policy, PasswordState state, Instant now) {
        Instant locked = state.accountLockedTime();
        if (locked == null) {
            return false;
        }
        if (state.isLockedUntilRemoved()) {
            return true;
        }
        if (now.isBefore(locked)) {
            return false;
        }
        return policy.lockoutDuration() == 0 || now.isBefore(locked.plus(Duration.ofSeconds(policy.lockoutDuration())));
    }

    /** Whether the entry carries a lock that has run out (then a bind clears it); a scheduled lock has not. */
    static boolean hasExpiredLock(PasswordPolicy policy, PasswordState state, Instant now) {
        return state.accountLockedTime() != null
                && !now.isBefore(state.accountLockedTime())
                && !isLocked(policy, state, now);
    }

    /**
     * The failure times and lock after the failed binds {@code failures} (oldest first) are added to
     * {@code state}: failures older than {@code pwdFailureCountInterval} are forgotten, an expired lock
     * and the failures that led to it are dropped, at most {@code pwdMaxFailure} times are kept (the
     * newest), and the account locks at the failure that reaches {@code pwdMaxFailure}.
     */
    static Update afterFailures(PasswordPolicy policy, PasswordState state, List<Instant> failures) {
        Instant lockedTime = state.accountLockedTime();
        List<Instant> times = new ArrayList<>();
        if (!hasExpiredLockAt(policy, state, failures)) {
            times.addAll(state.failureTimes());
        } else {
            lockedTime = null;
        }
        for (Instant failure : failures) {
            times.add(failure);
            if (policy.failureCountInterval() > 0) {
                Instant oldest = failure.minus(Duration.ofSeconds(policy.failureCountInterval()));
                times.removeIf(t -> t.isBefore(oldest));
            }
            int keep = Math.max(1, Math.min(policy.maxFailure(), PasswordPolicy.MAX_RECORDED_FAILURES));
            while (times.size() > keep) {
                times.remove(0);
            }
            if (lockedTime == null && policy.countsFailures() && times.size() >= policy.maxFailure()) {
                lockedTime = failure;
            }
        }
        return new Update(GeneralizedTimes.distinctAsWritten(times), lockedTime);
    }

    private static boolean hasExpiredLockAt(PasswordPolicy policy, PasswordState state, List<Instant> failures) {
        return !failures.isEmpty() && hasExpiredLock(policy, state, failures.get(0));
    }

    /**
     * The failure state to write.
     *
     * @param failureTimes the new {@code pwdFailureTime} values, oldest first
     * @param accountLockedTime the new lock time; null for none
     */
    record Update(List<Instant> failureTimes, Instant accountLockedTime) {}
}
