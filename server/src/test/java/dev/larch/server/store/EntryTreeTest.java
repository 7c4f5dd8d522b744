package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The entries tree on real LMDB: ID keys, their numeric order, values of any size. */
class EntryTreeTest {
    static final StoreOptions OPTIONS = new StoreOptions(1L << 24, 16, false);

    @TempDir
    Path dir;

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    static List<Long> drain(IdCursor cursor) {
        List<Long> ids = new ArrayList<>();
        try (cursor) {
            for (long id = cursor.next(); id != ReadTxn.NOT_FOUND; id = cursor.next()) {
                ids.add(id);
            }
            assertEquals(ReadTxn.NOT_FOUND, cursor.next(), "an exhausted cursor stays exhausted");
        }
        return ids;
    }

    @Test
    void anEntryPutIsReadBackReplacedAndDeleted() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                store.entries().put(txn, 7, new byte[] {1, 2, 3});
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertArrayEquals(new byte[] {1, 2, 3}, bytes(store.entries().get(txn, 7)));
                assertNull(store.entries().get(txn, 8));
            }
            try (WriteTxn txn = store.write()) {
                store.entries().put(txn, 7, new byte[] {9});
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertArrayEquals(new byte[] {9}, bytes(store.entries().get(txn, 7)));
            }
            try (WriteTxn txn = store.write()) {
                store.entries().delete(txn, 7);
                store.entries().delete(txn, 12345); // absent: nothing to do
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertNull(store.entries().get(txn, 7));
                assertEquals(0, store.entries().count(txn));
            }
        }
    }

    @Test
    void idsComeBackInNumericOrderAcrossByteBoundaries() {
        long[] written = {65_536, 1, 256, 255, 1L << 40, 2};
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                for (long id : written) {
                    store.entries().put(txn, id, new byte[] {(byte) id});
                }
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertEquals(List.of(1L, 2L, 255L, 256L, 65_536L, 1L << 40), drain(txn.allEntries()));
                assertEquals(6, txn.entryCount());
            }
        }
        // The next ID handed out follows the highest one stored, also after a reopen.
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of());
                WriteTxn txn = store.write()) {
            assertEquals((1L << 40) + 1, txn.allocateId());
        }
    }

    @Test
    void theKeyIsTheIdInEightBytesBigEndian() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                store.entries().put(txn, 0x0102030405060708L, new byte[] {1});
                txn.commit();
            }
            try (ReadTxn txn = store.read();
                    RangeCursor c = store.entries().tree().range(txn.txn, KeyRange.all())) {
                assertTrue(c.next());
                assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, bytes(c.key()));
            }
        }
    }

    @Test
    void anEntryLargerThanTheValueBufferIsStoredWhole() {
        byte[] big = new byte[100_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                store.entries().put(txn, 1, new byte[10]);
                store.entries().put(txn, 2, big);
                store.entries().put(txn, 3, new byte[] {5});
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertArrayEquals(new byte[10], bytes(store.entries().get(txn, 1)));
                assertArrayEquals(big, bytes(store.entries().get(txn, 2)));
                assertArrayEquals(new byte[] {5}, bytes(store.entries().get(txn, 3)));
            }
        }
    }

    @Test
    void anEmptyStoreHasNoEntriesAndLastIdZero() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of());
                ReadTxn txn = store.read()) {
            assertEquals(List.of(), drain(txn.allEntries()));
            assertEquals(0L, store.entries().lastId(txn.txn));
        }
    }
}
