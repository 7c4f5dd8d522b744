package dev.larch.server.store;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.store.EntryTreeTest.OPTIONS;
import static dev.larch.server.store.EntryTreeTest.bytes;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The meta tree's records, byte for byte: the format version and the built marks. */
class MetaTreeTest {
    @TempDir
    Path dir;

    @Test
    void theFormatIsAFourByteIntAndABuiltMarkTheByteOne() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of("2.5.4.4", Set.of(IndexKind.EQUALITY)))) {
            try (WriteTxn txn = store.write()) {
                store.indexes().markBuilt(txn, new IndexRef("2.5.4.4", IndexKind.EQUALITY));
                txn.commit();
            }
            Map<String, String> records = new LinkedHashMap<>();
            try (ReadTxn txn = store.read();
                    RangeCursor c = store.meta().tree().range(txn.txn, KeyRange.all())) {
                while (c.next()) {
                    records.put(new String(bytes(c.key()), UTF_8), Arrays.toString(bytes(c.value())));
                }
            }
            assertEquals(
                    Map.of("built:eq:2.5.4.4", "[1]", "format", "[0, 0, 0, " + StoreFormat.VERSION + "]"), records);
            try (ReadTxn txn = store.read()) {
                assertEquals(Integer.valueOf(StoreFormat.VERSION), store.meta().format(txn.txn));
                assertTrue(store.meta().isBuilt(txn.txn, "eq:2.5.4.4"));
                assertFalse(store.meta().isBuilt(txn.txn, "sub:2.5.4.4"));
            }
        }
    }

    @Test
    void theRenameCountIsAnEightByteLongCountedInTheWriteTransaction() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (ReadTxn txn = store.read()) {
                assertEquals(0, store.meta().renames(txn), "absent counts as none");
            }
            try (ReadTxn before = store.read()) {
                try (WriteTxn txn = store.write()) {
                    assertEquals(0, txn.renameGeneration());
                    txn.countRename();
                    assertEquals(-1, txn.renameGeneration(), "a renaming writer uses no DN cache");
                    txn.countRename();
                    txn.commit();
                }
                assertEquals(0, before.renameGeneration(), "an older reader keeps its snapshot's count");
            }
            try (ReadTxn txn = store.read();
                    RangeCursor c = store.meta().tree().range(txn.txn, KeyRange.all())) {
                assertEquals(2, txn.renameGeneration());
                Map<String, String> records = new LinkedHashMap<>();
                while (c.next()) {
                    records.put(new String(bytes(c.key()), UTF_8), Arrays.toString(bytes(c.value())));
                }
                assertEquals("[0, 0, 0, 0, 0, 0, 0, 2]", records.get("renames"));
            }
            try (WriteTxn txn = store.write()) {
                txn.countRename();
                // aborted: nothing counted
            }
            try (WriteTxn txn = store.write()) {
                assertEquals(2, txn.renameGeneration());
                try (WriteTxn child = txn.nested()) {
                    child.countRename();
                    assertEquals(-1, child.renameGeneration());
                    // aborted child: the parent renamed nothing
                }
                assertEquals(2, txn.renameGeneration());
                try (WriteTxn child = txn.nested()) {
                    child.countRename();
                    child.commit();
                }
                assertEquals(-1, txn.renameGeneration(), "a child's committed rename is the parent's");
            }
        }
    }

    @Test
    void readersOfOneSnapshotShareItsRenameCountAndEachNewSnapshotHasItsOwn() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (ReadTxn first = store.read()) {
                assertEquals(0, first.renameGeneration());
            }
            try (WriteTxn txn = store.write()) {
                // The writer's transaction ID is the one the next readers get once it commits: were
                // the count it sees kept under that ID, they would read this 0.
                assertEquals(0, txn.renameGeneration());
                txn.countRename();
                txn.commit();
            }
            try (ReadTxn old = store.read()) {
                assertEquals(1, old.renameGeneration());
                try (WriteTxn txn = store.write()) {
                    txn.countRename();
                    txn.commit();
                }
                try (ReadTxn again = store.read()) {
                    assertEquals(2, again.renameGeneration(), "a reader of the newer snapshot");
                }
                assertEquals(1, old.renameGeneration(), "the older reader keeps its snapshot's count");
            }
            try (ReadTxn same = store.read();
                    ReadTxn other = store.read()) {
                assertEquals(2, same.renameGeneration());
                assertEquals(2, other.renameGeneration());
            }
        }
    }

    @Test
    void aClearedMarkIsGone() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                store.meta().markBuilt(txn.txn, "eq:x");
                store.meta().clearBuilt(txn.txn, "eq:x");
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertFalse(store.meta().isBuilt(txn.txn, "eq:x"));
                assertEquals(1, store.meta().records(txn.txn));
            }
        }
    }
}
