package dev.larch.server.maintenance;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.Progress;
import dev.larch.server.bulk.SortedIndexRecords;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.group.MemberOfMaintainer;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An offline integrity check of a store: every entry decodes, is the suffix or names an existing
 * parent and stores exactly one RDN under it (entries store their RDN and parent ID, and the DN is
 * rebuilt up that chain, which must reach the suffix without a loop), and is reached through the
 * DN tree; the DN tree names only entries, each under its own parent; every index holds exactly the keys the entries give it;
 * every entry's stored {@code memberOf} values are the groups that hold it ({@link
 * MemberOfMaintainer#wanted}, one member-index lookup per entry, each group read once); every entry
 * has one entryUUID, held by no other, and one entryCSN ({@link StampCheck}); the change log is well
 * formed and agrees with the contextCSN and the entries ({@link ChangeLogCheck}).
 *
 * <p>Two passes. The entries are walked once, split between threads by ID ({@link EntryPass}), each
 * entry checked and the index records it should have collected and sorted in bounded memory
 * ({@link SortedIndexRecords}, spilling sorted runs to a temporary directory). Then each index is
 * walked once in key order against its expected records ({@link IndexComparison}), the indexes
 * shared between the threads, so a missing record, an extra one and one under the wrong ID are each
 * found in a sequential walk instead of a B-tree descent per expected record. On 1,010,007 entries
 * that took verify from 22 minutes to a few (docs/operations.md).
 *
 * <p>All threads read the same state of the store: each has its own read transaction, and they are
 * used only when they all began at the same snapshot (else the check runs on one thread), so a check
 * may run while a server writes.
 *
 * <p>Memory: the sort bound given (a quarter of the heap at most) plus the UUID tally ({@link
 * UuidTally}, 16 bytes an entry). Thread-safe: each call works in its own transactions.
 */
public final class StoreVerifier {
    private static final Logger LOG = LoggerFactory.getLogger(StoreVerifier.class);

    /** The sort memory when none is configured: the import's default. */
    public static final long DEFAULT_SORT_MEMORY = 512L << 20;

    /** How often the progress line is brought up to date while the threads work. */
    private static final long PROGRESS_POLL_MILLIS = 200;
    /** Tries at beginning the threads' transactions in one snapshot before using one thread. */
    private static final int SNAPSHOT_TRIES = 5;

    private final Directory directory;
    private final PrintStream progress;
    private final MemberOfMaintainer memberOf;
    private final long sortMemory;
    private final int threads;
    private final Path tempParent;

    /** A verifier with the default sort memory, one thread per processor, run files in the JVM's temporary directory. */
    public StoreVerifier(Directory directory, PrintStream progress) {
        this(directory, progress, DEFAULT_SORT_MEMORY, Runtime.getRuntime().availableProcessors());
    }

    /**
     * @param progress where progress lines go on long checks, or null for none
     * @param sortMemoryBytes the most the expected index records take in memory before they are
     *     spilled to sorted run files ({@code storage.import-sort-memory}; 0 for the default),
     *     lowered to a quarter of the heap
     * @param threads how many threads walk the entries and the indexes (at least one)
     */
    public StoreVerifier(Directory directory, PrintStream progress, long sortMemoryBytes, int threads) {
        this.directory = directory;
        this.progress = progress;
        this.memberOf = new MemberOfMaintainer(
                directory,
                new GroupGraph(
                        directory,
                        new FilterCompiler(directory.schemaNormalizer().schema()),
                        new SearchPlanner(directory.store(), 0)));
        long bound = sortMemoryBytes > 0 ? sortMemoryBytes : DEFAULT_SORT_MEMORY;
        this.sortMemory =
                Math.max(1L << 20, Math.min(bound, Runtime.getRuntime().maxMemory() / 4));
        this.threads = Math.max(1, threads);
        this.tempParent = Path.of(System.getProperty("java.io.tmpdir"));
    }

    public VerifyReport verify() {
        LmdbStore store = directory.store();
        List<ReadTxn> txns = openInOneSnapshot(store);
        List<SortedIndexRecords> expected = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(txns.size(), new VerifierThreads());
        try {
            ReadTxn txn = txns.get(0);
            List<IndexRef> indexes = List.copyOf(store.indexes().refs());
            for (int i = 0; i < txns.size(); i++) {
                expected.add(
                        new SortedIndexRecords(indexes.size(), sortMemory / txns.size(), tempParent, "verify-runs-"));
            }
            VerifyReport report = new VerifyReport();
            StampCheck stamps = walkEntries(pool, txns, indexes, expected, report);
            stamps.sharedUuids(txn, directory, report);
            new ChangeLogCheck(directory).check(txn, report);
            long dnRecords = txn.dnRecordCount();
            if (dnRecords != report.entries()) {
                report.problem("the DN tree holds " + dnRecords + " records for " + report.entries() + " entries");
                findStrayDnRecords(txn, report);
            }
            compareIndexes(pool, txns, indexes, expected, report);
            return report;
        } finally {
            pool.shutdownNow();
            for (SortedIndexRecords records : expected) {
                try {
                    records.close();
                } catch (IOException e) {
                    LOG.warn("cannot remove the verifier's run files: {}", e.getMessage());
                }
            }
            txns.forEach(ReadTxn::close);
        }
    }

