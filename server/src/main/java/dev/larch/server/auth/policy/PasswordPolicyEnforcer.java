package dev.larch.server.auth.policy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.larch.server.auth.PasswordCheck;
import dev.larch.server.auth.PasswordSchemes;
import dev.larch.server.protocol.Session;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * The policy's checks on a new password (draft-behera section 7.2): whether users may change their
 * own, whether the current one is old enough ({@code pwdMinAge}), its quality ({@code pwdCheckQuality},
 * {@code pwdMinLength}, {@code pwdMaxLength}, Larch's {@code larchPwdMinCharClasses}) and history
 * ({@code pwdInHistory}), and the state the change writes. An administrator's reset is exempt from the
 * age, quality and history checks (as OpenLDAP exempts its rootdn) and, under {@code pwdMustChange},
 * sets {@code pwdReset}.
 *
 * <p>History checks hash the new password once per remembered value (at most
 * {@link PasswordPolicy#MAX_HISTORY}, each bounded by {@code security.max-password-iterations}).
 * Thread-safe.
 */
public final class PasswordPolicyEnforcer {
    private final PolicyResolver resolver;
    private final Clock clock;
    private final int maxIterations;

    /** @param maxIterations {@code security.max-password-iterations}: history values asking for more never match */
    public PasswordPolicyEnforcer(PolicyResolver resolver, Clock clock, int maxIterations) {
        this.resolver = resolver;
        this.clock = clock;
        this.maxIterations = maxIterations;
    }

    /**
     * Checks a new password against the policy governing {@code target} and says which policy state
     * the change brings.
     *
     * @param session who asks
     * @param target the entry as stored before the change (schema-aware)
     * @param newPassword the new password as the client sent it (cleartext, or a {@code {SCHEME}} value)
     * @param adminReset true when someone other than the entry's owner sets it (an administrator)
     * @param txn a transaction to read the policy in
     * @return the state changes to apply to the entry with the new password; never null
     * @throws PolicyRefusal when the policy refuses the change
     */
    public PasswordChangeEffects checkChange(
            Session session, Entry target, byte[] newPassword, boolean adminReset, ReadTxn txn) {
        Optional<PasswordPolicy> governing = resolver.governing(txn, PasswordState.of(target));
        if (governing.isEmpty()) {
            return PasswordChangeEffects.NONE;
        }
        return check(governing.get(), target, newPassword, adminReset);
    }

    /** The checks and effects of a change under {@code policy}; see {@link #checkChange}. */
    PasswordChangeEffects check(PasswordPolicy policy, Entry target, byte[] newPassword, boolean adminReset) {
        List<byte[]> current = currentPasswords(target);
        List<byte[]> history = PasswordHistory.values(target);
        Instant now = clock.instant();
        if (!adminReset) {
            if (!policy.allowUserChange()) {
                throw new PolicyRefusal(
                        ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS,
                        PasswordPolicyErrorEnum.PASSWORD_MOD_NOT_ALLOWED,
                        "the password policy does not let users change their own password");
            }
            checkAge(policy, PasswordState.of(target), now);
            checkQuality(policy, newPassword);
            checkHistory(policy, newPassword, current, history);
        }
        return new PasswordChangeEffects(
                GeneralizedTimes.format(now),
                PasswordHistory.after(history, current, now, policy.inHistory()),
                adminReset && policy.mustChange());
    }

    /** {@code pwdMinAge}: a password changed less than that long ago may not be changed by its user. */
    private static void checkAge(PasswordPolicy policy, PasswordState state, Instant now) {
        if (policy.minAge() == 0 || state.changedTime() == null) {
            return;
        }
        if (now.isBefore(state.changedTime().plus(Duration.ofSeconds(policy.minAge())))) {
            throw new PolicyRefusal(
                    ResultCodeEnum.CONSTRAINT_VIOLATION,
                    PasswordPolicyErrorEnum.PASSWORD_TOO_YOUNG,
                    "the password was changed less than the policy's minimum age of " + policy.minAge()
                            + " seconds ago");
        }
    }

    private static void checkQuality(PasswordPolicy policy, byte[] newPassword) {
        if (policy.checkQuality() == 0) {
            return;
        }
        if (PasswordSchemes.isHashed(newPassword)) {
            if (policy.checkQuality() == 2) {
                throw new PolicyRefusal(
                        ResultCodeEnum.CONSTRAINT_VIOLATION,
                        PasswordPolicyErrorEnum.INSUFFICIENT_PASSWORD_QUALITY,
                        "the password policy needs a cleartext password to check its quality");
            }
            return;
        }
        String text = new String(newPassword, StandardCharsets.UTF_8);
        if (text.codePointCount(0, text.length()) < policy.minLength()) {
            throw new PolicyRefusal(
                    ResultCodeEnum.CONSTRAINT_VIOLATION,
                    PasswordPolicyErrorEnum.PASSWORD_TOO_SHORT,
                    "the password is shorter than the policy's minimum of " + policy.minLength() + " characters");
        }
        // Bytes, as OpenLDAP 2.6 counts pwdMaxLength (the minimum counts characters: the kinder reading).
        if (policy.maxLength() > 0 && newPassword.length > policy.maxLength()) {
            throw new PolicyRefusal(
                    ResultCodeEnum.CONSTRAINT_VIOLATION,
                    PasswordPolicyErrorEnum.PASSWORD_TOO_LONG,
                    "the password is longer than the policy's maximum of " + policy.maxLength() + " bytes (UTF-8)");
        }
        int classes = CharacterClasses.count(text);
        if (classes < policy.minCharClasses()) {
            throw new PolicyRefusal(
                    ResultCodeEnum.CONSTRAINT_VIOLATION,
                    PasswordPolicyErrorEnum.INSUFFICIENT_PASSWORD_QUALITY,
                    "the password uses " + classes + " of the character classes lower-case, upper-case, digit and"
                            + " other; the policy needs " + policy.minCharClasses());
        }
    }

    private void checkHistory(PasswordPolicy policy, byte[] newPassword, List<byte[]> current, List<byte[]> history) {
        if (policy.inHistory() == 0) {
            return;
        }
        List<byte[]> used = new ArrayList<>(current);
        for (byte[] value : history) {
            byte[] old = PasswordHistory.password(value);
            if (old != null) {
                used.add(old);
            }
        }
        for (byte[] old : used) {
            if (PasswordSchemes.check(old, newPassword, true, maxIterations) == PasswordCheck.MATCH) {
                throw new PolicyRefusal(
                        ResultCodeEnum.CONSTRAINT_VIOLATION,
                        PasswordPolicyErrorEnum.PASSWORD_IN_HISTORY,
                        "the password was used before; choose one not among the last " + policy.inHistory());
            }
        }
    }

    private static List<byte[]> currentPasswords(Entry target) {
        Attribute attribute = target.get("userPassword");
        List<byte[]> values = new ArrayList<>();
        if (attribute != null) {
            for (Value v : attribute) {
                values.add(v.getBytes());
            }
        }
        return values;
    }
}
