package dev.larch.server.auth.policy;

import java.time.Duration;
import java.time.Instant;

/**
 * Password expiry at bind time (draft-behera section 7.1, steps for pwdMaxAge, pwdExpireWarning,
 * pwdGraceAuthNLimit and, of draft-behera-11 and OpenLDAP 2.6, pwdGraceExpiry: grace logins only
 * within that many seconds after expiry). Pure function of policy, state and time.
 */
final class Expiry {
    private Expiry() {}

    /** What a successful password check means for expiry at {@code now}. */
    static Verdict evaluate(PasswordPolicy policy, PasswordState state, Instant now) {
        if (policy.maxAge() == 0 || state.changedTime() == null) {
            // No maximum age, or a password set before the policy: nothing to measure from.
            return Verdict.valid();
        }
        Instant expires = state.changedTime().plus(Duration.ofSeconds(policy.maxAge()));
        if (now.isBefore(expires)) {
            long left = Duration.between(now, expires).toSeconds();
            if (policy.expireWarning() > 0 && left < policy.expireWarning()) {
                return new Verdict(Kind.WARN, Math.max(1, clampToInt(left)), -1);
            }
            return Verdict.valid();
        }
        int used = state.graceUseTimes().size();
        boolean graceOver =
                policy.graceExpiry() > 0 && !now.isBefore(expires.plus(Duration.ofSeconds(policy.graceExpiry())));
        if (used < policy.graceAuthNLimit() && !graceOver) {
            return new Verdict(Kind.GRACE, -1, policy.graceAuthNLimit() - used - 1);
        }
        return new Verdict(Kind.EXPIRED, -1, -1);
    }

    private static int clampToInt(long seconds) {
        return (int) Math.min(Integer.MAX_VALUE, seconds);
    }

    enum Kind {
        /** Not expired and not about to. */
        VALID,
        /** Valid, expiring within pwdExpireWarning. */
        WARN,
        /** Expired; this bind uses a grace login. */
        GRACE,
        /** Expired and no grace login left: the bind fails. */
        EXPIRED
    }

    /**
     * @param secondsBeforeExpiration for {@link Kind#WARN}; -1 otherwise
     * @param graceRemaining for {@link Kind#GRACE}: grace logins left after this one; -1 otherwise
     */
    record Verdict(Kind kind, int secondsBeforeExpiration, int graceRemaining) {
        static Verdict valid() {
            return new Verdict(Kind.VALID, -1, -1);
        }
    }
}
