package dev.larch.server.maintenance;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.larch.config.LarchConfig;
import dev.larch.server.StoredDirectory;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.OwnerOnlyFiles;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.StoreFormat;
import dev.larch.server.store.StoreOptions;

/**
 * A consistent, compacted copy of a store taken while it may be serving: LMDB copies the pages of
 * one read transaction (so every write committed before it and none after), leaving free pages out;
 * writers go on meanwhile. The copy is a directory holding {@code data.mdb} and its {@link
 * BackupManifest}, owner-only like the store.
 */
public final class Backup {
    private Backup() {}

    /**
     * Copies the store of {@code source} (opened read-only) into {@code target}, which must not exist.
     *
     * @param config the configuration {@code source} was opened with: its suffix goes in the manifest
     * @throws MaintenanceException when {@code target} exists; nothing is overwritten
     */
    public static BackupManifest take(LarchConfig config, StoredDirectory source, Path target, String larchVersion)
            throws IOException {
        if (Files.exists(target)) {
            throw new MaintenanceException(target + " exists; a backup never overwrites: name a new path");
        }
        OwnerOnlyFiles.createDirectory(target);
        try {
            source.store().copyCompacted(target);
            Path data = target.resolve(BackupManifest.DATA_FILE);
            // LMDB creates the copy under the umask: owner-only, like the store it copies.
            Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rw-------"));
            BackupManifest manifest = new BackupManifest(
                    StoreFormat.VERSION,
                    config.suffix(),
                    entriesIn(target, config),
                    Files.size(data),
                    BackupManifest.sha256(data),
                    Instant.now().toString(),
                    larchVersion);
            manifest.write(target);
            return manifest;
        } catch (IOException | RuntimeException e) {
            deleteQuietly(target);
            throw e;
        }
    }

    /** Counts the entries of the copy itself: the one transaction it was taken from. */
    private static long entriesIn(Path copy, LarchConfig config) {
        StoreOptions options = new StoreOptions(config.storage().mapSizeBytes(), 8, false);
        try (LmdbStore store = LmdbStore.openReadOnly(copy, options, true);
                ReadTxn txn = store.read()) {
            return txn.entryCount();
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // left for the operator: the error that got us here is the one to report
        }
    }
}
