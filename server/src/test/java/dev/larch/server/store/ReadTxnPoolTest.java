package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real LMDB in a temporary directory: read transactions kept per thread, renewed, closed with the store. */
class ReadTxnPoolTest {
    @TempDir
    Path dir;

    private Env<ByteBuffer> env() {
        return Env.create().setMapSize(1L << 20).setMaxReaders(16).open(dir.toFile(), EnvFlags.MDB_NOTLS);
    }

    @Test
    void aThreadsNextReadRenewsTheTransactionItEnded() {
        try (Env<ByteBuffer> env = env()) {
            ReadTxnPool pool = new ReadTxnPool(env, 4);
            Txn<ByteBuffer> first = pool.begin();
            pool.end(first);
            Txn<ByteBuffer> second = pool.begin();
            assertSame(first, second);
            assertThrows(Txn.NotResetException.class, second::renew, "renewed: live again");
            pool.end(second);
            pool.closeAll();
        }
    }

    @Test
    void aRenewedReadSeesWhatWasWrittenSinceTheThreadsLastRead() {
        try (LmdbStore store = LmdbStore.open(dir, LmdbStoreTest.OPTIONS, Map.of())) {
            long before;
            try (ReadTxn txn = store.read()) {
                before = txn.snapshotId();
                assertEquals(null, txn.entry(1));
            }
            try (WriteTxn txn = store.write()) {
                txn.putEntry(1, new byte[] {1, 2, 3});
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertNotNull(txn.entry(1));
                assertTrue(txn.snapshotId() > before);
            }
        }
    }

    @Test
    void aTransactionEndedOnAnotherThreadIsKeptByThatThread() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Env<ByteBuffer> env = env()) {
            ReadTxnPool pool = new ReadTxnPool(env, 4);
            Txn<ByteBuffer> moved = pool.begin();
            other.submit(() -> pool.end(moved)).get();
            assertSame(moved, other.submit(pool::begin).get());
            Txn<ByteBuffer> mine = pool.begin();
            assertNotSame(moved, mine);
            pool.end(mine);
            other.submit(() -> pool.end(moved)).get();
            pool.closeAll();
        } finally {
            other.shutdown();
        }
    }

    @Test
    void threadsBeyondTheBoundKeepNothing() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Env<ByteBuffer> env = env()) {
            ReadTxnPool pool = new ReadTxnPool(env, 1);
            Txn<ByteBuffer> kept = pool.begin();
            pool.end(kept);
            Txn<ByteBuffer> elsewhere = other.submit(pool::begin).get();
            other.submit(() -> pool.end(elsewhere)).get();
            assertClosed(elsewhere);
            Txn<ByteBuffer> again = other.submit(pool::begin).get();
            assertNotSame(elsewhere, again);
            other.submit(() -> pool.end(again)).get();
            assertSame(kept, pool.begin());
            pool.end(kept);
            pool.closeAll();
        } finally {
            other.shutdown();
        }
    }

    @Test
    void afterCloseAllNothingIsKeptAndTheEnvironmentCloses() {
        Env<ByteBuffer> env = env();
        ReadTxnPool pool = new ReadTxnPool(env, 4);
        Txn<ByteBuffer> kept = pool.begin();
        pool.end(kept);
        pool.closeAll();
        assertClosed(kept);
        Txn<ByteBuffer> fresh = pool.begin();
        assertNotSame(kept, fresh);
        pool.end(fresh);
        assertClosed(fresh);
        env.close();
        assertTrue(env.isClosed());
    }

    /** lmdbjava says nothing of a transaction's state but through what it refuses: a closed one refuses both. */
    private static void assertClosed(Txn<ByteBuffer> txn) {
        assertThrows(Txn.ResetException.class, txn::reset);
        assertThrows(Txn.NotResetException.class, txn::renew);
    }
}
