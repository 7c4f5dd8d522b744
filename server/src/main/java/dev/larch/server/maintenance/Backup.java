package dev.larch.server.maintenance;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.larch.config.LarchConfig;
import dev.larch.server.Progress;
import dev.larch.server.StoredDirectory;
import dev.larch.server.store.FileSync;
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
        return take(config, source, target, larchVersion, null);
    }

    /**
     * {@link #take(LarchConfig, StoredDirectory, Path, String)}, reporting the bytes copied so far
     * (of at most the store's used bytes: the copy leaves free pages out) while LMDB copies.
     *
     * @param progress where progress goes, or null for none
     */
    public static BackupManifest take(
            LarchConfig config, StoredDirectory source, Path target, String larchVersion, PrintStream progress)
            throws IOException {
        if (Files.exists(target)) {
            throw new MaintenanceException(target + " exists; a backup never overwrites: name a new path");
        }
        OwnerOnlyFiles.createDirectory(target);
        try {
            copyWatched(source, target, progress);
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
            // A backup is kept for the day the store is lost: on disk before it is reported taken.
            FileSync.file(data);
            FileSync.file(target.resolve(BackupManifest.FILE));
            FileSync.directory(target);
            FileSync.directory(target.toAbsolutePath().getParent());
            return manifest;
        } catch (IOException | RuntimeException e) {
            deleteQuietly(target);
            throw e;
        }
    }

    /**
     * LMDB's copy reports nothing while it runs: a watcher samples the size of the file it writes.
     */
    private static void copyWatched(StoredDirectory source, Path target, PrintStream out) throws IOException {
        if (out == null) {
            source.store().copyCompacted(target);
            return;
        }
        Progress progress = Progress.to(out, "copied MiB", source.store().usedBytes() >> 20);
        Path data = target.resolve(BackupManifest.DATA_FILE);
        Thread watcher = Thread.ofPlatform()
                .name("larch-backup-progress")
                .daemon()
                .start(() -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            if (Files.exists(data)) {
                                progress.advanceTo(Files.size(data) >> 20);
                            }
                            Thread.sleep(200);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (IOException e) {
                        // The copy itself reports a file it cannot write.
                    }
                });
        try {
            source.store().copyCompacted(target);
        } finally {
            watcher.interrupt();
            try {
                watcher.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        progress.advanceTo(Files.size(data) >> 20);
        progress.finish();
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
