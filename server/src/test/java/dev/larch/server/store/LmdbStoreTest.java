package dev.larch.server.store;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.Txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real LMDB in a temporary directory: full maps and closing under open transactions. */
class LmdbStoreTest {
    private static final long SMALL_MAP = 1L << 20;
    static final StoreOptions OPTIONS = new StoreOptions(SMALL_MAP, 16, false);

    @TempDir
    Path dir;

    private LmdbStore open(long mapSize) {
        return LmdbStore.open(dir, new StoreOptions(mapSize, 16, false), Map.of());
    }

    private static void put(LmdbStore store, long id, int bytes) {
        try (WriteTxn txn = store.write()) {
            txn.putEntry(id, new byte[bytes]);
            txn.commit();
        }
    }

    @Test
    void aWriteThatDoesNotFitIsRolledBackAndLaterWritesThatFitSucceed() {
        try (LmdbStore store = open(SMALL_MAP)) {
            put(store, 1, 1000);
            StoreFullException full = assertThrows(StoreFullException.class, () -> put(store, 2, 2 * (int) SMALL_MAP));
            assertEquals(StoreFullException.Exhausted.MAP, full.exhausted());
            assertEquals("store is full: raise storage.map-size", full.clientMessage());
            put(store, 3, 1000);
            try (ReadTxn txn = store.read()) {
                assertNotNull(txn.entry(1));
                assertEquals(null, txn.entry(2));
                assertNotNull(txn.entry(3));
            }
        }
    }

    @Test
    void anIdIsNotHandedOutAgainAfterItsEntryWasDeletedAndTheStoreReopened() {
        long kept;
        long highest;
        try (LmdbStore store = open(SMALL_MAP)) {
            try (WriteTxn txn = store.write()) {
                kept = txn.allocateId();
                txn.putEntry(kept, new byte[10]);
                highest = txn.allocateId();
                txn.putEntry(highest, new byte[10]);
                txn.commit();
            }
            try (WriteTxn txn = store.write()) {
                txn.deleteEntry(highest);
                txn.commit();
            }
        }
        try (LmdbStore store = open(SMALL_MAP);
                WriteTxn txn = store.write()) {
            assertEquals(highest + 1, txn.allocateId(), "the deleted highest ID stays retired across a restart");
            txn.deleteEntry(kept); // a lower ID deleted later does not lower the floor
            txn.commit();
        }
        try (LmdbStore store = open(SMALL_MAP);
                WriteTxn txn = store.write()) {
            assertEquals(highest + 1, txn.allocateId());
        }
    }

    @Test
    void lmdbsTransactionFullErrorBecomesItsOwnClearFailure() throws Exception {
        // MDB_TXN_FULL cannot be provoked cheaply: LMDB spills dirty pages to the file long before
        // (400,000 puts of 3 KB in one transaction did not raise it). So the translation is fed
        // the library's own exception, made through its package-private constructor.
        Constructor<Txn.TxFullException> make = Txn.TxFullException.class.getDeclaredConstructor();
        make.setAccessible(true);
        try (LmdbStore store = open(SMALL_MAP)) {
            RuntimeException translated = store.translateWriteFailure(make.newInstance());
            ChangeTooLargeException tooLarge = assertInstanceOf(ChangeTooLargeException.class, translated);
            assertEquals(
                    "the change is too large for one transaction; split it into smaller changes",
                    tooLarge.clientMessage());
        }
    }

    @Test
    void aLargerMapSizeTakesEffectAtTheNextOpenWithTheDataKept() {
        int written = 0;
        try (LmdbStore store = open(SMALL_MAP)) {
            while (true) {
                try {
                    put(store, written + 1, 16 * 1024);
                    written++;
                } catch (StoreFullException e) {
                    break;
                }
            }
        }
        assertTrue(written > 10, "only " + written + " entries fit");
        try (LmdbStore store = open(4 * SMALL_MAP)) {
            try (ReadTxn txn = store.read()) {
                for (long id = 1; id <= written; id++) {
                    assertNotNull(txn.entry(id), "entry " + id);
                }
            }
            for (int i = 1; i <= written; i++) {
                put(store, written + i, 16 * 1024);
            }
        }
    }

    @Test
    void closeWaitsForAnOpenReadTransactionToEnd() throws Exception {
        LmdbStore store = open(SMALL_MAP);
        put(store, 1, 10);
        ReadTxn reader = store.read();
        CompletableFuture<Boolean> closed = CompletableFuture.supplyAsync(() -> store.close(Duration.ofSeconds(30)));
        // Once close() began it admits no one new, and it does not return while the reader is open.
        awaitClosing(store);
        assertFalse(closed.isDone());
        assertNotNull(reader.entry(1));
        reader.close();
        assertTrue(closed.get(30, TimeUnit.SECONDS));
    }

    private static void awaitClosing(LmdbStore store) throws InterruptedException {
        for (int i = 0; i < 30_000; i++) {
            try {
                store.read().close();
            } catch (StoreClosedException e) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("close() never began");
    }

    @Test
    void closeLeavesTheEnvironmentOpenUnderATransactionThatOutlivesTheBound() {
        LmdbStore store = open(SMALL_MAP);
        put(store, 1, 10);
        ReadTxn reader = store.read();
        assertFalse(store.close(Duration.ofMillis(20)));
        // Reading after the failed close must work (a closed environment would crash the JVM here).
        assertNotNull(reader.entry(1));
        assertThrows(StoreClosedException.class, store::write);
        reader.close();
        reader.close();
        assertTrue(store.close(Duration.ofSeconds(5)));
    }

    @Test
    void theReaderSlotOfAKilledProcessIsCleared() throws Exception {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            put(store, 1, 10);
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Process child = new ProcessBuilder(
                            java.toString(),
                            "--add-opens=java.base/java.nio=ALL-UNNAMED",
                            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                            "-cp",
                            System.getProperty("java.class.path"),
                            HoldReadTransaction.class.getName(),
                            dir.toString())
                    .redirectErrorStream(true)
                    .start();
            try (BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                do {
                    line = out.readLine();
                } while (line != null && !line.startsWith("ready"));
                assertEquals("ready", line, "the child did not open a read transaction");
                child.destroyForcibly(); // SIGKILL: the child cannot release its slot
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            } finally {
                child.destroyForcibly();
            }
            assertEquals(1, store.clearStaleReaders());
            assertEquals(0, store.clearStaleReaders());
        }
    }

    @Test
    void noStaleReadersWhenNoProcessDied() {
        try (LmdbStore store = open(SMALL_MAP)) {
            assertEquals(0, store.clearStaleReaders());
        }
    }
}
