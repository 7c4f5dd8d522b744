package dev.larch.server.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.store.EntryTreeTest.OPTIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which indexes a store keeps and has built, across reopens with another configuration. */
class IndexCatalogTest {
    private static final String SN = "2.5.4.4";
    private static final String CN = "2.5.4.3";

    @TempDir
    Path dir;

    @Test
    void aConfiguredIndexIsUnbuiltUntilMarkedAndStaysBuiltAcrossReopens() {
        IndexRef snEq = new IndexRef(SN, IndexKind.EQUALITY);
        Map<String, Set<IndexKind>> config = Map.of(SN, Set.of(IndexKind.EQUALITY, IndexKind.SUBSTRING));
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, config)) {
            IndexCatalog indexes = store.indexes();
            assertEquals(Set.of(IndexKind.EQUALITY, IndexKind.SUBSTRING), indexes.kinds(SN));
            assertEquals(Set.of(), indexes.kinds(CN));
            assertTrue(indexes.isIndexed(SN, IndexKind.SUBSTRING));
            assertFalse(indexes.isIndexed(SN, IndexKind.ORDERING));
            assertEquals(2, indexes.unbuilt().size());
            try (WriteTxn txn = store.write()) {
                indexes.markBuilt(txn, snEq);
                assertEquals(2, indexes.unbuilt().size(), "not before the commit");
                txn.commit();
            }
            assertEquals(List.of(new IndexRef(SN, IndexKind.SUBSTRING)), indexes.unbuilt());
        }
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, config)) {
            assertEquals(
                    List.of(new IndexRef(SN, IndexKind.SUBSTRING)),
                    store.indexes().unbuilt());
        }
        // Read-only, only the built index is there, whatever would be configured.
        try (LmdbStore store = LmdbStore.openReadOnly(dir, OPTIONS, false)) {
            assertEquals(List.of(snEq), store.indexes().refs());
        }
    }

    @Test
    void anAbortedMarkLeavesTheIndexUnbuilt() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)))) {
            try (WriteTxn txn = store.write()) {
                store.indexes().markBuilt(txn, new IndexRef(SN, IndexKind.EQUALITY));
            }
            assertEquals(1, store.indexes().unbuilt().size());
        }
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)))) {
            assertEquals(1, store.indexes().unbuilt().size());
        }
    }

    @Test
    void treeNamesAreTheKindTagAndTheOid() {
        assertEquals("eq:2.5.4.4", new IndexRef(SN, IndexKind.EQUALITY).treeName());
        assertEquals("pres:2.5.4.4", new IndexRef(SN, IndexKind.PRESENCE).treeName());
        assertEquals("sub:2.5.4.4", new IndexRef(SN, IndexKind.SUBSTRING).treeName());
        assertEquals("ord:2.5.4.4", new IndexRef(SN, IndexKind.ORDERING).treeName());
        for (IndexKind kind : IndexKind.values()) {
            IndexRef ref = new IndexRef(CN, kind);
            assertEquals(ref, IndexRef.ofTreeName(ref.treeName()));
        }
        assertEquals(null, IndexRef.ofTreeName("entries"));
        assertEquals(null, IndexRef.ofTreeName("built:eq:2.5.4.4"));
    }
}
