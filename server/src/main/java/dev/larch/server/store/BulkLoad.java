package dev.larch.server.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.lmdbjava.PutFlags;

/**
 * The store operations a bulk load into an empty store needs beyond the ordinary ones ({@code
 * ./larch import}): entries appended in ID order, indexes filled by appending ({@link
 * IndexAppender}), the indexes marked unbuilt while the load runs, and everything emptied again
 * when it stops. Every method runs in the caller's write transaction.
 *
 * <p>Thread-safety: stateless; the transactions passed in are the callers'.
 */
public final class BulkLoad {
    private BulkLoad() {}

    /**
     * Stores the entry {@code id} at the end of the entries tree ({@code MDB_APPEND}).
     *
     * @throws StoreException when {@code id} is not above every ID stored
     */
    public static void appendEntry(WriteTxn txn, long id, byte[] serialized) {
        ByteBuffer value = txn.entryValue(serialized);
        txn.store.entries().tree().put(txn.txn, EntryIds.write(txn.idBuffer(), id), value, PutFlags.MDB_APPEND);
    }

    /** An appender filling the index {@code ref}, which must be empty; close it before {@code txn} ends. */
    public static IndexAppender appendTo(WriteTxn txn, IndexRef ref) {
        return new IndexAppender(txn, txn.store.indexes().get(ref).tree());
    }

    /** Whether the index {@code ref} holds no record. */
    public static boolean isEmpty(ReadTxn txn, IndexRef ref) {
        return txn.store.indexes().get(ref).records(txn) == 0;
    }

    /**
     * Records every index as not built (the {@code built:} marks of {@link MetaTree}): should the
     * load stop without {@link #emptyAll} (the process killed), the next open rebuilds every index
     * from the entries that made it in, so no index ever answers for entries it lacks.
     * {@link IndexCatalog#markBuilt} marks each back once filled.
     */
    public static void markIndexesUnbuilt(WriteTxn txn) {
        for (IndexRef ref : txn.store.indexes().refs()) {
            txn.store.meta().clearBuilt(txn.txn, ref.treeName());
        }
    }

    /**
     * Removes every entry, DN record and index record, leaving the store as a new one is (its
     * format, attribute numbers and ID counter stay): what a stopped load into an empty store
     * leaves behind. The indexes are marked built again, since empty indexes cover every entry.
     */
    public static void emptyAll(WriteTxn txn) {
        txn.store.entries().tree().empty(txn.txn);
        txn.store.dn().tree().empty(txn.txn);
        txn.store.changeLog().empty(txn);
        for (IndexRef ref : txn.store.indexes().refs()) {
            txn.store.indexes().get(ref).tree().empty(txn.txn);
            txn.store.meta().markBuilt(txn.txn, ref.treeName());
        }
    }

    /**
     * Records in {@code txn} that a replica's first refresh is loading the store in bulk: should the
     * process stop before {@link #clearRefreshLoading}, the next open empties the store ({@link
     * #emptyIfRefreshInterrupted}) and the refresh starts over, rather than the open rebuilding every
     * index over a part of the tree no cookie covers.
     */
    public static void markRefreshLoading(WriteTxn txn) {
        txn.store.meta().markBulkRefresh(txn);
    }

    /** The refresh's load is done (its indexes built): records so in {@code txn}. */
    public static void clearRefreshLoading(WriteTxn txn) {
        txn.store.meta().clearBulkRefresh(txn);
    }

    /**
     * Empties the store when a replica's first refresh was loading it in bulk when the process
     * stopped ({@link #markRefreshLoading}), with the run files such a load leaves in the data
     * directory; call on open, before any index is built.
     *
     * @return the entries removed, or -1 when no refresh was interrupted
     */
    public static long emptyIfRefreshInterrupted(LmdbStore store) {
        long removed;
        try (WriteTxn txn = store.write()) {
            if (!store.meta().isBulkRefresh(txn)) {
                return -1;
            }
            removed = txn.entryCount();
            emptyAll(txn);
            clearRefreshLoading(txn);
            txn.commit();
        }
        deleteRunDirectories(store.directory());
        return removed;
    }

    /** Removes the {@code import-runs-*} directories a bulk load stopped midway left under {@code dir}. */
    private static void deleteRunDirectories(Path dir) {
        try (DirectoryStream<Path> runs = Files.newDirectoryStream(dir, "import-runs-*")) {
            for (Path run : runs) {
                try (Stream<Path> files = Files.walk(run)) {
                    for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(file);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the run files of an interrupted load in " + dir, e);
        }
    }
}
