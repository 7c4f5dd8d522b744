package dev.larch.server.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.store.EntryTreeTest.OPTIONS;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An attribute index on real LMDB: sorted ID duplicates, cut and empty keys, ranges, limits. */
class AttributeIndexTest {
    private static final String SN = "2.5.4.4";

    @TempDir
    Path dir;

    private LmdbStore open() {
        return LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)));
    }

    private static byte[] key(String s) {
        return s.getBytes(UTF_8);
    }

    private static List<Long> list(IdSet ids) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            out.add(ids.get(i));
        }
        return out;
    }

    private static void add(LmdbStore store, String key, long... ids) {
        try (WriteTxn txn = store.write()) {
            for (long id : ids) {
                txn.indexAdd(SN, IndexKind.EQUALITY, key(key), id);
            }
            txn.commit();
        }
    }

    @Test
    void theIdsOfAKeyComeBackSortedAndEachOnce() {
        try (LmdbStore store = open()) {
            add(store, "lee", 70_000, 2, 300, 2);
            try (ReadTxn txn = store.read()) {
                assertEquals(List.of(2L, 300L, 70_000L), list(txn.ids(SN, IndexKind.EQUALITY, key("lee"), 10)));
                assertEquals(3, txn.count(SN, IndexKind.EQUALITY, key("lee")));
                assertEquals(0, txn.count(SN, IndexKind.EQUALITY, key("le")));
                assertTrue(txn.ids(SN, IndexKind.EQUALITY, key("le"), 10).isEmpty());
                assertEquals(3, txn.indexRecordCount(SN, IndexKind.EQUALITY));
            }
        }
    }

    @Test
    void addingAPairAlreadyHeldChangesNothingWhetherTheKeyHasOneIdOrMany() {
        try (LmdbStore store = open()) {
            add(store, "solo", 5);
            add(store, "solo", 5);
            add(store, "lee", 1, 2, 3);
            add(store, "lee", 2, 3, 1);
            try (ReadTxn txn = store.read()) {
                assertEquals(List.of(5L), list(txn.ids(SN, IndexKind.EQUALITY, key("solo"), 10)));
                assertEquals(List.of(1L, 2L, 3L), list(txn.ids(SN, IndexKind.EQUALITY, key("lee"), 10)));
                assertEquals(4, txn.indexRecordCount(SN, IndexKind.EQUALITY));
            }
        }
    }

    @Test
    void aKeyWithMoreIdsThanTheLimitAnswersNull() {
        try (LmdbStore store = open()) {
            add(store, "lee", 1, 2, 3);
            try (ReadTxn txn = store.read()) {
                assertNull(txn.ids(SN, IndexKind.EQUALITY, key("lee"), 2));
                assertEquals(3, txn.ids(SN, IndexKind.EQUALITY, key("lee"), 3).size());
            }
        }
    }

    @Test
    void deletingOnePairLeavesTheKeysOtherIds() {
        try (LmdbStore store = open()) {
            add(store, "lee", 1, 2);
            try (WriteTxn txn = store.write()) {
                txn.indexDelete(SN, IndexKind.EQUALITY, key("lee"), 1);
                txn.indexDelete(SN, IndexKind.EQUALITY, key("lee"), 99); // absent: nothing to do
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertEquals(List.of(2L), list(txn.ids(SN, IndexKind.EQUALITY, key("lee"), 10)));
            }
        }
    }

    @Test
    void anEmptyValueIsKeptUnderTheSingleByteZero() {
        try (LmdbStore store = open()) {
            add(store, "", 5);
            try (ReadTxn txn = store.read()) {
                assertEquals(List.of(5L), list(txn.ids(SN, IndexKind.EQUALITY, new byte[0], 10)));
                assertEquals(List.of(5L), list(txn.ids(SN, IndexKind.EQUALITY, new byte[] {0}, 10)));
                List<byte[]> keys = new ArrayList<>();
                txn.forEachIndexRecord(SN, IndexKind.EQUALITY, (k, id) -> keys.add(k));
                assertArrayEquals(new byte[] {0}, keys.get(0));
            }
        }
    }

    @Test
    void keysLongerThanTheLimitAreCutSoValuesSharingTheirStartShareAKey() {
        byte[] a = new byte[600];
        Arrays.fill(a, (byte) 'a');
        byte[] b = a.clone();
        b[599] = 'b';
        try (LmdbStore store = open()) {
            try (WriteTxn txn = store.write()) {
                txn.indexAdd(SN, IndexKind.EQUALITY, a, 1);
                txn.indexAdd(SN, IndexKind.EQUALITY, b, 2);
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertEquals(List.of(1L, 2L), list(txn.ids(SN, IndexKind.EQUALITY, a, 10)));
                assertEquals(List.of(1L, 2L), list(txn.ids(SN, IndexKind.EQUALITY, b, 10)));
                List<byte[]> keys = new ArrayList<>();
                txn.forEachIndexRecord(SN, IndexKind.EQUALITY, (k, id) -> keys.add(k));
                assertEquals(IndexKeys.MAX_KEY_BYTES, keys.get(0).length);
                List<Long> withPrefix = new ArrayList<>();
                txn.forEachIndexRecordWithPrefix(SN, IndexKind.EQUALITY, b, (k, id) -> withPrefix.add(id));
                assertEquals(List.of(1L, 2L), withPrefix, "a prefix past the key limit is cut as keys are");
            }
        }
    }

    @Test
    void rangesAreInclusiveUnsignedAndStopAtThePrefixOrTheLimit() {
        try (LmdbStore store = open()) {
            add(store, "a", 1);
            add(store, "ab", 2);
            add(store, "abc", 3);
            add(store, "b", 4);
            try (WriteTxn txn = store.write()) {
                txn.indexAdd(SN, IndexKind.EQUALITY, new byte[] {(byte) 0x80}, 5); // above every ASCII key
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertEquals(
                        List.of(1L, 2L, 3L, 4L, 5L),
                        list(txn.idsInRange(SN, IndexKind.EQUALITY, null, null, false, 10)));
                assertEquals(List.of(2L, 3L), list(txn.idsInRange(SN, IndexKind.EQUALITY, key("ab"), null, true, 10)));
                assertEquals(
                        List.of(2L, 3L, 4L),
                        list(txn.idsInRange(SN, IndexKind.EQUALITY, key("ab"), key("b"), false, 10)));
                assertEquals(List.of(1L, 2L), list(txn.idsInRange(SN, IndexKind.EQUALITY, null, key("ab"), false, 10)));
                assertEquals(
                        List.of(4L, 5L), list(txn.idsInRange(SN, IndexKind.EQUALITY, key("abd"), null, false, 10)));
                assertNull(txn.idsInRange(SN, IndexKind.EQUALITY, null, null, false, 4));
                assertTrue(txn.idsInRange(SN, IndexKind.EQUALITY, key("c"), null, true, 10)
                        .isEmpty());
            }
        }
    }

    @Test
    void planningLookupsAreCountedPerIndexAndOtherReadsAreNot() {
        try (LmdbStore store = open()) {
            add(store, "lee", 1);
            IndexRef sn = new IndexRef(SN, IndexKind.EQUALITY);
            try (ReadTxn txn = store.read()) {
                txn.count(SN, IndexKind.EQUALITY, key("lee"));
                assertEquals(Map.of(), store.indexes().lookups());
                txn.ids(SN, IndexKind.EQUALITY, key("lee"), 10);
                txn.idsInRange(SN, IndexKind.EQUALITY, key("l"), null, true, 10);
            }
            assertEquals(Map.of(sn, 2L), store.indexes().lookups());
        }
    }

    @Test
    void anIndexTheStoreDoesNotKeepIsRefusedByName() {
        try (LmdbStore store = open();
                ReadTxn txn = store.read()) {
            IllegalArgumentException refused = assertThrows(
                    IllegalArgumentException.class, () -> txn.ids(SN, IndexKind.SUBSTRING, key("lee"), 10));
            assertEquals("no SUBSTRING index on 2.5.4.4", refused.getMessage());
        }
    }
}
