package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recorded store format, and read-only opens that change nothing. */
class StoreFormatTest {
    private static final StoreOptions OPTIONS = new StoreOptions(1L << 24, 16, false);
    private static final String SN = "2.5.4.4";

    @TempDir
    Path dir;

    private static void writeFormat(LmdbStore store, Integer version) {
        try (WriteTxn txn = store.write()) {
            ByteBuffer key = direct(StoreFormat.META_KEY.getBytes(UTF_8));
            if (version == null) {
                store.meta().tree().delete(txn.txn, key);
            } else {
                ByteBuffer value = ByteBuffer.allocateDirect(4);
                value.putInt(0, version);
                store.meta().tree().put(txn.txn, key, value);
            }
            txn.commit();
        }
    }

    private static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        return b;
    }

    private static Integer readFormat(LmdbStore store) {
        try (ReadTxn txn = store.read()) {
            ByteBuffer v = store.meta().tree().get(txn.txn, direct(StoreFormat.META_KEY.getBytes(UTF_8)));
            return v == null ? null : v.getInt(v.position());
        }
    }

    @Test
    void aStoreOfAnotherFormatIsRefusedSayingHowToMoveTheData() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            writeFormat(store, StoreFormat.VERSION + 1);
        }
        StoreException refused = assertThrows(StoreException.class, () -> LmdbStore.open(dir, OPTIONS, Map.of()));
        assertTrue(refused.getMessage().contains("format version " + (StoreFormat.VERSION + 1)), refused.getMessage());
        assertTrue(refused.getMessage().contains("./larch export"), refused.getMessage());
        assertTrue(refused.getMessage().contains("./larch import"), refused.getMessage());
        StoreException readOnly = assertThrows(StoreException.class, () -> LmdbStore.openReadOnly(dir, OPTIONS, false));
        assertTrue(readOnly.getMessage().contains("format version"), readOnly.getMessage());
    }

    @Test
    void anEmptyStoreWithoutAVersionIsStampedWithThisOne() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            assertEquals(StoreFormat.VERSION, readFormat(store));
            writeFormat(store, null);
        }
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            assertEquals(StoreFormat.VERSION, readFormat(store));
        }
    }

    @Test
    void aStoreWithEntriesButNoVersionIsTheFirstFormatAndRefused() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                txn.putEntry(txn.allocateId(), new byte[] {1});
                txn.commit();
            }
            writeFormat(store, null);
        }
        StoreException refused = assertThrows(StoreException.class, () -> LmdbStore.open(dir, OPTIONS, Map.of()));
        assertTrue(refused.getMessage().contains("format version 1;"), refused.getMessage());
        assertTrue(refused.getMessage().contains("./larch export"), refused.getMessage());
    }

    @Test
    void aVersionThreeStoreLacksChangeStampsAndItsChangeLogAndIsRefused() {
        assertEquals(5, StoreFormat.VERSION);
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                txn.putEntry(txn.allocateId(), new byte[] {2});
                txn.commit();
            }
            writeFormat(store, 3);
        }
        StoreException refused = assertThrows(StoreException.class, () -> LmdbStore.open(dir, OPTIONS, Map.of()));
        assertEquals(
                "the store in " + dir + " has format version 3; this Larch reads format 5. Move the data: with the"
                        + " Larch that wrote it run './larch export FILE', then with this one './larch import FILE'"
                        + " into an empty data directory",
                refused.getMessage());
        StoreException readOnly = assertThrows(StoreException.class, () -> LmdbStore.openReadOnly(dir, OPTIONS, false));
        assertEquals(refused.getMessage(), readOnly.getMessage());
    }

    @Test
    void aVersionOneStoreLacksStoredMemberOfAndIsRefused() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            writeFormat(store, 1);
        }
        StoreException refused = assertThrows(StoreException.class, () -> LmdbStore.open(dir, OPTIONS, Map.of()));
        assertTrue(refused.getMessage().contains("format version 1;"), refused.getMessage());
        assertTrue(refused.getMessage().contains("./larch import"), refused.getMessage());
    }

    @Test
    void aReadOnlyOpenKeepsIndexesTheCallerDoesNotKnowAndRefusesWrites() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)))) {
            try (WriteTxn txn = store.write()) {
                store.indexes().markBuilt(txn, new IndexRef(SN, IndexKind.EQUALITY));
                txn.indexAdd(SN, IndexKind.EQUALITY, "smith".getBytes(UTF_8), 7);
                txn.commit();
            }
        }
        try (LmdbStore store = LmdbStore.openReadOnly(dir, OPTIONS, false)) {
            assertEquals(
                    List.of(new IndexRef(SN, IndexKind.EQUALITY)),
                    store.indexes().refs());
            assertThrows(StoreException.class, store::write);
            try (ReadTxn txn = store.read()) {
                assertEquals(1, txn.indexRecordCount(SN, IndexKind.EQUALITY));
            }
        }
        // The index is still there and still built: the read-only open dropped nothing.
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)))) {
            assertEquals(List.of(), store.indexes().unbuilt());
            try (ReadTxn txn = store.read()) {
                assertEquals(1, txn.count(SN, IndexKind.EQUALITY, "smith".getBytes(UTF_8)));
            }
        }
    }

    @Test
    void anIndexLeftOutOfTheConfigIsDroppedAtOpenWithoutWaitingOnItself() {
        IndexRef sn = new IndexRef(SN, IndexKind.EQUALITY);
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)))) {
            try (WriteTxn txn = store.write()) {
                store.indexes().markBuilt(txn, sn);
                txn.commit();
            }
        }
        // It once opened the stale index in a write transaction of its own inside the dropping one: a hang.
        assertTimeoutPreemptively(
                Duration.ofSeconds(20),
                () -> LmdbStore.open(dir, OPTIONS, Map.of()).close());
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)))) {
            assertEquals(List.of(sn), store.indexes().unbuilt()); // dropped, so built again when configured again
        }
    }

    @Test
    void aDirectoryWithoutAStoreIsNotOpenedReadOnly() {
        StoreException refused = assertThrows(StoreException.class, () -> LmdbStore.openReadOnly(dir, OPTIONS, false));
        assertTrue(refused.getMessage().contains("no Larch store"), refused.getMessage());
    }
}
