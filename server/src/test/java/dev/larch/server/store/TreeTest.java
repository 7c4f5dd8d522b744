package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.store.EntryTreeTest.OPTIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The storage primitive on real LMDB: get, put, delete and key ranges, with and without duplicates. */
class TreeTest {
    private static final String SN = "2.5.4.4";

    @TempDir
    Path dir;

    private static ByteBuffer b(int... bytes) {
        ByteBuffer out = ByteBuffer.allocateDirect(bytes.length);
        for (int x : bytes) {
            out.put((byte) x);
        }
        return out.flip();
    }

    /** "key:value" for every record the range passes, keys and values as their first byte. */
    private static List<String> walk(Tree tree, ReadTxn txn, KeyRange range) {
        List<String> out = new ArrayList<>();
        try (RangeCursor c = tree.range(txn.txn, range)) {
            while (c.next()) {
                out.add(Byte.toUnsignedInt(c.key().get(c.key().position())) + ":"
                        + c.value().getLong(c.value().position()));
            }
            assertFalse(c.next(), "an ended range stays ended");
        }
        return out;
    }

    /** An index tree (sorted duplicates): key 1 → IDs 10, 11; key 2 → 20; key 3 → 30, 31. */
    private LmdbStore storeWithDuplicates() {
        LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)));
        Tree tree = store.indexes().get(SN, IndexKind.EQUALITY).tree();
        try (WriteTxn txn = store.write()) {
            tree.put(txn.txn, b(3), EntryIds.of(31));
            tree.put(txn.txn, b(1), EntryIds.of(11));
            tree.put(txn.txn, b(2), EntryIds.of(20));
            tree.put(txn.txn, b(1), EntryIds.of(10));
            tree.put(txn.txn, b(3), EntryIds.of(30));
            txn.commit();
        }
        return store;
    }

    @Test
    void aRangeVisitsEveryDuplicateInKeyThenValueOrder() {
        try (LmdbStore store = storeWithDuplicates();
                ReadTxn txn = store.read()) {
            Tree tree = store.indexes().get(SN, IndexKind.EQUALITY).tree();
            assertEquals(List.of("1:10", "1:11", "2:20", "3:30", "3:31"), walk(tree, txn, KeyRange.all()));
            assertEquals(List.of("2:20", "3:30", "3:31"), walk(tree, txn, new KeyRange(b(2), false, null, null)));
            assertEquals(List.of("1:10", "1:11", "2:20"), walk(tree, txn, new KeyRange(null, false, null, b(2))));
            assertEquals(List.of("3:30", "3:31"), walk(tree, txn, KeyRange.prefix(b(3))));
            assertEquals(List.of(), walk(tree, txn, KeyRange.prefix(b(4))));
        }
    }

    @Test
    void anExclusiveStartSkipsAllValuesOfThatKeyAndAMissingStartKeyStartsAtTheNext() {
        try (LmdbStore store = storeWithDuplicates();
                ReadTxn txn = store.read()) {
            Tree tree = store.indexes().get(SN, IndexKind.EQUALITY).tree();
            assertEquals(List.of("2:20", "3:30", "3:31"), walk(tree, txn, new KeyRange(b(1), true, null, null)));
            assertEquals(List.of("2:20", "3:30", "3:31"), walk(tree, txn, new KeyRange(b(1, 0), true, null, null)));
            assertEquals(List.of(), walk(tree, txn, new KeyRange(b(3), true, null, null)));
        }
    }

    @Test
    void getPutAndDeleteWorkOnOneValueOrAWholeKey() {
        try (LmdbStore store = storeWithDuplicates()) {
            Tree tree = store.indexes().get(SN, IndexKind.EQUALITY).tree();
            try (WriteTxn txn = store.write()) {
                assertEquals(10, tree.get(txn.txn, b(1)).getLong(0), "the first duplicate");
                assertTrue(tree.delete(txn.txn, b(1), EntryIds.of(10)));
                assertFalse(tree.delete(txn.txn, b(1), EntryIds.of(10)));
                assertTrue(tree.delete(txn.txn, b(3)));
                assertFalse(tree.delete(txn.txn, b(9)));
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertEquals(List.of("1:11", "2:20"), walk(tree, txn, KeyRange.all()));
                assertNull(tree.get(txn.txn, b(3)));
                assertEquals(2, tree.records(txn.txn));
            }
        }
    }

    @Test
    void aFailedWriteIsReportedAsTheStoreWordsIt() {
        try (LmdbStore store = LmdbStore.open(dir, new StoreOptions(1L << 20, 16, false), Map.of())) {
            Tree tree = store.entries().tree();
            try (WriteTxn txn = store.write()) {
                StoreFullException full = assertThrows(
                        StoreFullException.class,
                        () -> tree.put(txn.txn, EntryIds.of(1), ByteBuffer.allocateDirect(4 << 20)));
                assertEquals(StoreFullException.Exhausted.MAP, full.exhausted());
            }
        }
    }
}
