package dev.larch.server.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.store.EntryTreeTest.OPTIONS;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Attribute numbers: assigned once from 1, in OID order, kept across reopens, never reused. */
class AttributeNumbersTest {
    @TempDir
    Path dir;

    @Test
    void numbersAreAssignedOnceAndKept() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            assertEquals(
                    Map.of("2.5.4.3", 1, "2.5.4.4", 2), store.attributeNumbers().ids(List.of("2.5.4.4", "2.5.4.3")));
            assertEquals(
                    Map.of("2.5.4.3", 1, "2.5.4.4", 2, "2.5.4.0", 3),
                    store.attributeNumbers().ids(List.of("2.5.4.0", "2.5.4.4")));
        }
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            // Asking for fewer types still answers every number the store holds.
            assertEquals(
                    Map.of("2.5.4.3", 1, "2.5.4.4", 2, "2.5.4.0", 3),
                    store.attributeNumbers().ids(List.of()));
        }
    }

    @Test
    void aReadOnlyStoreAssignsNothing() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            store.attributeNumbers().ids(List.of("2.5.4.3"));
        }
        try (LmdbStore store = LmdbStore.openReadOnly(dir, OPTIONS, false)) {
            assertEquals(Map.of("2.5.4.3", 1), store.attributeNumbers().ids(List.of("2.5.4.4")));
        }
    }
}
