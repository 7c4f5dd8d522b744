package dev.larch.server.replica;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

import dev.larch.server.commit.WriteQueue;
import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.directory.ChangeStamps;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.sync.SyncCookie;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local store as one replica of a provider ({@link ReplicaSink}), for one replica ID: each batch
 * is one task of the server's single writer, applied in one write transaction together with the
 * cookie it reaches, so a replica stopped at any moment restarts from exactly what it committed.
 *
 * <p>Per batch, in order: entries are stored or skipped ({@link Upserts}), deletes applied ({@link
 * Removals}), UUIDs marked present in the store ({@link dev.larch.server.store.WriteTxn#markPresent})
 * and a present phase's end sweeps the unmarked entries away ({@link PresentSweep}); then the state of
 * the cookies of the batch, merged per server ID into the state stored before, is stored under the
 * replica ID and raises the store's contextCSN. Each change is logged with the CSN it came with, so
 * a consumer of this server gets it in turn, but only cookies raise the contextCSN: a refresh sends
 * entries in the provider's order, not in CSN order.
 *
 * <p>What needs no store (each entry made schema-aware and checked against the schema, {@link
 * IncomingEntries}) is done before the batch reaches the writer, on the executor handed in, so that
 * it can run for one batch while the writer stores the one before; a batch handed in while the one
 * before is still being applied is stored only after that one committed, and fails when it failed,
 * so no cookie ever covers a batch that was not stored.
 *
 * <p>Every CSN received is shown to this server's CSN clock, so its own later changes sort above;
 * one further ahead of the local clock than the maximum skew fails the batch ({@link ClockSkew}).
 * Any failure fails the whole batch: nothing of it, cookie included, is committed.
 *
 * <p>After a batch commits, its changes are counted in {@link ReplicationMetrics} and each live change
 * (an entry or delete that came with a cookie, as the persist stage sends them; a refresh's entries are
 * copies of old state, not changes) gives a lag: the commit's time minus the time of its CSN (the
 * entry's entryCSN; for a delete, the newest CSN of its cookie).
 *
 * <p>Thread-safe: batches are stored on the writer thread, in the order {@link #apply} was called;
 * {@link #storedCookie} reads a snapshot.
 */
public final class StoreReplica implements ReplicaSink {
    private static final Logger LOG = LoggerFactory.getLogger(StoreReplica.class);
    private final int rid;
    private final Directory directory;
    private final WriteQueue writes;
    private final ChangeStamps stamps;
    private final IncomingEntries incoming;
    private final Upserts upserts;
    private final Removals removals;
    private final PresentSweep sweep;
    private final UuidIndex uuids;
    private final ClockSkew skew;
    private final Clock clock;
    private final ReplicationMetrics.Replica metrics;
    private final Executor preparing;
    /** Loads a first refresh into an empty store in bulk; null when this replica never does. */
    private final BulkRefresh bulk;
    /** The last batch handed in, what the next one is stored after. */
    private CompletableFuture<Void> last = CompletableFuture.completedFuture(null);

    /**
     * Entries of a search waiting for their parents across batches, at most this many: past it the
     * oldest are applied by {@link Upserts}'s rules (their parents are not here: dropped).
     */
    static final int MAX_CARRIED = 10_000;

    /**
     * Entries whose parents had not arrived by the end of the last committed batch, carried into the
     * next: a batch that stores no cookie may leave them waiting, since a replica restarted before the
     * parent arrives is sent them again (from the cookie stored before them). Written after each
     * commit; read by the next batch's run, which starts after it.
     */
    private volatile List<Waiting> carried = List.of();

    /**
     * @param rid the replica ID ({@code replication.consumer.<rid>}), 0–{@value SyncCookie#MAX_RID}
     * @param directory the tree the replica holds; its {@link ChangeStamps} give the server ID and the
     *     CSN clock shown every received CSN
     * @param checker the local schema every received entry must pass
     * @param writes the server's single writer
     * @param maxClockSkewSeconds how far ahead of this server's clock a received CSN may be
     * @throws IllegalArgumentException when the store keeps no equality index on entryUUID, or {@code rid}
     *     or the skew is out of range
     */
    public StoreReplica(
            int rid, Directory directory, SchemaChecker checker, WriteQueue writes, long maxClockSkewSeconds) {
        this(
                rid,
                directory,
                checker,
                writes,
                maxClockSkewSeconds,
                Clock.systemUTC(),
                new ReplicationMetrics(),
                Runnable::run,
                null);
    }

    /**
     * {@link #StoreReplica(int, Directory, SchemaChecker, WriteQueue, long)} reading {@code clock}, each
     * batch prepared on the thread that hands it in (tests).
     */
    public StoreReplica(
            int rid,
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            long maxClockSkewSeconds,
            Clock clock) {
        this(
                rid,
                directory,
                checker,
                writes,
                maxClockSkewSeconds,
                clock,
                new ReplicationMetrics(),
                Runnable::run,
                null);
    }

    /**
     * {@link #StoreReplica(int, Directory, SchemaChecker, WriteQueue, long)} reading {@code clock},
     * counting what it commits into {@code metrics} under {@code rid}, preparing batches on {@code
     * preparing} (any number of threads: batches are stored in order whatever order they are prepared
     * in), loading a first refresh into an empty store through {@code bulk} (one per store, shared by
     * its replicas; null never loads in bulk).
     */
    public StoreReplica(
            int rid,
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            long maxClockSkewSeconds,
            Clock clock,
            ReplicationMetrics metrics,
            Executor preparing,
            BulkRefresh bulk) {
        if (rid < 0 || rid > SyncCookie.MAX_RID) {
            throw new IllegalArgumentException("a replica ID must be 0-" + SyncCookie.MAX_RID + ", not " + rid);
        }
        this.rid = rid;
        this.directory = directory;
        this.writes = writes;
        this.stamps = directory.stamps();
        this.uuids =
                new UuidIndex(directory.store(), directory.schemaNormalizer().schema());
        this.incoming = new IncomingEntries(directory, checker);
        this.removals = new Removals(directory);
        this.upserts = new Upserts(directory, uuids, removals);
        this.sweep = new PresentSweep(directory, removals);
        this.skew = new ClockSkew(rid, maxClockSkewSeconds, clock);
        this.clock = clock;
        this.metrics = metrics.of(rid);
        this.preparing = preparing;
        this.bulk = bulk;
    }

    public int rid() {
        return rid;
    }

    @Override
    public SyncCookie storedCookie() {
        try (ReadTxn txn = directory.store().read()) {
            return cookieIn(txn);
        }
    }

    private SyncCookie cookieIn(ReadTxn txn) {
        String state = txn.replicaCookie(rid);
        return state == null ? null : new SyncCookie(rid, stamps.serverId(), CsnVector.parse(state));
    }

    @Override
    public synchronized CompletableFuture<Void> apply(List<ReplicaChange> changes) {
        if (changes.isEmpty()) {
            throw new IllegalArgumentException("a batch holds at least one change");
        }
        List<ReplicaChange> batch = List.copyOf(changes);
        CompletableFuture<IncomingEntry[]> prepared = CompletableFuture.supplyAsync(() -> prepare(batch), preparing);
        // A batch handed in after the one before had completed (failed or not: a new session) starts
        // afresh; one handed in while it was being applied waits for its commit and shares its failure.
        CompletableFuture<IncomingEntry[]> ready =
                last.isDone() ? prepared : last.thenCombine(prepared, (committed, entries) -> entries);
        CompletableFuture<Void> stored = ready.thenCompose(entries -> store(batch, entries));
        last = stored;
        return stored;
    }

    /** Each upsert's entry prepared, at its index in {@code batch}; null at the other changes' indexes. */
    private IncomingEntry[] prepare(List<ReplicaChange> batch) {
        IncomingEntry[] entries = new IncomingEntry[batch.size()];
        for (int i = 0; i < entries.length; i++) {
            if (batch.get(i) instanceof ReplicaChange.Upsert upsert) {
                entries[i] = incoming.prepare(upsert.uuid(), upsert.entry());
            }
        }
        return entries;
    }

    private CompletableFuture<Void> store(List<ReplicaChange> batch, IncomingEntry[] entries) {
        if (bulk == null) {
            return storeOnce(batch, entries, false);
        }
        // A batch the bulk load cannot take ends the load, then is applied again on the ordinary path.
        return storeOnce(batch, entries, true).exceptionallyCompose(failure -> {
            Throwable cause = failure instanceof CompletionException wrapped ? wrapped.getCause() : failure;
            if (cause instanceof LeavesBulk) {
                LOG.info("replica {}: {}", rid, cause.getMessage());
                return bulk.end().thenCompose(ended -> storeOnce(batch, entries, false));
            }
            return CompletableFuture.failedFuture(failure);
        });
    }

    /** @param mayBulk whether the batch may be (or begin) part of a bulk load */
    private CompletableFuture<Void> storeOnce(List<ReplicaChange> batch, IncomingEntry[] entries, boolean mayBulk) {
        // The writer may run a batch again after a failed commit: only the run that committed counts.
        AtomicReference<Run> committed = new AtomicReference<>();
        return writes.submitAwaited(txn -> {
                    Run run = new Run(txn, batch, entries, mayBulk);
                    run.apply();
                    committed.set(run);
                })
                .thenRun(() -> {
                    Run run = committed.get();
                    carried = List.copyOf(run.waiting);
                    long now = ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
                    metrics.committed(run.applied, run.live, now);
                });
    }

    /** One run of one batch in one transaction (the writer may run a batch again after a failed commit). */
    private final class Run {
        private final WriteTxn txn;
        private final List<ReplicaChange> changes;
        /** The upserts' entries, prepared: at the index of their change. */
        private final IncomingEntry[] prepared;

        private final DeleteStamps deleteStamps = new DeleteStamps(stamps);
        /** The batch's last cookie, what a delete without one of its own is logged by. */
        private final SyncCookie lastCookie;
        /** The state stored before the batch, merged with every cookie applied so far. */
        private CsnVector state;
        /** Entries and deletes applied. */
        private int applied;
        /** The CSNs of the live changes applied (see the class comment). */
        private final List<Csn> live = new ArrayList<>();
        /**
         * Entries whose parent had not arrived yet when they did, tried again later in the batch; those
         * of the batches before that are still waiting first ({@link #carried}).
         */
        private final List<Waiting> waiting;

        /** Whether the batch may join or begin a bulk load ({@link BulkRefresh}). */
        private final boolean mayBulk;
        /** Whether this transaction is part of a bulk load: it may only add entries new to the store. */
        private boolean bulkLoading;

        Run(WriteTxn txn, List<ReplicaChange> changes, IncomingEntry[] prepared, boolean mayBulk) {
            this.txn = txn;
            this.changes = changes;
            this.prepared = prepared;
            this.mayBulk = mayBulk;
            this.waiting = new ArrayList<>(carried);
            SyncCookie last = null;
            for (ReplicaChange change : changes) {
                if (change.cookie() != null) {
                    last = change.cookie();
                }
            }
            this.lastCookie = last;
            SyncCookie stored = cookieIn(txn);
            this.state = stored == null ? CsnVector.EMPTY : stored.csns();
        }

        void apply() {
            CsnVector before = state;
            if (mayBulk && bulk.underWay()) {
                bulkLoading = bulk.join(txn, rid, false);
                if (!bulkLoading) {
                    throw new LeavesBulk("another replica's batch"); // the load is another replica's
                }
            }
            for (int i = 0; i < changes.size(); i++) {
                ReplicaChange change = changes.get(i);
                if (change.cookie() != null) {
                    for (Csn csn : change.cookie().csns().csns()) {
                        skew.check(csn, "the cookie's");
                        stamps.observe(csn);
                    }
                    state = state.merge(change.cookie().csns());
                }
                applyOne(change, prepared[i]);
            }
            // A batch that stores a cookie applies every waiting entry first: the cookie must cover
            // them. One that stores none carries those whose parents have not arrived yet.
            boolean storesCookie = !state.equals(before);
            if (bulkLoading && storesCookie) {
                throw new LeavesBulk("a cookie, which must cover built indexes");
            }
            applyArrived();
            if (storesCookie || waiting.size() > MAX_CARRIED) {
                applyWaiting();
            }
            if (storesCookie) {
                txn.putReplicaCookie(rid, state.format());
                for (Csn csn : state.csns()) {
                    txn.raiseContextCsn(csn.toBytes());
                }
            }
        }

        /** @param in the change's entry, prepared; null unless it is an upsert */
        private void applyOne(ReplicaChange change, IncomingEntry in) {
            switch (change) {
                case ReplicaChange.RefreshStarted started -> {
                    txn.clearPresent(rid);
                    waiting.clear(); // the new search sends them again
                    if (mayBulk && !bulkLoading) {
                        // A refresh with no cookie stored into a store that holds nothing: load it in bulk.
                        bulkLoading = bulk.join(txn, rid, state.isEmpty());
                    }
                }
                case ReplicaChange.Upsert upsert -> {
                    skew.check(in.csn(), "the entryCSN of " + in.entry().getDn().getName() + ", with");
                    stamps.observe(in.csn());
                    if (bulkLoading && txn.isPresent(rid, in.uuid())) {
                        throw new LeavesBulk("an entry sent twice");
                    }
                    if (parentHere(in)) {
                        upsert(in, upsert.cookie());
                    } else {
                        waiting.add(new Waiting(in, upsert.cookie()));
                    }
                    txn.markPresent(rid, in.uuid());
                }
                case ReplicaChange.Deleted deleted when bulkLoading -> throw new LeavesBulk("a delete");
                case ReplicaChange.Present present when bulkLoading -> throw new LeavesBulk("a present list");
                case ReplicaChange.IdSet ids when bulkLoading -> throw new LeavesBulk("a list of UUIDs");
                case ReplicaChange.PhaseEnd end when bulkLoading -> throw new LeavesBulk("the end of a phase");
                case ReplicaChange.Deleted deleted -> {
                    delete(deleted.uuid(), deleted.cookie());
                    counted(newest(deleted.cookie()), deleted.cookie());
                }
                case ReplicaChange.Present present -> txn.markPresent(rid, checked(present.uuid()));
                case ReplicaChange.IdSet ids -> {
                    for (byte[] uuid : ids.uuids()) {
                        if (ids.deletes()) {
                            delete(uuid, ids.cookie());
                            applied++; // counted, but no lag: a syncIdSet carries no CSN per entry
                        } else {
                            txn.markPresent(rid, checked(uuid));
                        }
                    }
                }
                case ReplicaChange.PhaseEnd end -> {
                    applyWaiting();
                    if (end.presentPhase()) {
                        sweep.sweep(txn, rid, state, () -> deleteStamps.next(txn, deleteCookie(end.cookie())));
                    }
                    txn.clearPresent(rid);
                }
                case ReplicaChange.NewCookie cookie -> {}
            }
        }

        private void upsert(IncomingEntry in, SyncCookie cookie) {
            if (bulkLoading && directory.resolve(txn, in.entry().getDn()) != ReadTxn.NOT_FOUND) {
                throw new LeavesBulk("an entry whose DN is taken"); // a conflict: Upserts deletes or replaces
            }
            if (upserts.apply(txn, in)) {
                counted(in.csn(), cookie);
            }
        }

        /**
         * Whether the entry's parent is here (or the entry is the suffix). A provider may send a child
         * before its parent: slapd and Larch send a delta refresh in entry ID order, so an entry moved
         * under a parent created after it comes first. Such an entry waits for the rest of the batch.
         */
        private boolean parentHere(IncomingEntry in) {
            Dn dn = in.entry().getDn();
            return dn.equals(directory.suffix()) || directory.resolve(txn, dn.getParent()) != ReadTxn.NOT_FOUND;
        }

        /**
         * Applies the waiting entries whose parents have arrived, as long as any has; then the rest, whose
         * parents are not here when the phase ends or a cookie is stored, by {@link Upserts}'s rules (a
         * delete wins over an add below it).
         */
        private void applyWaiting() {
            applyArrived();
            for (Waiting w : waiting) {
                upsert(w.entry(), w.cookie());
            }
            waiting.clear();
        }

        /** Applies the waiting entries whose parents have arrived, as long as any has. */
        private void applyArrived() {
            boolean progress = true;
            while (progress && !waiting.isEmpty()) {
                progress = false;
                for (Iterator<Waiting> i = waiting.iterator(); i.hasNext(); ) {
                    Waiting w = i.next();
                    if (parentHere(w.entry())) {
                        i.remove();
                        upsert(w.entry(), w.cookie());
                        progress = true;
                    }
                }
            }
        }

        private void counted(Csn csn, SyncCookie cookie) {
            applied++;
            if (cookie != null && csn != null) {
                live.add(csn);
            }
        }

        private static Csn newest(SyncCookie cookie) {
            Csn newest = null;
            if (cookie != null) {
                for (Csn csn : cookie.csns().csns()) {
                    if (newest == null || csn.compareTo(newest) > 0) {
                        newest = csn;
                    }
                }
            }
            return newest;
        }

        private void delete(byte[] uuid, SyncCookie cookie) {
            checked(uuid);
            SyncCookie by = deleteCookie(cookie);
            long id = uuids.find(txn, uuid);
            if (id == ReadTxn.NOT_FOUND) {
                removals.deletedElsewhere(txn, uuid, deleteStamps.next(txn, by));
            } else {
                removals.deleteFromProvider(txn, id, state, () -> deleteStamps.next(txn, by));
            }
        }

        /** The cookie a delete is logged by ({@link DeleteStamps}): its own, the batch's, or the state so far. */
        private SyncCookie deleteCookie(SyncCookie own) {
            if (own != null) {
                return own;
            }
            if (lastCookie != null) {
                return lastCookie;
            }
            return state.isEmpty() ? null : new SyncCookie(rid, SyncCookie.NO_SID, state);
        }

        private byte[] checked(byte[] uuid) {
            if (uuid == null || uuid.length != 16) {
                throw new ResultCodeException(
                        ResultCodeEnum.PROTOCOL_ERROR,
                        "the provider sent a UUID of " + (uuid == null ? 0 : uuid.length) + " bytes, not 16");
            }
            return uuid;
        }
    }

    /**
     * A batch the bulk load under way cannot take (a bulk load only adds entries new to the store): it
     * is rolled back, the load ended and the batch applied again on the ordinary path.
     */
    private static final class LeavesBulk extends RuntimeException {
        LeavesBulk(String what) {
            super("the bulk load ends before " + what, null, false, false);
        }
    }

    /** An entry waiting for its parent, with the cookie it came with. */
    private record Waiting(IncomingEntry entry, SyncCookie cookie) {}
}
