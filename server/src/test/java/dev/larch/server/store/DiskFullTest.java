package dev.larch.server.store;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real full disk: the store lives on a 4 MiB tmpfs mounted for the test, with a map far larger than
 * the disk. Needs root and a kernel that lets it mount (CI runs as root); skipped elsewhere.
 */
class DiskFullTest {
    private static final long MAP = 256L << 20;

    @TempDir
    Path dir;

    private Path mount;

    @BeforeEach
    void mountSmallDisk() throws Exception {
        mount = dir.resolve("small-disk");
        Files.createDirectories(mount);
        assumeTrue(
                run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.toString()),
                "cannot mount a tmpfs here (not root?)");
    }

    @AfterEach
    void unmount() throws Exception {
        run("umount", "-l", mount.toString());
    }

    @Test
    void aWriteThatFindsTheDiskFullIsRolledBackAndWritesWorkOnceThereIsSpace() throws IOException {
        // Room the test gives back later, so that it can show the store recovering without a restart.
        Path filler = mount.resolve("filler");
        Files.write(filler, new byte[1 << 20]);
        Path data = Files.createDirectories(mount.resolve("data"));
        try (LmdbStore store = LmdbStore.open(data, new StoreOptions(MAP, 16, false), Map.of())) {
            put(store, 1, 1000);
            StoreFullException full = assertThrows(StoreFullException.class, () -> {
                for (long id = 2; id < 100; id++) {
                    put(store, id, 256 << 10);
                }
            });
            assertEquals(StoreFullException.Exhausted.DISK, full.exhausted());
            assertEquals("disk is full: the server has no space left for its data", full.clientMessage());
            long lastWritten = lastId(store);
            try (ReadTxn txn = store.read()) {
                assertNotNull(txn.entry(1), "what was committed before the disk filled is still there");
                assertNull(txn.entry(lastWritten + 1), "the failed write left nothing behind");
            }

            Files.delete(filler);
            put(store, 1_000, 1000);
            try (ReadTxn txn = store.read()) {
                assertNotNull(txn.entry(1_000));
            }
        }
    }

    private static long lastId(LmdbStore store) {
        long id = 1;
        try (ReadTxn txn = store.read()) {
            while (txn.entry(id + 1) != null) {
                id++;
            }
        }
        return id;
    }

    private static void put(LmdbStore store, long id, int bytes) {
        try (WriteTxn txn = store.write()) {
            txn.putEntry(id, new byte[bytes]);
            txn.commit();
        }
    }

    private static boolean run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().transferTo(OutputStream.nullOutputStream());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        return p.exitValue() == 0;
    }
}