    /** Runs the entry pass on every thread; returns their stamp tallies added into one. */
    private StampCheck walkEntries(
            ExecutorService pool,
            List<ReadTxn> txns,
            List<IndexRef> indexes,
            List<SortedIndexRecords> expected,
            VerifyReport report) {
        AtomicLong done = new AtomicLong();
        List<EntryPass> passes = new ArrayList<>();
        List<Future<?>> running = new ArrayList<>();
        for (int share = 0; share < txns.size(); share++) {
            EntryPass pass = new EntryPass(
                    directory, memberOf, txns.get(share), share, txns.size(), indexes, expected.get(share), done);
            passes.add(pass);
            running.add(pool.submit(pass));
        }
        Progress steps = Progress.to(progress, "verified entries", txns.get(0).entryCount());
        awaitAll(running, () -> steps.advanceTo(done.get()));
        steps.advanceTo(done.get());
        steps.finish();
        StampCheck stamps = new StampCheck();
        for (EntryPass pass : passes) {
            report.addAll(pass.report());
            stamps.addAll(pass.stamps());
        }
        return stamps;
    }

    /** Compares every index with its expected records, the largest first, each thread taking the next. */
    private void compareIndexes(
            ExecutorService pool,
            List<ReadTxn> txns,
            List<IndexRef> indexes,
            List<SortedIndexRecords> expected,
            VerifyReport report) {
        ReadTxn first = txns.get(0);
        List<Integer> order = new ArrayList<>();
        long[] sizes = new long[indexes.size()];
        long total = 0;
        for (int slot = 0; slot < indexes.size(); slot++) {
            order.add(slot);
            sizes[slot] = first.indexRecordCount(
                    indexes.get(slot).attributeOid(), indexes.get(slot).kind());
            total += sizes[slot];
        }
        order.sort((a, b) -> Long.compare(sizes[b], sizes[a]));
        AtomicInteger next = new AtomicInteger();
        AtomicLong done = new AtomicLong();
        List<VerifyReport> parts = new ArrayList<>();
        List<Future<?>> running = new ArrayList<>();
        for (ReadTxn txn : txns) {
            VerifyReport part = new VerifyReport();
            parts.add(part);
            running.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < order.size(); i = next.getAndIncrement()) {
                    int slot = order.get(i);
                    try {
                        part.indexRecordsChecked(
                                IndexComparison.compare(directory, txn, indexes.get(slot), slot, expected, part, done));
                    } catch (IOException e) {
                        throw new UncheckedIOException(
                                "cannot read a sorted run of index records: " + e.getMessage(), e);
                    }
                }
            }));
        }
        Progress steps = Progress.to(progress, "verified index records", total);
        awaitAll(running, () -> steps.advanceTo(done.get()));
        steps.advanceTo(done.get());
        steps.finish();
        parts.forEach(report::addAll);
    }

    /** Waits for every task, running {@code tick} between looks; rethrows the first failure. */
    private static void awaitAll(List<Future<?>> running, Runnable tick) {
        for (Future<?> task : running) {
            while (true) {
                try {
                    task.get(PROGRESS_POLL_MILLIS, TimeUnit.MILLISECONDS);
                    break;
                } catch (TimeoutException e) {
                    tick.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while verifying", e);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        }
    }

    /**
     * One read transaction per thread, all of one snapshot: begun one after another, they differ only
     * when a write committed in between, and are then begun again; after a few tries, one alone.
     */
    private List<ReadTxn> openInOneSnapshot(LmdbStore store) {
        ReadTxn first = store.read();
        List<ReadTxn> txns = new ArrayList<>(List.of(first));
        try {
            for (int attempt = 0; attempt < SNAPSHOT_TRIES && txns.size() < threads; attempt++) {
                while (txns.size() < threads) {
                    ReadTxn another = store.read();
                    txns.add(another);
                    if (another.snapshotId() != first.snapshotId()) {
                        txns.subList(1, txns.size()).forEach(ReadTxn::close);
                        txns.subList(1, txns.size()).clear();
                        break;
                    }
                }
            }
        } catch (RuntimeException e) {
            txns.forEach(ReadTxn::close);
            throw e;
        }
        return txns;
    }

    /** The DN tree's records whose entry is missing or has another parent. */
    private static void findStrayDnRecords(ReadTxn txn, VerifyReport report) {
        txn.forEachDnRecord((key, id) -> {
            long parentId = ByteBuffer.wrap(key).getLong();
            ByteBuffer entry = txn.entry(id);
            if (entry == null) {
                report.problem(
                        "a DN tree record under parent " + parentId + " names entry " + id + ", which does not exist");
            } else if (EntryCodec.parentId(entry) != parentId) {
                report.problem("a DN tree record under parent " + parentId + " names entry " + id + ", whose parent is "
                        + EntryCodec.parentId(entry));
            }
        });
    }

    /** Names the verifier's threads, daemons so that a failed check never holds the JVM up. */
    private static final class VerifierThreads implements ThreadFactory {
        private final AtomicInteger made = new AtomicInteger();

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "larch-verify-" + made.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }
}
