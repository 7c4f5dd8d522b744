package dev.larch.server.replica;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;

import dev.larch.server.bulk.BulkSession;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.Directory;
import dev.larch.server.store.BulkLoad;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica's first refresh into an empty store, loaded as {@code ./larch import} loads one ({@link
 * BulkSession}): entries appended, their index records sorted aside and the indexes filled from them
 * once the refresh stops being a plain stream of new entries; memberOf computed in one pass after
 * that. Per entry this skips the random inserts into every index and the memberOf probes that made
 * a million-entry refresh several times slower than an import.
 *
 * <p>The load lasts while the provider sends entries this store does not hold yet. It ends, on the
 * writer thread between two transactions ({@link WriteQueue#runAlone}), before the first change it
 * cannot take: a batch that would store a cookie (so a cookie only ever covers built indexes), a
 * delete, a present list, an entry already here, another replica's batch. The batch is then applied
 * again on the ordinary path. While it lasts the store can answer no search, bind or write (its
 * indexes lack the entries): {@link LmdbStore#loadingInBulk()} turns those away with unavailable.
 * A process stopped midway leaves the store marked ({@link BulkLoad#markRefreshLoading}), and the
 * next open empties it: no cookie was stored, so the provider sends everything again.
 *
 * <p>Memory: index records up to {@code storage.import-sort-memory} (at most a quarter of the heap)
 * before they spill to run files in the data directory, plus one batch's records held until it
 * commits. 0 turns the bulk path off.
 *
 * <p>Thread-safety: {@link #join} and the load's end run on the writer thread only; the flag that
 * turns requests away is the store's (volatile).
 */
public final class BulkRefresh {
    private static final Logger LOG = LoggerFactory.getLogger(BulkRefresh.class);
    /** Entries per transaction of the memberOf pass, as an import's. */
    private static final int MEMBER_OF_BATCH = 1_000;

    private final Directory directory;
    private final LmdbStore store;
    private final WriteQueue writes;
    private final long memoryBound;
    /** The load under way; null when none is. Writer thread only. */
    private BulkSession session;
    /** The replica whose refresh the load is. */
    private int owner;

    /**
     * @param sortMemoryBytes {@code storage.import-sort-memory}: index records held in memory before
     *     they spill to disk, lowered to a quarter of the heap; 0 never loads in bulk
     */
    public BulkRefresh(Directory directory, WriteQueue writes, long sortMemoryBytes) {
        this.directory = directory;
        this.store = directory.store();
        this.writes = writes;
        this.memoryBound =
                Math.min(Math.max(0, sortMemoryBytes), Runtime.getRuntime().maxMemory() / 4);
    }

    /**
     * Makes {@code txn}, a batch of replica {@code rid} on the writer thread, part of the load: the one
     * under way for {@code rid}, or a new one when {@code begin} and the store as {@code txn} sees it
     * holds nothing. Every such transaction records again that the load is under way, so whichever of
     * them commits first leaves the mark.
     *
     * @param begin whether a new load may begin (the batch starts a refresh with no stored cookie)
     * @return whether {@code txn} is now part of the load; false for the ordinary path
     */
    boolean join(WriteTxn txn, int rid, boolean begin) {
        if (session == null) {
            if (!begin || memoryBound == 0) {
                return false;
            }
            session = BulkSession.startIn(txn, store, memoryBound);
            if (session == null) {
                return false;
            }
            owner = rid;
            store.loadingInBulk(true);
            LOG.info(
                    "replica {}: loading the first refresh into the empty store in bulk; searches, binds and"
                            + " writes are turned away until it is done",
                    rid);
        } else if (owner != rid) {
            return false;
        } else {
            BulkLoad.markIndexesUnbuilt(txn);
        }
        BulkLoad.markRefreshLoading(txn);
        session.enlistUntilCommit(txn);
        return true;
    }

    /** Whether a load is under way (writer thread). */
    boolean underWay() {
        return session != null;
    }

    /**
     * Ends the load under way, if any, on the writer thread once the batches before have committed:
     * the indexes filled, memberOf computed, the mark cleared. On failure the store is emptied
     * again (the refresh then starts over) and the returned stage fails.
     */
    CompletableFuture<Void> end() {
        return writes.runAlone(this::endNow);
    }

    private void endNow() {
        BulkSession ending = session;
        if (ending == null) {
            return;
        }
        long start = System.nanoTime();
        try {
            long records = ending.finish();
            long withMemberOf = directory.memberOfUpkeep().recomputeNamed(store, MEMBER_OF_BATCH);
            long entries;
            try (WriteTxn txn = store.write()) {
                entries = txn.entryCount();
                BulkLoad.clearRefreshLoading(txn);
                txn.commit();
            }
            LOG.info(
                    "replica {}: the bulk load of {} entries is done: {} index records sorted in ({} spills to"
                            + " disk), memberOf given to {} entries, in {} ms; serving",
                    owner,
                    entries,
                    records,
                    ending.spills(),
                    withMemberOf,
                    (System.nanoTime() - start) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            LOG.error(
                    "replica {}: the bulk load failed ({}); the store is emptied and the refresh starts over",
                    owner,
                    e.getMessage());
            abandon(ending, e);
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        } finally {
            close(ending);
        }
    }

    /** Stops a load without building it (the server is stopping): the next open empties the store. */
    public void close() {
        writes.runBetweenWrites(() -> close(session));
    }

    private void abandon(BulkSession ending, Exception failure) {
        try {
            ending.abandon();
            try (WriteTxn txn = store.write()) {
                BulkLoad.clearRefreshLoading(txn);
                txn.commit();
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private void close(BulkSession ending) {
        if (ending == null || ending != session) {
            return;
        }
        session = null;
        store.loadingInBulk(false);
        try {
            ending.close();
        } catch (IOException e) {
            LOG.warn("could not remove the bulk load's run files: {}", e.getMessage());
        }
    }
}
