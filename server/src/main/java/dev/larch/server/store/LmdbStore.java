package dev.larch.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.larch.config.IndexKind;
import org.lmdbjava.ByteBufferProxy;
import org.lmdbjava.CopyFlags;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.EnvInfo;
import org.lmdbjava.LmdbException;
import org.lmdbjava.LmdbNativeException;
import org.lmdbjava.SeekOp;
import org.lmdbjava.Txn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The LMDB environment holding one directory tree: entries by ID, the DN index and the attribute
 * indexes. lmdbjava types do not leave this package; callers work through {@link ReadTxn} and
 * {@link WriteTxn}.
 *
 * <p>Databases:
 * <ul>
 *   <li>{@code entries}: 8-byte ID → serialized entry ({@code dev.larch.server.entry.EntryCodec}).
 *   <li>{@code dn}: parent ID + normalized RDN → ID. A prefix scan on a parent ID lists its
 *       children, so this is also the one-level index.
 *   <li>{@code <kind>:<attribute OID>}: index key → IDs as sorted 8-byte duplicates.
 *   <li>{@code attrs}: attribute OID → the small number entries use for it.
 *   <li>{@code meta}: the store's format version ({@link StoreFormat}) and which indexes are
 *       complete, so an index added to the config is built before use.
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

    private static final String ENTRIES = "entries";
    private static final String DN = "dn";
    private static final String META = "meta";
    private static final String ATTRIBUTE_IDS = "attrs";

    private final Path directory;
    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> entries;
    private final Dbi<ByteBuffer> dn;
    private final Dbi<ByteBuffer> meta;
    private final Dbi<ByteBuffer> attributeIds;
    private final Map<String, Dbi<ByteBuffer>> indexes = new HashMap<>();
    private final Map<String, EnumSet<IndexKind>> indexKinds = new HashMap<>();
    /** Index reads by the planner's lookups, by database name: monitoring, never persisted. */
    private final Map<String, LongAdder> indexReads = new ConcurrentHashMap<>();

    private final List<IndexRef> unbuiltIndexes = new ArrayList<>();
    private final AtomicLong nextId;
    private final TxnGate gate = new TxnGate();
    private final boolean readOnly;

    /** One configured attribute index. */
    public record IndexRef(String attributeOid, IndexKind kind) {
        String dbName() {
            return tag(kind) + ":" + attributeOid;
        }
    }

    /** @param configuredIndexes null to open, read-only, the indexes the store holds built */
    private LmdbStore(Path directory, Env<ByteBuffer> env, Map<String, Set<IndexKind>> configuredIndexes) {
        this.directory = directory;
        this.env = env;
        this.readOnly = configuredIndexes == null;
        DbiFlags[] create = readOnly ? new DbiFlags[0] : new DbiFlags[] {DbiFlags.MDB_CREATE};
        this.entries = env.openDbi(ENTRIES, create);
        this.dn = env.openDbi(DN, create);
        this.meta = env.openDbi(META, create);
        this.attributeIds = env.openDbi(ATTRIBUTE_IDS, create);
        StoreFormat.check(directory, readFormat(), lastEntryId() == 0L);
        if (readOnly) {
            openBuiltIndexes();
        } else {
            stampFormat();
            openIndexes(configuredIndexes);
        }
        this.nextId = new AtomicLong(lastEntryId() + 1);
        clearStaleReaders();
    }

    /**
     * Opens (creating if needed) the store in {@code directory}.
     *
     * @param configuredIndexes attribute OID → index kinds; indexes in the file but not here are dropped
     * @throws StoreException when the directory cannot be used, naming the reason
     */
    public static LmdbStore open(Path directory, StoreOptions options, Map<String, Set<IndexKind>> configuredIndexes) {
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
            return new LmdbStore(directory, env, configuredIndexes);
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
                return new LmdbStore(directory, env, null);
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

    private void openIndexes(Map<String, Set<IndexKind>> configured) {
        Set<String> wanted = new HashSet<>();
        for (Map.Entry<String, Set<IndexKind>> e : configured.entrySet()) {
            for (IndexKind kind : e.getValue()) {
                IndexRef ref = new IndexRef(e.getKey(), kind);
                wanted.add(ref.dbName());
                Dbi<ByteBuffer> dbi =
                        env.openDbi(ref.dbName(), DbiFlags.MDB_CREATE, DbiFlags.MDB_DUPSORT, DbiFlags.MDB_DUPFIXED);
                indexes.put(ref.dbName(), dbi);
                indexKinds
                        .computeIfAbsent(e.getKey(), k -> EnumSet.noneOf(IndexKind.class))
                        .add(kind);
                if (!isMarkedBuilt(ref)) {
                    unbuiltIndexes.add(ref);
                }
            }
        }
        dropIndexesNoLongerConfigured(wanted);
    }

    /** Read-only: every index database the store marks built, whatever the config says. */
    private void openBuiltIndexes() {
        for (byte[] rawName : env.getDbiNames()) {
            String name = new String(rawName, UTF_8);
            int colon = name.indexOf(':');
            IndexKind kind = colon < 0 ? null : kindOf(name.substring(0, colon));
            if (kind == null) {
                continue;
            }
            IndexRef ref = new IndexRef(name.substring(colon + 1), kind);
            if (isMarkedBuilt(ref)) {
                indexes.put(name, env.openDbi(name));
                indexKinds
                        .computeIfAbsent(ref.attributeOid(), k -> EnumSet.noneOf(IndexKind.class))
                        .add(kind);
            }
        }
    }

    private Integer readFormat() {
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            ByteBuffer value = meta.get(txn, Keys.direct(StoreFormat.META_KEY.getBytes(UTF_8)));
            return value == null ? null : value.getInt(value.position());
        }
    }

    private void stampFormat() {
        try (Txn<ByteBuffer> txn = env.txnWrite()) {
            ByteBuffer value = ByteBuffer.allocateDirect(4);
            value.putInt(0, StoreFormat.VERSION);
            meta.put(txn, Keys.direct(StoreFormat.META_KEY.getBytes(UTF_8)), value);
            txn.commit();
        }
    }

    /** Whether the store still begins transactions: false once {@link #close} began. */
    public boolean isOpen() {
        return gate.isOpen() && !env.isClosed();
    }

    /** Whether the store was opened with {@link #openReadOnly}. */
    public boolean isReadOnly() {
        return readOnly;
    }

    /** The indexes this store keeps, configured and built or not. */
    public List<IndexRef> indexRefs() {
        List<IndexRef> refs = new ArrayList<>();
        indexKinds.forEach((oid, kinds) -> kinds.forEach(kind -> refs.add(new IndexRef(oid, kind))));
        return refs;
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

    /** An index that is no longer configured would go stale; drop it so a later re-add rebuilds it. */
    private void dropIndexesNoLongerConfigured(Set<String> wanted) {
        for (byte[] rawName : env.getDbiNames()) {
            String name = new String(rawName, UTF_8);
            if (name.indexOf(':') < 0 || wanted.contains(name)) {
                continue;
            }
            // Opened in the dropping transaction: Env.openDbi(name) begins a write transaction of its
            // own, which would wait forever for this one (LMDB has one writer).
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                Dbi<ByteBuffer> stale =
                        env.openDbi(txn, rawName, null, false, DbiFlags.MDB_DUPSORT, DbiFlags.MDB_DUPFIXED);
                stale.drop(txn, true);
                meta.delete(txn, Keys.direct(("built:" + name).getBytes(UTF_8)));
                txn.commit();
            }
        }
    }

    private boolean isMarkedBuilt(IndexRef ref) {
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            return meta.get(txn, Keys.direct(("built:" + ref.dbName()).getBytes(UTF_8))) != null;
        }
    }

    private long lastEntryId() {
        try (Txn<ByteBuffer> txn = env.txnRead();
                Cursor<ByteBuffer> c = entries.openCursor(txn)) {
            return c.last() ? Keys.readId(c.key()) : 0L;
        }
    }

    /**
     * The stored numbers of attribute types: those already assigned, plus new ones (committed
     * before returning) for every OID of {@code oids} that had none. Numbers are never reused.
     */
    public Map<String, Integer> attributeIds(Collection<String> oids) {
        Map<String, Integer> ids = new HashMap<>();
        int next = 1;
        try (Txn<ByteBuffer> txn = env.txnRead();
                Cursor<ByteBuffer> c = attributeIds.openCursor(txn)) {
            for (boolean more = c.first(); more; more = c.seek(SeekOp.MDB_NEXT)) {
                int id = c.val().getInt(c.val().position());
                ids.put(new String(Keys.bytes(c.key()), UTF_8), id);
                next = Math.max(next, id + 1);
            }
        }
        List<String> missing =
                oids.stream().filter(oid -> !ids.containsKey(oid)).sorted().toList();
        if (!missing.isEmpty() && !readOnly) {
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                for (String oid : missing) {
                    ByteBuffer value = ByteBuffer.allocateDirect(4);
                    value.putInt(0, next);
                    attributeIds.put(txn, Keys.direct(oid.getBytes(UTF_8)), value);
                    ids.put(oid, next++);
                }
                txn.commit();
            }
        }
        return ids;
    }

    /** Configured indexes that have not been built over the existing entries yet. */
    public List<IndexRef> unbuiltIndexes() {
        return List.copyOf(unbuiltIndexes);
    }

    /** Records, in {@code txn}, that {@code ref} now covers every entry. */
    public void markBuilt(WriteTxn txn, IndexRef ref) {
        meta.put(txn.txn, Keys.direct(("built:" + ref.dbName()).getBytes(UTF_8)), Keys.direct(new byte[] {1}));
        txn.onCommit(() -> unbuiltIndexes.remove(ref));
    }

    /** The index kinds configured for an attribute (by OID); empty when it has none. */
    public Set<IndexKind> indexKinds(String attributeOid) {
        EnumSet<IndexKind> kinds = indexKinds.get(attributeOid);
        return kinds == null ? Set.of() : kinds;
    }

    public boolean isIndexed(String attributeOid, IndexKind kind) {
        EnumSet<IndexKind> kinds = indexKinds.get(attributeOid);
        return kinds != null && kinds.contains(kind);
    }

    Dbi<ByteBuffer> index(String attributeOid, IndexKind kind) {
        Dbi<ByteBuffer> dbi = indexes.get(tag(kind) + ":" + attributeOid);
        if (dbi == null) {
            throw new IllegalArgumentException("no " + kind + " index on " + attributeOid);
        }
        return dbi;
    }

    /** As {@link #index}, counting one lookup of it (a read of IDs by a search's plan). */
    Dbi<ByteBuffer> lookup(String attributeOid, IndexKind kind) {
        String name = tag(kind) + ":" + attributeOid;
        Dbi<ByteBuffer> dbi = indexes.get(name);
        if (dbi == null) {
            throw new IllegalArgumentException("no " + kind + " index on " + attributeOid);
        }
        indexReads.computeIfAbsent(name, n -> new LongAdder()).increment();
        return dbi;
    }

    /**
     * How many times each index was looked up for IDs since the store opened (a key, a prefix or a
     * range read by search planning; maintenance and verification are not counted). Indexes never
     * read are absent. Process memory only: nothing of it is written to the store.
     */
    public Map<IndexRef, Long> indexLookups() {
        Map<IndexRef, Long> out = new HashMap<>();
        indexReads.forEach((name, count) -> {
            int colon = name.indexOf(':');
            out.put(new IndexRef(name.substring(colon + 1), kindOf(name.substring(0, colon))), count.sum());
        });
        return out;
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
                records.put(ENTRIES, entries.stat(txn).entries);
                records.put(DN, dn.stat(txn).entries);
                records.put(ATTRIBUTE_IDS, attributeIds.stat(txn).entries);
                records.put(META, meta.stat(txn).entries);
                indexes.forEach((name, dbi) -> records.put(name, dbi.stat(txn).entries));
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
     */
    public ReadTxn read() {
        gate.enter();
        try {
            return new ReadTxn(this, env.txnRead());
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

    Dbi<ByteBuffer> metaDbi() {
        return meta;
    }

    Dbi<ByteBuffer> entriesDbi() {
        return entries;
    }

    Dbi<ByteBuffer> dnDbi() {
        return dn;
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
        env.close();
        return true;
    }

    private static IndexKind kindOf(String tag) {
        for (IndexKind kind : IndexKind.values()) {
            if (tag(kind).equals(tag)) {
                return kind;
            }
        }
        return null;
    }

    private static String tag(IndexKind kind) {
        return switch (kind) {
            case EQUALITY -> "eq";
            case PRESENCE -> "pres";
            case SUBSTRING -> "sub";
            case ORDERING -> "ord";
        };
    }
}
