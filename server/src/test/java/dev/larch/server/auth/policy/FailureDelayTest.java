package dev.larch.server.auth.policy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static dev.larch.server.auth.policy.PolicyFixtures.policy;
import static org.junit.jupiter.api.Assertions.assertEquals;

class FailureDelayTest {
    private static long seconds(PasswordPolicy policy, int failures) {
        return TimeUnit.NANOSECONDS.toSeconds(FailureDelay.nanos(policy, failures));
    }

    @Test
    void theDelayStartsAtPwdMinDelayAndDoublesUpToPwdMaxDelay() {
        PasswordPolicy p = policy("pwdMinDelay: 2", "pwdMaxDelay: 20");
        assertEquals(0, seconds(p, 0));
        assertEquals(2, seconds(p, 1));
        assertEquals(4, seconds(p, 2));
        assertEquals(8, seconds(p, 3));
        assertEquals(16, seconds(p, 4));
        assertEquals(20, seconds(p, 5));
        assertEquals(20, seconds(p, 1000));
    }

    @Test
    void noPwdMinDelayMeansNoDelayAndNoPwdMaxDelayMeansNoGrowth() {
        assertEquals(0, seconds(policy("pwdMaxDelay: 20"), 5));
        assertEquals(3, seconds(policy("pwdMinDelay: 3"), 1));
        assertEquals(3, seconds(policy("pwdMinDelay: 3"), 10));
    }

    @Test
    void aPolicyCannotAskForMoreThanAnHour() {
        PasswordPolicy p = policy("pwdMinDelay: 100000", "pwdMaxDelay: 999999");
        assertEquals(PasswordPolicy.MAX_DELAY_SECONDS, seconds(p, 1));
        assertEquals(PasswordPolicy.MAX_DELAY_SECONDS, seconds(p, 30));
    }

    @Test
    void theCountStartsOverAfterTheQuietPeriodOrTwiceTheLongestDelay() {
        assertEquals(
                TimeUnit.SECONDS.toNanos(60), FailureDelay.quietNanos(policy("pwdMinDelay: 1", "pwdMaxDelay: 8"), 60));
        assertEquals(
                TimeUnit.SECONDS.toNanos(600),
                FailureDelay.quietNanos(policy("pwdMinDelay: 1", "pwdMaxDelay: 300"), 60));
    }
}
