package dev.larch.server.auth.policy;

import java.util.List;

import org.junit.jupiter.api.Test;

import static dev.larch.server.auth.policy.PolicyFixtures.T0;
import static dev.larch.server.auth.policy.PolicyFixtures.policy;
import static dev.larch.server.auth.policy.PolicyFixtures.state;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ExpiryTest {
    private static final PasswordPolicy DAY =
            policy("pwdMaxAge: 86400", "pwdExpireWarning: 3600", "pwdGraceAuthNLimit: 2");

    @Test
    void aPasswordWellWithinItsAgeIsValidWithoutWarning() {
        assertEquals(Expiry.Verdict.valid(), Expiry.evaluate(DAY, state(T0, null, List.of(), List.of()), T0));
    }

    @Test
    void withinTheWarningWindowTheSecondsLeftAreGiven() {
        Expiry.Verdict verdict =
                Expiry.evaluate(DAY, state(T0, null, List.of(), List.of()), T0.plusSeconds(86400 - 100));
        assertEquals(Expiry.Kind.WARN, verdict.kind());
        assertEquals(100, verdict.secondsBeforeExpiration());
    }

    @Test
    void anExpiredPasswordUsesGraceLoginsThenFails() {
        var now = T0.plusSeconds(86400);
        Expiry.Verdict first = Expiry.evaluate(DAY, state(T0, null, List.of(), List.of()), now);
        assertEquals(new Expiry.Verdict(Expiry.Kind.GRACE, -1, 1), first);
        Expiry.Verdict second = Expiry.evaluate(DAY, state(T0, null, List.of(), List.of(now)), now);
        assertEquals(new Expiry.Verdict(Expiry.Kind.GRACE, -1, 0), second);
        Expiry.Verdict third = Expiry.evaluate(DAY, state(T0, null, List.of(), List.of(now, now)), now);
        assertEquals(Expiry.Kind.EXPIRED, third.kind());
    }

    @Test
    void graceLoginsEndPwdGraceExpirySecondsAfterExpiryUnderEitherName() {
        for (String name : new String[] {"pwdGraceExpiry", "pwdGraceExpire"}) {
            PasswordPolicy limited = policy("pwdMaxAge: 86400", "pwdGraceAuthNLimit: 2", name + ": 600");
            var expires = T0.plusSeconds(86400);
            assertEquals(
                    Expiry.Kind.GRACE,
                    Expiry.evaluate(limited, state(T0, null, List.of(), List.of()), expires.plusSeconds(599))
                            .kind(),
                    name);
            assertEquals(
                    Expiry.Kind.EXPIRED,
                    Expiry.evaluate(limited, state(T0, null, List.of(), List.of()), expires.plusSeconds(600))
                            .kind(),
                    name);
        }
        assertEquals(
                Expiry.Kind.GRACE,
                Expiry.evaluate(DAY, state(T0, null, List.of(), List.of()), T0.plusSeconds(1L << 30))
                        .kind(),
                "without pwdGraceExpiry the grace logins have no end");
    }

    @Test
    void noMaxAgeOrNoChangedTimeNeverExpires() {
        assertEquals(
                Expiry.Kind.VALID,
                Expiry.evaluate(policy(), state(T0, null, List.of(), List.of()), T0.plusSeconds(1L << 40))
                        .kind());
        assertEquals(
                Expiry.Kind.VALID,
                Expiry.evaluate(DAY, state(null, null, List.of(), List.of()), T0.plusSeconds(1L << 40))
                        .kind());
    }
}
