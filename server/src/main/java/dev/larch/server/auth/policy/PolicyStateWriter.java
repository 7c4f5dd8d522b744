package dev.larch.server.auth.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the lockout, grace and last-bind state that binds change ({@code pwdFailureTime},
 * {@code pwdAccountLockedTime}, {@code pwdGraceUseTime}, {@code pwdLastSuccess}) through the
 * {@link WriteQueue}, off the event loops.
 *
 * <p>Writes are coalesced per entry: while one is queued, further bind outcomes for the same entry
 * join it, so a flood of failed binds on one DN costs one write transaction per turn of the write
 * queue, not one per bind; each pending record keeps at most
 * {@link PasswordPolicy#MAX_RECORDED_FAILURES} failure times.
 *
 * <p>Bounded, and closed when full: while {@value #MAX_PENDING} entries wait (the writer is stalled
 * or far behind), {@link #accepting} says no for any other entry, and the bind handler refuses those
 * binds busy before checking a password, so that no guess goes uncounted. Outcomes of checks already
 * running when the bound was reached are still kept, up to {@value #IN_FLIGHT_ALLOWANCE} entries more
 * (the checks in flight are far fewer: the worker pool bounds them); only past that is an outcome
 * dropped, counted ({@link #dropped}) and logged as an error.
 *
 * <p>Each write re-reads the entry in its own transaction and applies the outcomes to what is stored
 * then, so concurrent binds and administrators' changes are not lost. Thread-safe.
 */
public final class PolicyStateWriter {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyStateWriter.class);
    static final int MAX_PENDING = 10_000;
    static final int IN_FLIGHT_ALLOWANCE = 4_096;

    private final Directory directory;
    private final WriteQueue writes;
    private final int maxPending;
    private final Map<String, Pending> pending = new HashMap<>();
    private final AtomicLong dropped = new AtomicLong();
    private boolean overflowWarned;

    public PolicyStateWriter(Directory directory, WriteQueue writes) {
        this(directory, writes, MAX_PENDING);
    }

    /** @param maxPending entries that may wait before other entries' binds are refused (tests use few) */
    PolicyStateWriter(Directory directory, WriteQueue writes, int maxPending) {
        this.directory = directory;
        this.writes = writes;
        this.maxPending = maxPending;
    }

    /**
     * Whether an outcome for {@code dn} would be kept: it has a write waiting already, or fewer than
     * the bound of entries wait. A bind of an entry this says no for is refused before its check.
     */
    public synchronized boolean accepting(Dn dn) {
        return pending.size() < maxPending || pending.containsKey(dn.getNormName());
    }

    /** Bind outcomes dropped since start because far too many entries waited for their write. */
    public long dropped() {
        return dropped.get();
    }

    /** Records a failed bind of {@code dn} at {@code at}. */
    public void failed(Dn dn, PasswordPolicy policy, Instant at) {
        record(dn, policy, p -> {
            if (p.failures.size() < PasswordPolicy.MAX_RECORDED_FAILURES) {
                p.failures.add(at);
            }
        });
    }

    /**
     * Records a successful bind at {@code at}: failures (and an expired lock) are cleared, a grace
     * login is counted when {@code graceLogin}, and {@code pwdLastSuccess} set to {@code at} when
     * {@code lastSuccess}.
     */
    public void succeeded(Dn dn, PasswordPolicy policy, Instant at, boolean graceLogin, boolean lastSuccess) {
        record(dn, policy, p -> {
            p.clearAt = at;
            p.failures.clear();
            if (graceLogin) {
                p.graceUses.add(at);
            }
            if (lastSuccess) {
                p.lastSuccess = at;
            }
        });
    }

    /** Number of entries with a write waiting (for tests of the bound). */
    synchronized int pendingCount() {
        return pending.size();
    }

    private void record(Dn dn, PasswordPolicy policy, Consumer<Pending> change) {
        String key = dn.getNormName();
        boolean schedule;
        synchronized (this) {
            Pending p = pending.get(key);
            schedule = p == null;
            if (schedule) {
                if (pending.size() >= maxPending + IN_FLIGHT_ALLOWANCE) {
                    dropped.incrementAndGet();
                    if (!overflowWarned) {
                        overflowWarned = true;
                        LOG.error(
                                "{} entries wait for a password policy state write; a bind outcome of {} is"
                                        + " lost (counted in dropped outcomes)",
                                pending.size(),
                                dn.getName());
                    }
                    return;
                }
                p = new Pending(dn, policy);
                pending.put(key, p);
            }
            change.accept(p);
        }
        if (schedule) {
            writes.submitInternal("password policy state of " + dn.getName(), new Flush(key)::run);
        }
    }

    /** Takes the entry's pending outcomes off the map: outcomes arriving later schedule a write of their own. */
    private synchronized Pending take(String key) {
        overflowWarned = false;
        return pending.remove(key);
    }

    /**
     * One queued write of an entry's outcomes. It keeps what it took, so that when the write queue
     * runs it again (alone, after a shared commit failed) the same outcomes are written, not lost.
     */
    private final class Flush {
        private final String key;
        private boolean taken;
        private Pending outcomes;

        Flush(String key) {
            this.key = key;
        }

        /** On the writer thread. */
        void run(WriteTxn txn) {
            if (!taken) {
                outcomes = take(key);
                taken = true;
            }
            if (outcomes != null) {
                flush(txn, outcomes);
            }
        }
    }

    /** Applies {@code p} to what the entry holds in {@code txn}. */
    private void flush(WriteTxn txn, Pending p) {
        long id = directory.resolve(txn, p.dn);
        if (id == ReadTxn.NOT_FOUND) {
            return;
        }
        StoredEntry before = directory.load(txn, id);
        Entry entry = directory.schemaNormalizer().toEntry(before);
        PasswordState state = PasswordState.of(entry);
        boolean changed = false;
        if (p.clearAt != null && (!state.failureTimes().isEmpty() || state.accountLockedTime() != null)) {
            boolean expiredLock = Lockout.hasExpiredLock(p.policy, state, p.clearAt);
            entry.removeAttributes(PolicyAttributes.FAILURE_TIME);
            if (expiredLock) {
                entry.removeAttributes(PolicyAttributes.ACCOUNT_LOCKED_TIME);
            }
            state = PasswordState.of(entry);
            changed = true;
        }
        if (!p.failures.isEmpty() && !Lockout.isLocked(p.policy, state, p.failures.get(0))) {
            Lockout.Update update = Lockout.afterFailures(p.policy, state, p.failures);
            replaceTimes(entry, PolicyAttributes.FAILURE_TIME, update.failureTimes());
            replaceTimes(
                    entry,
                    PolicyAttributes.ACCOUNT_LOCKED_TIME,
                    update.accountLockedTime() == null ? List.of() : List.of(update.accountLockedTime()));
            changed = true;
        }
        if (!p.graceUses.isEmpty()) {
            List<Instant> uses = new ArrayList<>(state.graceUseTimes());
            uses.addAll(p.graceUses);
            replaceTimes(entry, PolicyAttributes.GRACE_USE_TIME, uses);
            changed = true;
        }
        if (p.lastSuccess != null && (state.lastSuccess() == null || p.lastSuccess.isAfter(state.lastSuccess()))) {
            replaceTimes(entry, PolicyAttributes.LAST_SUCCESS, List.of(p.lastSuccess));
            changed = true;
        }
        if (changed) {
            directory.replace(txn, before, entry);
        }
    }

    private static void replaceTimes(Entry entry, String attribute, List<Instant> times) {
        entry.removeAttributes(attribute);
        if (times.isEmpty()) {
            return;
        }
        List<Instant> distinct = GeneralizedTimes.distinctAsWritten(times);
        String[] values = new String[distinct.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = GeneralizedTimes.format(distinct.get(i));
        }
        try {
            entry.add(attribute, values);
        } catch (LdapException e) {
            throw new IllegalStateException("cannot set " + attribute, e);
        }
    }

    /** Outcomes waiting for one entry's write; guarded by the writer's lock until removed. */
    private static final class Pending {
        final Dn dn;
        final PasswordPolicy policy;
        final List<Instant> failures = new ArrayList<>();
        final List<Instant> graceUses = new ArrayList<>();
        /** When a successful bind asked for the failures to be cleared; null if none did. */
        Instant clearAt;
        /** The {@code pwdLastSuccess} to write; null for none. */
        Instant lastSuccess;

        Pending(Dn dn, PasswordPolicy policy) {
            this.dn = dn;
            this.policy = policy;
        }
    }
}
