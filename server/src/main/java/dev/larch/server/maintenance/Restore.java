package dev.larch.server.maintenance;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

import dev.larch.config.LarchConfig;
import dev.larch.server.DataDirectoryLock;
import dev.larch.server.StoredDirectory;
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
 * manifest is there and of this store format; the copy's data file has the manifest's size and
 * SHA-256 (so a truncated file is refused before it is mapped, which could fault); its suffix is the
 * configured one; then the copy is opened read-only and verified entry by entry and index by index
 * ({@link StoreVerifier}).
 */
public final class Restore {
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
            BackupManifest manifest = check(config, schema, backup, progress);
            replace(backup.resolve(BackupManifest.DATA_FILE), dataDir);
            return manifest;
        }
    }

    private static BackupManifest check(LarchConfig config, SchemaManager schema, Path backup, PrintStream progress)
            throws IOException {
        if (!Files.isDirectory(backup)) {
            throw new MaintenanceException(backup + " is not a backup directory");
        }
        BackupManifest manifest = BackupManifest.read(backup);
        if (manifest.format() != StoreFormat.VERSION) {
            throw new MaintenanceException("the backup holds store format " + manifest.format() + "; this Larch reads "
                    + StoreFormat.VERSION + ". Restore it with the Larch that took it, export there and import here");
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
        try (StoredDirectory copy = openCopy(config, schema, backup)) {
            if (copy.store().usedBytes() > size) {
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
        return manifest;
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
        try (var in = Files.newInputStream(source);
                var out = OwnerOnlyFiles.newOutputStream(staged)) {
            in.transferTo(out);
        }
        try (FileChannel channel = FileChannel.open(staged, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.deleteIfExists(dataDir.resolve("lock.mdb"));
        Files.move(
                staged,
                dataDir.resolve(BackupManifest.DATA_FILE),
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }
}
