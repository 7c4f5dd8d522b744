package dev.larch.jmh.data;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.larch.server.store.ReadTxn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GeneratedDirectoryTest {
    @TempDir
    Path cache;

    @AfterEach
    void unset() {
        System.clearProperty(GeneratedDirectory.STORE_CACHE_PROPERTY);
    }

    private static boolean holds(GeneratedDirectory d, int person) {
        var directory = d.open().directory();
        try (ReadTxn txn = d.open().store().read()) {
            return directory.resolve(txn, directory.schemaNormalizer().dn(People.dn(person))) != ReadTxn.NOT_FOUND;
        }
    }

    @Test
    void laterForksOfARunCopyTheStoreTheFirstOneBuilt() {
        System.setProperty(GeneratedDirectory.STORE_CACHE_PROPERTY, cache.toString());
        try (GeneratedDirectory built = GeneratedDirectory.create(1_000)) {
            assertFalse(built.copied());
            assertTrue(Files.isRegularFile(cache.resolve("people-1000").resolve("data.mdb")));
            try (GeneratedDirectory copied = GeneratedDirectory.create(1_000)) {
                assertTrue(copied.copied());
                assertTrue(holds(copied, 0) && holds(copied, 999));
                assertFalse(holds(copied, 1_000));
                assertNotEquals(
                        built.config().storage().dataDir(),
                        copied.config().storage().dataDir());
            }
        }
    }

    @Test
    void withoutTheCacheNothingIsShared() throws IOException {
        try (GeneratedDirectory built = GeneratedDirectory.create(1_000)) {
            assertFalse(built.copied());
            assertTrue(holds(built, 999));
        }
        try (var files = Files.list(cache)) {
            assertTrue(files.findAny().isEmpty());
        }
    }
}
