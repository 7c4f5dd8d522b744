package dev.larch.server.auth.policy;

import java.util.concurrent.TimeUnit;

/**
 * A policy's own failed-bind delay ({@code pwdMinDelay}, {@code pwdMaxDelay} of draft-behera-11 and
 * OpenLDAP 2.6): the first consecutive failure is answered {@code pwdMinDelay} seconds late, each
 * further one twice as late as the one before, never later than {@code pwdMaxDelay} (a
 * {@code pwdMaxDelay} below {@code pwdMinDelay}, or absent, means no growth). Larch holds the answer
 * and the account's next password check back that long ({@link BindAdmission}), where slapd locks the
 * account for that long instead; either way a guesser gets one guess per delay. Pure functions.
 */
final class FailureDelay {
    private FailureDelay() {}

    /** The delay after the {@code failures}-th consecutive failure (1 = the first), in nanoseconds. */
    static long nanos(PasswordPolicy policy, int failures) {
        if (policy.minDelay() == 0 || failures <= 0) {
            return 0;
        }
        long max = Math.max(policy.minDelay(), policy.maxDelay());
        long seconds = policy.minDelay();
        for (int i = 1; i < failures && seconds < max; i++) {
            seconds *= 2;
        }
        return TimeUnit.SECONDS.toNanos(Math.min(max, seconds));
    }

    /**
     * How long without a failure before the count starts over: the admission's quiet period, or twice
     * the longest delay when that is longer, so that a guesser who waits out one delay does not start
     * again from the shortest.
     */
    static long quietNanos(PasswordPolicy policy, long quietSeconds) {
        return TimeUnit.SECONDS.toNanos(Math.max(quietSeconds, 2 * Math.max(policy.minDelay(), policy.maxDelay())));
    }
}
