package dev.larch.server.maintenance;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import dev.larch.config.LarchConfig;
import dev.larch.server.DataDirectoryLock;
import dev.larch.server.StoredDirectory;
import dev.larch.server.store.FileSync;
import dev.larch.server.store.OwnerOnlyFiles;
import dev.larch.server.store.StoreException;
import dev.larch.server.store.StoreFormat;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * Puts a {@link Backup} back as a data directory's store, after proving it sound; until every check
 * passed nothing in the data directory changes, and the swap itself is one rename.
 *
 * <p>Checks, in order: the data directory is not in use (a server or an import holds its lock); the
 * manifest is there and of this store format or the one before ({@link StoreFormat#UPGRADABLE}); the
 * copy's data file has the manifest's size and SHA-256 (so a truncated file is refused before it is
 * mapped, which could fault); its suffix is the configured one; then the copy is opened read-only and
 * verified entry by entry and index by index ({@link StoreVerifier}). A backup of the format before
 * is first copied into a staging directory inside the data directory and upgraded there, as a
 * server's first start upgrades a store, then verified; the staging directory goes whether the
 * restore succeeds or not, and the live store is untouched until the swap.
 */
public final class Restore {
    /** The staging directory, inside the data directory, where a format 4 backup is upgraded. */
    static final String STAGING = "restoring";

    private Restore() {}

    /**
     * @param config the configuration of the server the store is for: its suffix and data directory
     * @param progress where progress lines of the verification go, or null
     * @throws MaintenanceException naming the first check that failed; the data directory is untouched
     */
    @SuppressWarnings("try") // the lock is held until the new store is in place, never read
    public static BackupManifest run(LarchConfig config, SchemaManager schema, Path backup, PrintStream progress)
            throws IOException {
        Path dataDir = config.storage().dataDir();
        try (DataDirectoryLock lock = DataDirectoryLock.acquire(dataDir, "restore")) {
            BackupManifest manifest = check(config, schema, backup);
            if (manifest.format() == StoreFormat.VERSION) {
                verify(config, schema, backup, manifest, progress);
                replace(backup.resolve(BackupManifest.DATA_FILE), dataDir);
                return manifest;
            }
            Path upgraded = upgrade(config, schema, backup, progress);
            try {
                verify(config, schema, upgraded, manifest, progress);
                // Already beside the live store: swapped in as it is, not copied a second time.
                swapIn(upgraded.resolve(BackupManifest.DATA_FILE), dataDir);
            } finally {
                deleteStaging(upgraded);
            }
            return manifest;
        }
    }

    /**
     * A backup of format {@value StoreFormat#UPGRADABLE}, copied into a staging directory inside the
     * data directory (the backup itself is never written) and upgraded there as a server's first start
     * would upgrade it: its DN-valued equality indexes built again with this format's keys.
     */
    private static Path upgrade(LarchConfig config, SchemaManager schema, Path backup, PrintStream progress)
            throws IOException {
        Path staging = config.storage().dataDir().resolve(STAGING);
        deleteStaging(staging);
        OwnerOnlyFiles.createDirectory(staging);
        try {
            copyOwnerOnly(backup.resolve(BackupManifest.DATA_FILE), staging.resolve(BackupManifest.DATA_FILE));
            if (progress != null) {
                progress.println("larch: the backup holds store format " + StoreFormat.UPGRADABLE
                        + "; upgrading a copy of it to format " + StoreFormat.VERSION + " before it is verified");
            }
            try {
                StoredDirectory.open(config.withDataDir(staging), schema, true).close();
            } catch (StoreException e) {
                throw new MaintenanceException(
                        "the backup's store could not be upgraded: " + e.getMessage() + "; nothing was restored");
            }
            return staging;
        } catch (IOException | RuntimeException e) {
            deleteStaging(staging);
            throw e;
        }
    }

    private static void deleteStaging(Path staging) throws IOException {
        if (!Files.isDirectory(staging)) {
            return;
        }
        try (var files = Files.list(staging)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(staging);
    }

    private static BackupManifest check(LarchConfig config, SchemaManager schema, Path backup) throws IOException {
        if (!Files.isDirectory(backup)) {
            throw new MaintenanceException(backup + " is not a backup directory");
        }
        BackupManifest manifest = BackupManifest.read(backup);
        if (manifest.format() != StoreFormat.VERSION && manifest.format() != StoreFormat.UPGRADABLE) {
            throw new MaintenanceException("the backup holds store format " + manifest.format() + "; this Larch reads "
                    + StoreFormat.VERSION + " (and upgrades " + StoreFormat.UPGRADABLE
                    + "). Restore it with the Larch that took it, export there and import here");
        }
        Path data = backup.resolve(BackupManifest.DATA_FILE);
        if (!Files.isRegularFile(data)) {
            throw new MaintenanceException(backup + " has no " + BackupManifest.DATA_FILE);
        }
        long size = Files.size(data);
        if (size != manifest.bytes() || !BackupManifest.sha256(data).equals(manifest.sha256())) {
            throw new MaintenanceException(data + " is not the file its manifest describes (" + size + " bytes, "
                    + manifest.bytes() + " recorded): truncated or altered; nothing was restored");
        }
        if (!sameDn(manifest.suffix(), config.suffix(), schema)) {
            throw new MaintenanceException(
                    "the backup holds suffix " + manifest.suffix() + " but this server's suffix is " + config.suffix()
                            + " (set suffix in the config, or use --config)");
        }
        return manifest;
    }

    /** Opens the store in {@code store} read-only and verifies it against {@code manifest}. */
    private static void verify(
            LarchConfig config, SchemaManager schema, Path store, BackupManifest manifest, PrintStream progress)
            throws IOException {
        Path data = store.resolve(BackupManifest.DATA_FILE);
        try (StoredDirectory copy = openCopy(config, schema, store)) {
            if (copy.store().usedBytes() > Files.size(data)) {
                throw new MaintenanceException(data + " is shorter than its pages: truncated");
            }
            VerifyReport report = new StoreVerifier(
                            copy.directory(),
                            progress,
                            config.storage().importSortMemoryBytes(),
                            Runtime.getRuntime().availableProcessors())
                    .verify();
            if (report.entries() != manifest.entries()) {
                throw new MaintenanceException(
                        "the backup holds " + report.entries() + " entries; its manifest says " + manifest.entries());
            }
            if (!report.clean()) {
                throw new MaintenanceException("the backup fails verification (" + report.problems()
                        + " disagreements), first: " + report.listed().get(0));
            }
        }
    }

    private static StoredDirectory openCopy(LarchConfig config, SchemaManager schema, Path backup) {
        try {
            return StoredDirectory.openReadOnly(config.withDataDir(backup), schema, true);
        } catch (StoreException e) {
            throw new MaintenanceException(e.getMessage() + "; nothing was restored");
        }
    }

    private static boolean sameDn(String a, String b, SchemaManager schema) {
        try {
            return new Dn(schema, a).equals(new Dn(schema, b));
        } catch (LdapInvalidDnException e) {
            return false;
        }
    }

    /**
     * Copies the checked data file beside the live one, syncs it, then renames it over: a crash leaves
     * either the old store or the new one. LMDB's lock file describes the old store's readers and goes.
     */
    private static void replace(Path source, Path dataDir) throws IOException {
        Path staged = dataDir.resolve(BackupManifest.DATA_FILE + ".restoring");
        Files.deleteIfExists(staged);
        copyOwnerOnly(source, staged);
        swapIn(staged, dataDir);
    }

    /** Copies {@code source} to {@code target}, which only its owner may read. */
    private static void copyOwnerOnly(Path source, Path target) throws IOException {
        try (var in = Files.newInputStream(source);
                var out = OwnerOnlyFiles.newOutputStream(target)) {
            in.transferTo(out);
        }
    }

    /**
     * Syncs {@code staged}, a data file on the data directory's file system, renames it over the live
     * one, and syncs the directory so that the rename, too, outlives a crash.
     */
    private static void swapIn(Path staged, Path dataDir) throws IOException {
        FileSync.file(staged);
        Files.deleteIfExists(dataDir.resolve("lock.mdb"));
        Files.move(
                staged,
                dataDir.resolve(BackupManifest.DATA_FILE),
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        FileSync.directory(dataDir);
    }
}
