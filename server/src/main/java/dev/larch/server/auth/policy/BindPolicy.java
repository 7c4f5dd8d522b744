package dev.larch.server.auth.policy;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * The password policy's part in establishing an identity (draft-behera section 7.1): read the entry's
 * policy and state with its password, then, once the password was checked, record a failure (and
 * lock) or decide whether the matching password may bind (not locked, not expired beyond its grace
 * logins) and what the response control says. A bind by client certificate (SASL EXTERNAL) is decided
 * as a matching password, and an identity acted as (proxied authorization) by {@link #mayActAs}.
 *
 * <p>A {@code pwdAccountLockedTime} locks also an entry that no policy governs (see
 * {@link Lockout#isLocked}). A locked account is refused exactly as a wrong password is: the caller
 * answers invalidCredentials with no policy error, so the lock shows only to an administrator reading
 * {@code pwdAccountLockedTime}. An account outside its validity window ({@code pwdStartTime},
 * {@code pwdEndTime}, also without a policy) or idle longer than {@code pwdMaxIdle} is refused as
 * locked too, but with the accountLocked policy error for clients that asked ({@link #lockError}):
 * such a state is set by an administrator or by time, not by guesses, and the user needs to know that
 * the password is not the problem.
 *
 * <p>Under a policy with {@code pwdMaxIdle}, a successful bind records {@code pwdLastSuccess} through
 * the {@link PolicyStateWriter}, at most once per {@link AccountValidity#precisionSeconds}; without
 * {@code pwdMaxIdle} nothing is written for it, so binds stay free of writes. Thread-safe.
 */
public final class BindPolicy {
    private final Directory directory;
    private final PolicyResolver resolver;
    private final PolicyStateWriter writer;
    private final Clock clock;

    /** @param clock the time failures, locks and expiry are measured with; a fixed clock in tests */
    public BindPolicy(Directory directory, PolicyResolver resolver, PolicyStateWriter writer, Clock clock) {
        this.directory = directory;
        this.resolver = resolver;
        this.writer = writer;
        this.clock = clock;
    }

    /**
     * The policy and state of {@code entry}, read in {@code txn}; {@link PasswordPolicy#NONE} stands
     * for the policy when none governs the entry but it carries a lock or a validity window; null when
     * neither.
     */
    public Governed read(ReadTxn txn, StoredEntry entry) {
        PasswordState state =
                PasswordState.of(entry, directory.schemaNormalizer().schema());
        Optional<PasswordPolicy> policy = resolver.governing(txn, state);
        if (policy.isEmpty() && state.accountLockedTime() == null && !state.hasWindow()) {
            return null;
        }
        return new Governed(directory.schemaNormalizer().dn(entry.dn()), policy.orElse(PasswordPolicy.NONE), state);
    }

    /**
     * Whether another identity may act as {@code entry} (proxied authorization, RFC 4370), read in
     * {@code txn}: not when its account is locked, its password expired (grace logins are for binds,
     * which this is not) or reset under {@code pwdMustChange}. Writes nothing.
     */
    public boolean mayActAs(ReadTxn txn, StoredEntry entry) {
        Governed governed = read(txn, entry);
        if (governed == null) {
            return true;
        }
        Instant now = clock.instant();
        if (Lockout.isLocked(governed.policy, governed.state, now)
                || AccountValidity.refuses(governed.policy, governed.state, now)) {
            return false;
        }
        Expiry.Kind expiry =
                Expiry.evaluate(governed.policy, governed.state, now).kind();
        if (expiry == Expiry.Kind.GRACE || expiry == Expiry.Kind.EXPIRED) {
            return false;
        }
        return !(governed.policy.mustChange() && governed.state.reset());
    }

    /**
     * Whether the outcome of a check of {@code governed}'s password can be recorded now; when not (the
     * state writes are far behind), the bind must be refused before its check, never checked
     * uncounted.
     */
    public boolean canRecord(Governed governed) {
        return governed.policy.isNone() || writer.accepting(governed.dn);
    }

    /**
     * The policy error for a bind refused as locked before its password was checked: accountLocked
     * when the account is outside its validity window or idle (see the class comment), null for a
     * failure lockout, which stays hidden.
     */
    public PasswordPolicyErrorEnum lockError(Governed governed) {
        if (governed == null) {
            return null;
        }
        return AccountValidity.refuses(governed.policy, governed.state, clock.instant())
                ? PasswordPolicyErrorEnum.ACCOUNT_LOCKED
                : null;
    }

    /** After a wrong password: counts the failure, unless the account is already locked. */
    public void failed(Governed governed) {
        Instant now = clock.instant();
        if (governed.policy.countsFailures() && !Lockout.isLocked(governed.policy, governed.state, now)) {
            writer.failed(governed.dn, governed.policy, now);
        }
    }

    /** After the right password: whether it may bind, and what to tell a client that asked. */
    public Outcome succeeded(Governed governed) {
        PasswordPolicy policy = governed.policy;
        PasswordState state = governed.state;
        Instant now = clock.instant();
        if (Lockout.isLocked(policy, state, now)) {
            return new Outcome(false, -1, -1, null, false);
        }
        if (AccountValidity.refuses(policy, state, now)) {
            return new Outcome(false, -1, -1, PasswordPolicyErrorEnum.ACCOUNT_LOCKED, false);
        }
        Expiry.Verdict expiry = Expiry.evaluate(policy, state, now);
        if (expiry.kind() == Expiry.Kind.EXPIRED) {
            return new Outcome(false, -1, -1, PasswordPolicyErrorEnum.PASSWORD_EXPIRED, false);
        }
        boolean grace = expiry.kind() == Expiry.Kind.GRACE;
        boolean stateToClear = grace || !state.failureTimes().isEmpty() || Lockout.hasExpiredLock(policy, state, now);
        boolean lastSuccess = AccountValidity.lastSuccessDue(policy, state, now);
        if (!policy.isNone() && (stateToClear || lastSuccess)) {
            writer.succeeded(governed.dn, policy, now, grace, lastSuccess);
        }
        boolean mustChange = policy.mustChange() && state.reset();
        return new Outcome(
                true,
                expiry.secondsBeforeExpiration(),
                expiry.graceRemaining(),
                mustChange ? PasswordPolicyErrorEnum.CHANGE_AFTER_RESET : null,
                mustChange);
    }

    /** An entry governed by a policy, as read when its bind arrived. */
    public static final class Governed {
        final Dn dn;
        final PasswordPolicy policy;
        final PasswordState state;

        Governed(Dn dn, PasswordPolicy policy, PasswordState state) {
            this.dn = dn;
            this.policy = policy;
            this.state = state;
        }
    }

    /**
     * What a bind with the right password comes to.
     *
     * @param allowed false: answer invalidCredentials, as for a wrong password
     * @param timeBeforeExpiration for the response control; -1 for none
     * @param graceRemaining for the response control; -1 for none
     * @param error for the response control; null for none
     * @param mustChange the session may do nothing but change its password
     */
    public record Outcome(
            boolean allowed,
            int timeBeforeExpiration,
            int graceRemaining,
            PasswordPolicyErrorEnum error,
            boolean mustChange) {}
}
