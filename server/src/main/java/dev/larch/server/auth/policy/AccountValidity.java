package dev.larch.server.auth.policy;

import java.time.Duration;
import java.time.Instant;

/**
 * When an account may bind at all, apart from failure lockout: its validity window
 * ({@code pwdStartTime}, {@code pwdEndTime} on the entry, draft-behera-11 section 5.3) and its idle
 * limit ({@code pwdMaxIdle} of its policy, measured from {@code pwdLastSuccess}). An account refused
 * here is refused as locked. Pure functions of policy, state and time.
 *
 * <p>The window holds whatever the policy, also for an entry no policy governs (as
 * {@code pwdAccountLockedTime} does, so that an account closed on an OpenLDAP server stays closed);
 * a value that is no time closes the account. The idle limit counts from the later of
 * {@code pwdLastSuccess} and {@code pwdChangedTime}: an account that never bound since the last bind
 * was recorded counts from its password's change (as slapd's ppolicy does), and an administrator's
 * reset of the password of an idle account opens it again (slapd would keep it closed until
 * {@code pwdLastSuccess} is rewritten). With neither time, the account is not idle.
 */
final class AccountValidity {
    /**
     * Longest interval between two writes of {@code pwdLastSuccess} for one account, in seconds: a bind
     * writes it only when the stored value is at least this old (or a tenth of {@code pwdMaxIdle}, when
     * that is shorter), so that an account binding all day costs one write an hour, not one per bind
     * (as OpenLDAP's {@code olcLastBindPrecision}).
     */
    static final long LAST_SUCCESS_PRECISION_SECONDS = 3600;

    private AccountValidity() {}

    /** Whether the account may not bind at {@code now}: outside its window, or idle too long. */
    static boolean refuses(PasswordPolicy policy, PasswordState state, Instant now) {
        return outsideWindow(state, now) || idle(policy, state, now);
    }

    /** Whether {@code now} is before {@code pwdStartTime} or at or after {@code pwdEndTime}. */
    static boolean outsideWindow(PasswordState state, Instant now) {
        if (state.startTime() != null && now.isBefore(state.startTime())) {
            return true;
        }
        return state.endTime() != null && !now.isBefore(state.endTime());
    }

    /** Whether more than {@code pwdMaxIdle} seconds passed since the last successful bind. */
    static boolean idle(PasswordPolicy policy, PasswordState state, Instant now) {
        Instant last = lastActivity(state);
        return policy.maxIdle() > 0 && last != null && now.isAfter(last.plus(Duration.ofSeconds(policy.maxIdle())));
    }

    /**
     * Whether a successful bind at {@code now} should write {@code pwdLastSuccess}: only under a policy
     * with {@code pwdMaxIdle}, and only when the stored value is missing or older than the precision.
     */
    static boolean lastSuccessDue(PasswordPolicy policy, PasswordState state, Instant now) {
        if (policy.maxIdle() == 0) {
            return false;
        }
        if (state.lastSuccess() == null) {
            return true;
        }
        return !now.isBefore(state.lastSuccess().plusSeconds(precisionSeconds(policy)));
    }

    /** How stale a stored {@code pwdLastSuccess} may grow before a bind rewrites it. */
    static long precisionSeconds(PasswordPolicy policy) {
        return Math.min(LAST_SUCCESS_PRECISION_SECONDS, policy.maxIdle() / 10);
    }

    private static Instant lastActivity(PasswordState state) {
        Instant success = state.lastSuccess();
        Instant changed = state.changedTime();
        if (success == null || changed == null) {
            return success != null ? success : changed;
        }
        return success.isAfter(changed) ? success : changed;
    }
}
