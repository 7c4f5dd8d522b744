package dev.larch.server.auth.policy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Admits the password checks of binds per account, in arrival order, so that binds sent in parallel
 * cannot outrun the account's failure count, its lockout or its failed-bind delay.
 *
 * <p>Each account has an in-memory record in front of its stored policy state. It is seeded from the
 * stored {@code pwdFailureTime} and {@code pwdAccountLockedTime} when first needed; from then on it
 * counts each failure and decides the lock the moment a check ends, before the next check of the
 * account may start. The stored attributes stay the durable record ({@link PolicyStateWriter} writes
 * them as before). The rule, per account:
 * <ul>
 *   <li>locked now, outside its validity window or idle too long ({@link AccountValidity}): refused
 *       without a check (the caller answers as for a wrong password);
 *   <li>without a recent failure, at most {@value #MAX_PARALLEL} checks run at once, and never more
 *       than the failures its policy has left before the lock (each running check may be one more);
 *   <li>after a failure, one check at a time, and the next starts only when the failure's delay
 *       is over, until a success or {@value #QUIET_SECONDS} s of quiet. The delay is the hold the
 *       caller gives or, when longer, the policy's own ({@link FailureDelay}: {@code pwdMinDelay}
 *       doubling per consecutive failure up to {@code pwdMaxDelay});
 *   <li>the others wait in arrival order, at most {@value #MAX_WAITING} per account; past that the
 *       bind is refused busy (an account under attack is refused, never its neighbours).
 * </ul>
 *
 * <p>Memory is bounded: at most {@value #MAX_ACCOUNTS} records; to make room the least recently used
 * idle record is forgotten (its stored state seeds it again); when none of the oldest
 * {@value #EVICTION_SCAN} is idle, a bind of a new account is refused busy. A client's write to an
 * entry ({@link #forget}: an administrator unlocking it or resetting its password) makes its record
 * be seeded again from the stored state. Failures not yet written when a record is forgotten are
 * lost to it (the write queue writes them within milliseconds).
 *
 * <p>The administrator, which has no entry, has a record of its own under an in-memory policy
 * ({@code security.admin-max-failures}, {@code security.admin-lockout-seconds}): nothing is stored, so
 * a restart (with a new admin password or not) clears its lock.
 *
 * <p>Thread-safe: one lock, held briefly; callbacks run outside it, on the calling thread.
 */
public final class BindAdmission {
    static final int MAX_ACCOUNTS = 10_000;
    static final int MAX_WAITING = 64;
    static final int MAX_PARALLEL = 4;
    static final int EVICTION_SCAN = 64;
    static final long QUIET_SECONDS = 60;

    private final Clock clock;
    private final LongSupplier nanoClock;
    private final PasswordPolicy adminPolicy;
    private final Account admin;
    private final Map<String, Account> accounts = new LinkedHashMap<>(256, 0.75f, true);

    /**
     * @param adminMaxFailures failed administrator binds that lock it; 0 = never
     * @param adminLockoutSeconds how long the administrator's lock lasts; 0 = until a restart
     * @param clock the time failures and locks are measured with
     * @param nanoClock {@link System#nanoTime()} in production
     */
    public BindAdmission(int adminMaxFailures, long adminLockoutSeconds, Clock clock, LongSupplier nanoClock) {
        this.clock = clock;
        this.nanoClock = nanoClock;
        this.adminPolicy = PasswordPolicy.lockoutOnly(null, adminMaxFailures, adminLockoutSeconds);
        this.admin = new Account();
        admin.state = new PasswordState(null, null, null, List.of(), List.of(), false);
    }

    /**
     * Admits a check of the password of an entry: calls {@code candidate} now (start or refusal) or
     * keeps it until the account's earlier checks allow it.
     *
     * @param account the entry's normalized DN
     * @param governed its policy and stored state as read with its password; null when no policy
     *     governs it
     */
    public void admit(String account, BindPolicy.Governed governed, Candidate candidate) {
        PasswordPolicy policy = governed == null ? null : governed.policy;
        PasswordState stored = governed == null ? null : governed.state;
        Decision decision;
        Account a;
        synchronized (this) {
            a = accounts.get(account);
            if (a == null && (accounts.size() < MAX_ACCOUNTS || evictOne())) {
                a = new Account();
                accounts.put(account, a);
            }
            if (a == null) {
                decision = Decision.BUSY_ACCOUNTS;
            } else {
                if (a.stale || a.state == null) {
                    a.state = stored;
                    a.stale = false;
                }
                a.policy = policy;
                decision = decide(a, candidate);
            }
        }
        act(decision, candidate, a);
    }

    /** {@link #admit} for the administrator, under its in-memory policy. */
    public void admitAdministrator(Candidate candidate) {
        Decision decision;
        synchronized (this) {
            admin.policy = adminPolicy;
            decision = decide(admin, candidate);
        }
        act(decision, candidate, admin);
    }

    /**
     * Forgets what is held in memory about {@code account} after a client's write to its entry
     * committed: the next bind seeds it from the stored state again.
     */
    public synchronized void forget(String account) {
        Account a = accounts.get(account);
        if (a == null) {
            return;
        }
        if (a.idle()) {
            accounts.remove(account);
        } else {
            a.stale = true;
        }
    }

    /** {@link #forget} of every account, after a write that may have moved many (a rename). */
    public synchronized void forgetAll() {
        accounts.values().removeIf(Account::idle);
        accounts.values().forEach(a -> a.stale = true);
    }

    /**
     * Whether the account is locked now, by its in-memory record when there is one, else by
     * {@code governed}'s stored state (a check outside a bind: {@link PasswordGuesses}).
     */
    public synchronized boolean lockedNow(String account, BindPolicy.Governed governed) {
        Account a = accounts.get(account);
        PasswordState state = a != null && !a.stale && a.state != null ? a.state : governed.state;
        Instant now = clock.instant();
        return Lockout.isLocked(governed.policy, state, now) || AccountValidity.refuses(governed.policy, state, now);
    }

    /**
     * Counts a wrong password presented outside a bind (Password Modify's old password, a Modify
     * deleting a value by cleartext) in the account's record, as a failed bind's: the next bind sees
     * it, and the lock it may bring.
     */
    public synchronized void failedOutsideBind(String account, BindPolicy.Governed governed) {
        Account a = accounts.get(account);
        if (a == null) {
            if (accounts.size() >= MAX_ACCOUNTS && !evictOne()) {
                return;
            }
            a = new Account();
            accounts.put(account, a);
        }
        if (a.stale || a.state == null) {
            a.state = governed.state;
            a.stale = false;
        }
        a.policy = governed.policy;
        Instant now = clock.instant();
        if (governed.policy.countsFailures() && !Lockout.isLocked(governed.policy, a.state, now)) {
            Lockout.Update update = Lockout.afterFailures(governed.policy, a.state, List.of(now));
            a.state = withFailures(a.state, update.failureTimes(), update.accountLockedTime());
        }
    }

    /** Records held (for tests of the bound). */
    synchronized int tracked() {
        return accounts.size();
    }

    private Decision decide(Account a, Candidate candidate) {
        if (!a.waiting.isEmpty()) {
            if (a.waiting.size() >= MAX_WAITING) {
                return Decision.BUSY_WAITING;
            }
            a.waiting.add(candidate);
            return Decision.WAIT;
        }
        Decision d = decideHead(a);
        if (d == Decision.WAIT) {
            a.waiting.add(candidate);
        } else if (d == Decision.START) {
            a.inFlight++;
        }
        return d;
    }

    /** For the next candidate of {@code a}: START, LOCKED or WAIT; changes nothing but expired state. */
    private Decision decideHead(Account a) {
        Instant now = clock.instant();
        long nanos = nanoClock.getAsLong();
        PasswordPolicy policy = a.policy;
        if (policy != null && a.state != null) {
            if (Lockout.hasExpiredLock(policy, a.state, now)) {
                a.state = withFailures(a.state, List.of(), null);
            }
            if (Lockout.isLocked(policy, a.state, now) || AccountValidity.refuses(policy, a.state, now)) {
                return Decision.LOCKED;
            }
        }
        // A policy's delay may outlast the quiet period: the hold ends first.
        if (a.recentFailure
                && nanos - a.lastFailureNanos > TimeUnit.SECONDS.toNanos(QUIET_SECONDS)
                && nanos - a.nextStartNanos >= 0) {
            a.recentFailure = false;
        }
        if (a.recentFailure && nanos - a.nextStartNanos < 0) {
            return Decision.WAIT;
        }
        int limit = a.recentFailure ? 1 : MAX_PARALLEL;
        if (policy != null && policy.countsFailures() && a.state != null) {
            limit = Math.min(limit, Math.max(1, policy.maxFailure() - recentFailures(policy, a.state, now)));
        }
        return a.inFlight < limit ? Decision.START : Decision.WAIT;
    }

    private static int recentFailures(PasswordPolicy policy, PasswordState state, Instant now) {
        if (policy.failureCountInterval() == 0) {
            return state.failureTimes().size();
        }
        Instant oldest = now.minus(Duration.ofSeconds(policy.failureCountInterval()));
        return (int)
                state.failureTimes().stream().filter(t -> !t.isBefore(oldest)).count();
    }

    private void act(Decision decision, Candidate candidate, Account account) {
        switch (decision) {
            case START -> candidate.start(new Slot(account));
            case LOCKED -> candidate.refuseLocked();
            case BUSY_WAITING -> candidate.refuseBusy("too many binds of this account are waiting; try again later");
            case BUSY_ACCOUNTS -> candidate.refuseBusy("too many accounts are binding at once; try again later");
            // Nothing running will drain it when only the delay holds it back: look again then.
            case WAIT -> drain(account);
        }
    }

    /**
     * Starts or refuses the waiting candidates of {@code a} that may go now; when only the delay holds
     * the next back, looks again once it is over (on the next candidate's scheduler, once per delay).
     */
    private void drain(Account a) {
        List<Candidate> started = new ArrayList<>();
        List<Candidate> locked = new ArrayList<>();
        long retryNanos = -1;
        ScheduledExecutorService scheduler = null;
        synchronized (this) {
            while (!a.waiting.isEmpty()) {
                Decision d = decideHead(a);
                if (d == Decision.WAIT) {
                    if (a.recentFailure && a.inFlight == 0 && a.retryAtNanos != a.nextStartNanos) {
                        a.retryAtNanos = a.nextStartNanos;
                        retryNanos = Math.max(0, a.nextStartNanos - nanoClock.getAsLong());
                        scheduler = a.waiting.peek().scheduler();
                    }
                    break;
                }
                Candidate next = a.waiting.poll();
                if (d == Decision.START) {
                    a.inFlight++;
                    started.add(next);
                } else {
                    locked.add(next);
                }
            }
        }
        for (Candidate c : locked) {
            c.refuseLocked();
        }
        for (Candidate c : started) {
            c.start(new Slot(a));
        }
        if (retryNanos >= 0 && scheduler != null) {
            try {
                scheduler.schedule(() -> drain(a), retryNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // Shutting down: the waiting binds' connections close with it.
            }
        }
    }

    /** Removes the least recently used idle record among the oldest; false when none is idle. */
    private boolean evictOne() {
        Iterator<Account> it = accounts.values().iterator();
        for (int i = 0; i < EVICTION_SCAN && it.hasNext(); i++) {
            if (it.next().idle()) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    private static PasswordState withFailures(PasswordState s, List<Instant> failures, Instant lockedTime) {
        return s.withFailures(failures, lockedTime);
    }

    /** One bind waiting for, or holding, its turn to check a password. */
    public interface Candidate {
        /**
         * Checks the password now. {@code slot} must be finished exactly once, whatever happens.
         * Called on whichever thread admitted it, outside the admission's lock.
         */
        void start(Slot slot);

        /** The account is locked: answer as for a wrong password, with no check. */
        void refuseLocked();

        /** Too many binds wait: answer busy with {@code message}. */
        void refuseBusy(String message);

        /**
         * Where a later look at the account may run while this candidate waits (its event loop);
         * null for none.
         */
        ScheduledExecutorService scheduler();
    }

    /** A started check's place; its outcome lets the account's next checks go. */
    public final class Slot {
        private final Account account;
        private boolean finished;

        private Slot(Account account) {
            this.account = account;
        }

        /**
         * The right password, and the bind succeeded: the account's failures are forgotten, and its
         * last success is now (the stored {@code pwdLastSuccess} may lag: it is written at most once
         * per precision interval).
         */
        public void matched() {
            finish(a -> {
                a.recentFailure = false;
                a.delayedFailures = 0;
                if (a.state != null) {
                    Instant now = clock.instant();
                    a.state = withFailures(
                                    a.state,
                                    List.of(),
                                    a.policy != null && Lockout.hasExpiredLock(a.policy, a.state, now)
                                            ? null
                                            : a.state.accountLockedTime())
                            .withLastSuccess(now);
                }
            });
        }

        /**
         * A wrong password: counts a failure (locking the account when it reaches
         * {@code pwdMaxFailure}); the account's next check starts after {@code holdNanos} or the
         * policy's own delay, whichever is longer.
         *
         * @return the hold applied, in nanoseconds: how long the caller should hold the answer back
         */
        public long failed(long holdNanos) {
            long[] applied = {holdNanos};
            finish(a -> {
                applied[0] = Math.max(holdNanos, policyDelay(a));
                held(a, applied[0]);
                if (a.policy != null && a.policy.countsFailures() && a.state != null) {
                    Instant now = clock.instant();
                    if (!Lockout.isLocked(a.policy, a.state, now)) {
                        Lockout.Update update = Lockout.afterFailures(a.policy, a.state, List.of(now));
                        a.state = withFailures(a.state, update.failureTimes(), update.accountLockedTime());
                    }
                }
            });
            return applied[0];
        }

        /**
         * Counts one more consecutive failure for the policy's delay and returns that delay in
         * nanoseconds; 0 when the policy has none. The count starts over after a success or after
         * {@link FailureDelay#quietNanos} without a failure.
         */
        private long policyDelay(Account a) {
            if (a.policy == null || !a.policy.delaysFailures()) {
                return 0;
            }
            long now = nanoClock.getAsLong();
            if (a.delayedFailures > 0 && now - a.lastFailureNanos > FailureDelay.quietNanos(a.policy, QUIET_SECONDS)) {
                a.delayedFailures = 0;
            }
            a.delayedFailures++;
            return FailureDelay.nanos(a.policy, a.delayedFailures);
        }

        /** The right password, refused all the same (expired): held like a failure, not counted. */
        public void refused(long holdNanos) {
            finish(a -> held(a, holdNanos));
        }

        /** No outcome (abandoned, busy pool, an error): only frees the place. */
        public void released() {
            finish(a -> {});
        }

        private void held(Account a, long holdNanos) {
            long now = nanoClock.getAsLong();
            a.recentFailure = true;
            a.lastFailureNanos = now;
            long next = now + Math.max(0, holdNanos);
            if (next - a.nextStartNanos > 0) {
                a.nextStartNanos = next;
            }
        }

        private void finish(Consumer<Account> outcome) {
            synchronized (BindAdmission.this) {
                if (finished) {
                    return;
                }
                finished = true;
                account.inFlight--;
                outcome.accept(account);
            }
            drain(account);
        }
    }

    private enum Decision {
        START,
        WAIT,
        LOCKED,
        BUSY_WAITING,
        BUSY_ACCOUNTS
    }

    /** One account's admission state; guarded by the admission's lock. */
    private static final class Account {
        PasswordPolicy policy;
        /** The policy state as counted here; null when no policy governs the account. */
        PasswordState state;

        boolean stale;
        int inFlight;
        boolean recentFailure;
        long lastFailureNanos;
        /** Consecutive failures counted for the policy's own delay ({@code pwdMinDelay}). */
        int delayedFailures;

        long nextStartNanos;
        /** The end of the delay a look at the waiting candidates is scheduled for. */
        long retryAtNanos;

        final ArrayDeque<Candidate> waiting = new ArrayDeque<>();

        boolean idle() {
            return inFlight == 0 && waiting.isEmpty();
        }
    }
}
