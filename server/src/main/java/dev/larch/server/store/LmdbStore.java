package dev.larch.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.larch.config.IndexKind;
import org.lmdbjava.ByteBufferProxy;
import org.lmdbjava.CopyFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.EnvInfo;
import org.lmdbjava.LmdbException;
import org.lmdbjava.LmdbNativeException;
import org.lmdbjava.Txn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The LMDB environment holding one directory tree: it opens and closes the environment, hands out
 * transactions ({@link ReadTxn}, {@link WriteTxn}) and owns the trees, each a class with its key
 * format beside it. lmdbjava types do not leave this package.
 *
 * <p>Trees ({@link Tree}, one LMDB database each):
 * <ul>
 *   <li>{@link EntryTree} {@code entries}: ID → serialized entry.
 *   <li>{@link DnTree} {@code dn}: parent ID + normalized RDN → ID; also the one-level index.
 *   <li>{@link AttributeIndex} {@code <kind>:<attribute OID>}, one per configured index, listed by
 *       the {@link IndexCatalog}: index key ({@link IndexKeys}) → IDs as sorted duplicates.
 *   <li>{@link AttributeNumbers} {@code attrs}: attribute OID → the small number entries use for it.
 *   <li>{@link MetaTree} {@code meta}: the store's format version ({@link StoreFormat}) and which
 *       indexes are complete, so an index added to the config is built before use.
 * </ul>
 *
 * <p>Opened {@linkplain #openReadOnly read-only} (export, backup, verify, restore's checks), the
 * store changes nothing: no index is built or dropped, no attribute number assigned, no
 * transaction but reads; it may share the environment with a running server.
 *
 * <p>Thread-safety: safe for concurrent readers; write transactions are serialized by LMDB itself.
 * The environment uses {@code MDB_NOTLS}, so a read transaction may be resumed on another thread
 * (a paused search) as long as only one thread uses it at a time.
 *
 * <p>Closing waits, within a bound, for every open transaction to end and never closes the
 * environment under a live one (that would crash the JVM); see {@link #close(Duration)}.
 */
public final class LmdbStore implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LmdbStore.class);
    private static final Duration DEFAULT_CLOSE_WAIT = Duration.ofSeconds(10);
    /** errno ENOSPC on Linux and macOS: LMDB passes the failed write's errno through. */
    private static final int ENOSPC = 28;
    /**
     * errno EIO: what LMDB reports when a page write was only partly done, which is how a disk that
     * fills in the middle of a commit shows (liblmdb mdb_page_flush).
     */
    private static final int EIO = 5;
    /** Free space below which an EIO on write is taken for a full disk rather than a failing one. */
    private static final long NEARLY_FULL_BYTES = 1L << 20;

    private final Path directory;
    private final Env<ByteBuffer> env;
    private final EntryTree entries;
    private final DnTree dn;
    private final MetaTree meta;
    private final SnapshotRenames snapshotRenames = new SnapshotRenames();
    private final ChangeLogTree changeLog;
    /** Null in a read-only store: only a replication consumer, which writes, uses it. */
    private final PresentTree present;
    /** Null in a read-only store, as {@link #present}. */
    private final TombstoneTree tombstones;

    private final AttributeNumbers attributeNumbers;
    private final IndexCatalog indexes;

    private final AtomicLong nextId;
    private final TxnGate gate = new TxnGate();
    private final ReadTxnPool reads;
    private final CursorShelf cursors;
    private final boolean readOnly;
    private volatile boolean loadingInBulk;

    /**
     * @param configuredIndexes null to open, read-only, the indexes the store holds built
     * @param dnValued the configured attributes of a DN syntax ({@link DnKeys#reverses}), whose
     *     equality indexes an upgrade from format {@value StoreFormat#UPGRADABLE} builds again
     */
    private LmdbStore(
            Path directory, Env<ByteBuffer> env, Map<String, Set<IndexKind>> configuredIndexes, Set<String> dnValued) {
        this.directory = directory;
        this.env = env;
        // An idle kept read holds a reader slot: an eighth of them at most, for the threads that read most.
        this.reads = new ReadTxnPool(env, Math.min(64, env.info().maxReaders / 8));
        // The threads that keep a read keep its cursors: a few native handles each, no reader slot.
        this.cursors = new CursorShelf(Math.min(64, env.info().maxReaders / 8));
        this.readOnly = configuredIndexes == null;
        Function<LmdbException, RuntimeException> writeFailure = this::translateWriteFailure;
        this.entries = EntryTree.open(env, !readOnly, writeFailure);
        this.dn = DnTree.open(env, !readOnly, writeFailure);
        this.meta = MetaTree.open(env, !readOnly, writeFailure);
        this.attributeNumbers = AttributeNumbers.open(env, readOnly, writeFailure);
        boolean upgrade = StoreFormat.check(directory, readFormat(), lastEntryId() == 0L, !readOnly);
        // After the check: a store of an older format has no change log to open read-only.
        this.changeLog = ChangeLogTree.open(env, !readOnly, writeFailure);
        // Created in a format 4 store that lacks them; never needed by a read-only reader.
        this.present = readOnly ? null : PresentTree.open(env, true, writeFailure);
        this.tombstones = readOnly ? null : TombstoneTree.open(env, true, writeFailure);
        if (readOnly) {
            this.indexes = IndexCatalog.openBuilt(env, meta, writeFailure);
        } else {
            stampFormat(upgrade ? dnValued : Set.of());
            this.indexes = IndexCatalog.open(env, meta, configuredIndexes, writeFailure);
        }
        this.nextId = new AtomicLong(Math.max(lastEntryId() + 1, idFloor()));
        clearStaleReaders();
    }

    /**
     * Opens (creating if needed) the store in {@code directory}.
     *
     * @param configuredIndexes attribute OID → index kinds; indexes in the file but not here are dropped
     * @throws StoreException when the directory cannot be used, naming the reason
     */
    public static LmdbStore open(Path directory, StoreOptions options, Map<String, Set<IndexKind>> configuredIndexes) {
        return open(directory, options, configuredIndexes, Set.of());
    }

    /**
     * As {@link #open(Path, StoreOptions, Map)}, upgrading a store of format {@value
     * StoreFormat#UPGRADABLE}: the equality indexes of {@code dnValued} (attribute OIDs of a DN syntax)
     * are emptied and left {@linkplain IndexCatalog#unbuilt() unbuilt}, to be built again.
     */
    public static LmdbStore open(
            Path directory, StoreOptions options, Map<String, Set<IndexKind>> configuredIndexes, Set<String> dnValued) {
        try {
            OwnerOnlyFiles.createDirectory(directory);
        } catch (IOException e) {
            throw new StoreException("cannot create data directory " + directory + ": " + e.getMessage(), e);
        }
        List<EnvFlags> flags = new ArrayList<>(List.of(EnvFlags.MDB_NOTLS, EnvFlags.MDB_NORDAHEAD));
        if (!options.durableWrites()) {
            flags.add(EnvFlags.MDB_NOSYNC);
        }
        int maxDbs = 8 + 4 * Math.max(configuredIndexes.size(), 16);
        try {
            Env<ByteBuffer> env = Env.create(ByteBufferProxy.PROXY_OPTIMAL)
                    .setMapSize(options.mapSizeBytes())
                    .setMaxReaders(options.maxReaders())
                    .setMaxDbs(maxDbs)
                    .open(directory.toFile(), OwnerOnlyFiles.FILE_MODE, flags.toArray(EnvFlags[]::new));
            tighten(directory);
            return new LmdbStore(directory, env, configuredIndexes, dnValued);
        } catch (LmdbException e) {
            throw new StoreException("cannot open store in " + directory + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens the store in {@code directory} for reading only, with the indexes it holds built; it may
     * be in use by a running server at the same time.
     *
     * @param noLock true for a copy no other process uses (a backup being checked): LMDB then
     *     writes no lock file beside it
     * @throws StoreException when there is no Larch store there, or one of another format
     */
    public static LmdbStore openReadOnly(Path directory, StoreOptions options, boolean noLock) {
        if (!Files.isRegularFile(directory.resolve("data.mdb"))) {
            throw new StoreException("no Larch store in " + directory + " (no data.mdb)");
        }
        List<EnvFlags> flags =
                new ArrayList<>(List.of(EnvFlags.MDB_RDONLY_ENV, EnvFlags.MDB_NOTLS, EnvFlags.MDB_NORDAHEAD));
        if (noLock) {
            flags.add(EnvFlags.MDB_NOLOCK);
        }
        try {
            Env<ByteBuffer> env = Env.create(ByteBufferProxy.PROXY_OPTIMAL)
                    .setMapSize(options.mapSizeBytes())
                    .setMaxReaders(options.maxReaders())
                    .setMaxDbs(1024)
                    .open(directory.toFile(), flags.toArray(EnvFlags[]::new));
            try {
                return new LmdbStore(directory, env, null, Set.of());
            } catch (RuntimeException e) {
                env.close();
                throw e;
            }
        } catch (LmdbException e) {
            throw new StoreException("cannot read a Larch store in " + directory + ": " + e.getMessage(), e);
        }
    }

    /** A store made before modes were kept owner-only, or loosened by hand, is tightened at each open. */
    private static void tighten(Path directory) {
        try {
            OwnerOnlyFiles.tighten(directory);
        } catch (IOException e) {
            LOG.warn("cannot make {} owner-only: {}", directory, e.toString());
        }
    }

    private Integer readFormat() {
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            return meta.format(txn);
        }
    }

    /**
     * Records this build's format; with {@code rekeyed} (an upgrade), in the same transaction, empties
     * the equality indexes of those attributes and forgets they were built, so they are built again
     * in the new key form before anything reads them, and a crash before that leaves them unbuilt.
     */
    private void stampFormat(Set<String> rekeyed) {
        // Listed before the write transaction: getDbiNames begins a transaction of its own, which
        // waits on the write one in this thread for ever.
        Set<String> trees = new HashSet<>();
        if (!rekeyed.isEmpty()) {
            for (byte[] rawName : env.getDbiNames()) {
                trees.add(new String(rawName, UTF_8));
            }
        }
        try (Txn<ByteBuffer> txn = env.txnWrite()) {
            for (String oid : rekeyed) {
                String tree = new IndexRef(oid, IndexKind.EQUALITY).treeName();
                if (trees.contains(tree)) {
                    Tree.drop(env, txn, tree.getBytes(UTF_8));
                    meta.clearBuilt(txn, tree);
                    LOG.info(
                            "format {} to {}: the equality index on {} is built again with DN keys",
                            StoreFormat.UPGRADABLE,
                            StoreFormat.VERSION,
                            oid);
                }
            }
            meta.putFormat(txn, StoreFormat.VERSION);
            txn.commit();
        }
    }

    /** Whether the store still begins transactions: false once {@link #close} began. */
    public boolean isOpen() {
        return gate.isOpen() && !env.isClosed();
    }

    /**
     * Why a request is refused while {@link #loadingInBulk()}: the answer clients get, with
     * unavailable (52).
     */
    public static final String LOADING_IN_BULK = "this server is loading its first copy of the directory from its"
            + " replication provider, and builds its indexes once every entry is in; try again when it is done";

    /**
     * Whether a replica's first refresh is loading this store in bulk right now: entries are going in
     * while their index records wait to be sorted into the indexes, so no search, bind or write may
     * use the store until it is done (see {@code dev.larch.server.replica.BulkRefresh}).
     */
    public boolean loadingInBulk() {
        return loadingInBulk;
    }

    /** Set by the bulk refresh as it begins and ends. */
    public void loadingInBulk(boolean loading) {
        this.loadingInBulk = loading;
    }

    /** Whether the store was opened with {@link #openReadOnly}. */
    public boolean isReadOnly() {
        return readOnly;
    }

    /** The attribute indexes this store keeps, and which of them are built. */
    public IndexCatalog indexes() {
        return indexes;
    }

    /** The numbers serialized entries use for attribute types. */
    public AttributeNumbers attributeNumbers() {
        return attributeNumbers;
    }

    /**
     * Writes a compacted copy of the store, as of one read transaction, into {@code target}, an
     * existing empty directory; writers go on meanwhile (LMDB's copy with compaction).
     */
    public void copyCompacted(Path target) {
        gate.enter();
        try {
            env.copy(target.toFile(), CopyFlags.MDB_CP_COMPACT);
        } catch (LmdbException e) {
            throw new StoreException("cannot copy the store to " + target + ": " + e.getMessage(), e);
        } finally {
            gate.leave();
        }
    }

    /**
     * Bytes the store's pages take as its last transaction left them: a data file shorter than this
     * is truncated, and reading it would fault.
     */
    public long usedBytes() {
        return (env.info().lastPageNumber + 1) * (long) env.stat().pageSize;
    }

    /** One above the highest entry ID ever deleted ({@link MetaTree#idFloor}); 0 when none was. */
    private long idFloor() {
        try (ReadTxn txn = read()) {
            return meta.idFloor(txn);
        }
    }

    private long lastEntryId() {
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            return entries.lastId(txn);
        }
    }

    /**
     * The environment's numbers as of now (LMDB's {@code mdb_env_info}, {@code mdb_env_stat} and each
     * database's record count, read in one short read transaction).
     *
     * @throws StoreClosedException once {@link #close} began
     */
    public StoreStatistics statistics() {
        gate.enter();
        try {
            EnvInfo info = env.info();
            long pageSize = env.stat().pageSize;
            Map<String, Long> records = new HashMap<>();
            try (Txn<ByteBuffer> txn = env.txnRead()) {
                records.put(EntryTree.NAME, entries.tree().records(txn));
                records.put(DnTree.NAME, dn.tree().records(txn));
                records.put(AttributeNumbers.NAME, attributeNumbers.records(txn));
                records.put(MetaTree.NAME, meta.records(txn));
                records.put(ChangeLogTree.NAME, changeLog.tree().records(txn));
                if (present != null) {
                    records.put(PresentTree.NAME, present.tree().records(txn));
                    records.put(TombstoneTree.NAME, tombstones.tree().records(txn));
                }
                indexes.forEachTree((name, tree) -> records.put(name, tree.records(txn)));
            }
            return new StoreStatistics(
                    info.mapSize,
                    pageSize,
                    info.lastPageNumber + 1,
                    info.lastTransactionId,
                    info.numReaders,
                    info.maxReaders,
                    records);
        } finally {
            gate.leave();
        }
    }

    /**
     * Begins a read transaction; close it promptly, since an open reader pins old pages.
     *
     * @throws StoreClosedException once {@link #close} began
     * @throws ReadersFullException when every reader slot is taken
     */
    public ReadTxn read() {
        gate.enter();
        try {
            return new ReadTxn(this, reads.begin());
        } catch (Env.ReadersFullException e) {
            gate.leave();
            throw new ReadersFullException(e);
        } catch (RuntimeException e) {
            gate.leave();
            throw e;
        }
    }

    /**
     * Begins the write transaction; LMDB blocks other writers until it commits or aborts.
     *
     * @throws StoreClosedException once {@link #close} began
     */
    public WriteTxn write() {
        if (readOnly) {
            throw new StoreException("the store in " + directory + " is open read-only");
        }
        gate.enter();
        try {
            return new WriteTxn(this, env.txnWrite());
        } catch (RuntimeException e) {
            gate.leave();
            throw e;
        }
    }

    /**
     * Begins a write transaction nested in {@code parent} (see {@link WriteTxn#nested()}); it counts
     * as an open transaction until closed, as any other.
     *
     * @throws StoreClosedException once {@link #close} began
     */
    WriteTxn writeNested(WriteTxn parent) {
        gate.enter();
        try {
            return new WriteTxn(this, env.txn(parent.txn), parent);
        } catch (RuntimeException e) {
            gate.leave();
            throw e;
        }
    }

    /** The cursors threads keep for their reads' index lookups. */
    CursorShelf cursors() {
        return cursors;
    }

    /** Ends the LMDB transaction of a {@link #read()}, before {@link #transactionClosed()}. */
    void readEnded(Txn<ByteBuffer> txn) {
        reads.end(txn);
    }

    /** Called exactly once by each transaction {@link #read()}, {@link #write()} or {@link #writeNested} handed out. */
    void transactionClosed() {
        gate.leave();
    }

    /**
     * The exception a caller should see for an LMDB failure during a write: a {@link
     * StoreFullException} when the map or the disk is full, a {@link ChangeTooLargeException} when the
     * transaction outgrew LMDB's dirty-page limit, {@code failure} itself otherwise.
     */
    RuntimeException translateWriteFailure(LmdbException failure) {
        if (failure instanceof Env.MapFullException) {
            return StoreFullException.mapFull(env.info().mapSize, failure);
        }
        if (failure instanceof LmdbNativeException n
                && (n.getResultCode() == ENOSPC || (n.getResultCode() == EIO && diskNearlyFull()))) {
            return StoreFullException.diskFull(directory, failure);
        }
        if (failure instanceof Txn.TxFullException) {
            return new ChangeTooLargeException(failure);
        }
        return failure;
    }

    private boolean diskNearlyFull() {
        try {
            return Files.getFileStore(directory).getUsableSpace() < NEARLY_FULL_BYTES;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Frees the reader slots of processes that died holding a read transaction (LMDB cannot tell
     * otherwise, and a full reader table refuses every search). Safe to call at any time.
     *
     * @return how many slots were freed; 0 once the store is closing
     */
    public int clearStaleReaders() {
        try {
            gate.enter();
        } catch (StoreClosedException e) {
            return 0;
        }
        try {
            int cleared = env.readerCheck();
            if (cleared > 0) {
                LOG.info("cleared {} stale LMDB reader slot(s) left by dead processes", cleared);
            }
            return cleared;
        } finally {
            gate.leave();
        }
    }

    long allocateId() {
        return nextId.getAndIncrement();
    }

    /** Forces buffered data to disk (used after a bulk import run without per-commit syncs). */
    public void sync() {
        gate.enter();
        try {
            env.sync(true);
        } finally {
            gate.leave();
        }
    }

    public Path directory() {
        return directory;
    }

    EntryTree entries() {
        return entries;
    }

    DnTree dn() {
        return dn;
    }

    ChangeLogTree changeLog() {
        return changeLog;
    }

    MetaTree meta() {
        return meta;
    }

    SnapshotRenames snapshotRenames() {
        return snapshotRenames;
    }

    PresentTree present() {
        return requireWritable(present);
    }

    TombstoneTree tombstones() {
        return requireWritable(tombstones);
    }

    private <T> T requireWritable(T tree) {
        if (tree == null) {
            throw new StoreException("the store in " + directory + " is open read-only");
        }
        return tree;
    }

    /** Bytes of the data file on disk (not the map size). */
    public long sizeOnDisk() {
        try {
            return Files.size(directory.resolve("data.mdb"));
        } catch (IOException e) {
            return -1;
        }
    }

    /** {@link #close(Duration)} with a ten-second bound. */
    @Override
    public void close() {
        close(DEFAULT_CLOSE_WAIT);
    }

    /**
     * Refuses new transactions, waits up to {@code bound} for the open ones to end, then closes the
     * environment. When the bound passes with a transaction still open, it logs one line and leaves
     * the environment open for the process exit to release: committed data is safe either way, and
     * closing under a live transaction would crash the JVM. Idempotent.
     *
     * @return whether the environment is closed
     */
    public synchronized boolean close(Duration bound) {
        if (env.isClosed()) {
            return true;
        }
        if (!gate.close(bound)) {
            LOG.warn(
                    "{} store transaction(s) still open after {} ms; leaving the store for the process exit to close",
                    gate.open(),
                    bound.toMillis());
            return false;
        }
        cursors.closeAll();
        reads.closeAll();
        env.close();
        return true;
    }
}
