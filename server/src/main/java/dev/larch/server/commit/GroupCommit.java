package dev.larch.server.commit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a batch of writes together: one top-level write transaction, so one commit and one sync
 * for all, with each write in a transaction nested in it, so that each succeeds or fails alone.
 *
 * <p>For each write of a batch, in order: its work runs in its own nested transaction, which then
 * commits into the batch's transaction (its {@code beforeCommit} actions run then), or, when the work
 * failed or the no-op control asked for it, aborts, undoing that write alone. Once every write ran,
 * the batch's transaction commits; only after that commit returned are the committed writes' {@code
 * onCommit} actions run, the listener told and the clients answered, in queue order. A write that
 * ran alone (a batch of one) runs in a top-level transaction directly, as without group commit.
 *
 * <p>A write the server reacts to once it committed ({@code onCommit} actions: new access rules,
 * referral objects; not the notices of persistent and sync searches, which change nothing later
 * writes are judged by, see {@link dev.larch.server.store.WriteTxn#noticeOnCommit}) ends its batch, so that the next write is judged
 * with those reactions in place, as without group commit. The {@link WriteQueue#afterCommit}
 * listener (the password policy cache forgetting changed policies) is told only after the whole
 * batch: a write may still be judged by the cached policy as it was before an earlier write of its
 * batch changed it, which needs a client to change a policy and, concurrently, a password under it.
 *
 * <p>A write never fails because of its batch-mates:
 * <ul>
 *   <li>A write that fails for a reason other than its own result code (a full store, a change too
 *       large for one transaction, a store failure, a bug) ends the batch: when it shared the
 *       transaction with changes of others, it is run again, first in the next transaction, so the
 *       room others took cannot be what failed it.
 *   <li>When the batch's commit fails (a full disk, a full map), nothing of it was written and no
 *       client was answered: every write of it is run again in a transaction of its own, whose
 *       outcome is its answer. So the work of a write may run more than once; every run but the last
 *       was rolled back before the next began.
 * </ul>
 *
 * <p>Bounds: a batch holds at most what the {@link WriteQueue} drained (its {@code maxOperations});
 * the batch's dirty pages stay in memory until its commit, as one transaction's do.
 *
 * <p>Used on the writer thread only; the counters may be read from any thread.
 */
final class GroupCommit {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);

    private final LmdbStore store;
    /** Commits a top-level transaction: {@link WriteTxn#commit()}, or a test's stand-in that may fail. */
    private final Consumer<WriteTxn> commitTopLevel;

    private final AtomicLong transactions = new AtomicLong();
    private final AtomicLong operations = new AtomicLong();
    /** Told of each client write after its commit; null for none. */
    private volatile Consumer<Request> listener;

    GroupCommit(LmdbStore store) {
        this(store, WriteTxn::commit);
    }

    /**
     * @param commitTopLevel commits a top-level transaction; tests hand in one that fails as a full
     *     disk would, without committing
     */
    GroupCommit(LmdbStore store, Consumer<WriteTxn> commitTopLevel) {
        this.store = store;
        this.commitTopLevel = commitTopLevel;
    }

    /** Sets who is told of each committed client write (see {@link WriteQueue#afterCommit}). */
    void afterCommit(Consumer<Request> listener) {
        this.listener = listener;
    }

    /** Top-level write transactions committed with at least one write in them. */
    long transactionsCommitted() {
        return transactions.get();
    }

    /** Writes (clients' and the server's own) whose changes were committed. */
    long operationsCommitted() {
        return operations.get();
    }

    /**
     * Runs {@code batch} in queue order and answers each of its writes exactly once; writes whose
     * client abandoned them are dropped unanswered. Never throws.
     */
    void run(List<WriteTask> batch) {
        List<WriteTask> live = new ArrayList<>(batch.size());
        for (WriteTask task : batch) {
            if (!task.abandoned()) {
                live.add(task);
            }
        }
        List<WriteTask> answered = new ArrayList<>(live.size());
        try {
            int from = 0;
            while (from < live.size()) {
                from = live.size() - from == 1 ? alone(live, from, answered) : together(live, from, answered);
            }
        } catch (RuntimeException | Error e) {
            // A bug in this class, or the JVM in trouble: whoever still waits gets an answer.
            LOG.error("the writer failed in the middle of a batch", e);
            for (WriteTask task : live) {
                if (!answered.contains(task)) {
                    finish(task, Outcome.failed(e), answered);
                }
            }
        }
    }

    /** Runs {@code live[at]} in a top-level transaction of its own; returns the index after it. */
    private int alone(List<WriteTask> live, int at, List<WriteTask> answered) {
        WriteTask task = live.get(at);
        Outcome outcome = null;
        try (WriteTxn txn = store.write()) {
            outcome = attempt(task, txn, commitTopLevel);
        } catch (RuntimeException e) {
            if (outcome == null) {
                outcome = Outcome.failed(e); // no transaction (the store is closing)
            } else {
                LOG.warn("could not close a write transaction: {}", e.toString());
            }
        }
        if (outcome.kind() == Kind.COMMITTED) {
            transactions.incrementAndGet();
            operations.incrementAndGet();
        }
        finish(task, outcome, answered);
        return at + 1;
    }

    /**
     * Runs writes from {@code live[from]} on, each nested in one top-level transaction, until they
     * are all done or one ends the batch; commits it, then answers them.
     *
     * @return the index of the first write not answered
     */
    private int together(List<WriteTask> live, int from, List<WriteTask> answered) {
        WriteTxn parent;
        try {
            parent = store.write();
        } catch (RuntimeException e) {
            for (int i = from; i < live.size(); i++) {
                finish(live.get(i), Outcome.failed(e), answered);
            }
            return live.size();
        }
        List<Outcome> outcomes = new ArrayList<>();
        int kept = 0;
        try (parent) {
            for (int next = from; next < live.size(); next++) {
                int actionsBefore = parent.commitActions();
                Outcome outcome;
                try (WriteTxn child = parent.nested()) {
                    outcome = attempt(live.get(next), child, WriteTxn::commit);
                } catch (RuntimeException e) {
                    outcome = Outcome.failed(e);
                }
                if (!outcome.isOwnVerdict()) {
                    if (kept == 0) {
                        outcomes.add(outcome); // it ran as good as alone: its failure is its own
                    }
                    break; // otherwise it runs again first in the next transaction
                }
                outcomes.add(outcome);
                if (outcome.kind() == Kind.COMMITTED) {
                    kept++;
                    if (parent.commitActions() > actionsBefore) {
                        break; // the server reacts to it: the next write waits for the commit
                    }
                }
            }
            if (kept > 0) {
                commitTopLevel.accept(parent);
            }
        } catch (RuntimeException e) {
            if (!parent.isCommitted()) {
                LOG.warn(
                        "a transaction of {} writes could not commit ({}); each is run again in a transaction of its own",
                        outcomes.size(),
                        e.toString());
                int end = from + outcomes.size();
                for (int i = from; i < end; i++) {
                    alone(live, i, answered);
                }
                return end;
            }
            LOG.error("an action after a durable commit failed", e);
        }
        if (kept > 0) {
            transactions.incrementAndGet();
            operations.addAndGet(kept);
        }
        for (int i = 0; i < outcomes.size(); i++) {
            finish(live.get(from + i), outcomes.get(i), answered);
        }
        return from + outcomes.size();
    }

    /**
     * Runs {@code task}'s work in {@code txn} and commits {@code txn} with {@code commit}, unless the
     * work failed or the no-op control asks for it to be discarded; the caller closes {@code txn},
     * which aborts it then.
     */
    private Outcome attempt(WriteTask task, WriteTxn txn, Consumer<WriteTxn> commit) {
        ResultResponse response = null;
        try {
            if (store.loadingInBulk() && !(task instanceof WriteTask.Awaited)) {
                // Checked here, not only as a request arrives: one admitted just before the load began
                // would write index records beside those the load sorts in later.
                throw new ResultCodeException(ResultCodeEnum.UNAVAILABLE, LmdbStore.LOADING_IN_BULK);
            }
            boolean discard = task.discardsChanges();
            response = task.apply(txn);
            if (discard) {
                return Outcome.discarded(response);
            }
            commit.accept(txn);
        } catch (Throwable failure) {
            if (!txn.isCommitted()) {
                return Outcome.failed(failure);
            }
            // A top-level commit was durable; one of its onCommit actions threw.
            LOG.error("an action after a durable commit failed", failure);
        }
        return Outcome.committed(response);
    }

    private void finish(WriteTask task, Outcome outcome, List<WriteTask> answered) {
        answered.add(task);
        try {
            switch (outcome.kind()) {
                case COMMITTED -> task.committed(outcome.response(), listener);
                case DISCARDED -> task.discarded(outcome.response());
                case FAILED -> task.failed(outcome.failure());
            }
        } catch (RuntimeException e) {
            LOG.error("could not answer a write", e);
        }
    }

    private enum Kind {
        COMMITTED,
        DISCARDED,
        FAILED
    }

    /** How one run of a write ended. */
    private record Outcome(Kind kind, ResultResponse response, Throwable failure) {
        static Outcome committed(ResultResponse response) {
            return new Outcome(Kind.COMMITTED, response, null);
        }

        static Outcome discarded(ResultResponse response) {
            return new Outcome(Kind.DISCARDED, response, null);
        }

        static Outcome failed(Throwable failure) {
            return new Outcome(Kind.FAILED, null, failure);
        }

        /**
         * Whether this outcome is the write's own, whatever its batch-mates did: a success, or a
         * result code its checks chose. A store failure or an unexpected one may come from sharing
         * the transaction.
         */
        boolean isOwnVerdict() {
            return kind != Kind.FAILED || failure instanceof ResultCodeException || failure instanceof LdapException;
        }
    }
}
