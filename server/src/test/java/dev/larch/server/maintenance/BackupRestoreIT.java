package dev.larch.server.maintenance;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.store.FormatFourStores;
import dev.larch.server.store.StoreFormat;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A backup taken while a server writes restores to a sound store; restore refuses what it cannot trust. */
class BackupRestoreIT {
    @TempDir
    Path dir;

    private static final String GROUP = "cn=keepers,ou=groups," + TestServer.SUFFIX;

    private static String person(int n) {
        return "uid=p" + n + ",ou=people," + TestServer.SUFFIX;
    }

    private static void add(LDAPConnection c, int n) throws Exception {
        c.add("dn: " + person(n), "objectClass: inetOrgPerson", "uid: p" + n, "cn: Person " + n, "sn: P" + n);
    }

    private static BackupManifest backUp(LarchConfig config, SchemaManager schema, Path target) throws IOException {
        try (StoredDirectory open = StoredDirectory.openReadOnly(config, schema, false)) {
            return Backup.take(config, open, target, "test");
        }
    }

    /**
     * In one process: a backup of a stopped server's store restores whole, and the refusals of
     * backup and restore. Backups taken beside a writing server run as their own process, as LMDB
     * wants one environment per file per process: see the e2e {@code OnlineCopiesIT}.
     */
    @Test
    void aBackupRestoresEveryEntryAndRefusesToOverwriteOrToRestoreOverARunningServer() throws Exception {
        SchemaManager schema = LarchSchema.load(List.of());
        Path backup = dir.resolve("backup");
        LarchConfig live = TestServer.config(dir.resolve("live"));
        LarchConfig restoredConfig = TestServer.config(dir.resolve("restored"));
        try (TestServer server = TestServer.start(live)) {
            server.add(TestServer.BASE_LDIF);
            try (LDAPConnection c = server.admin()) {
                for (int n = 0; n < 200; n++) {
                    add(c, n);
                }
            }
        }
        BackupManifest manifest = backUp(live, schema, backup);
        assertEquals(3 + 200, manifest.entries(), "entries in the backup");
        MaintenanceException exists = assertThrows(MaintenanceException.class, () -> backUp(live, schema, backup));
        assertTrue(exists.getMessage().contains("never overwrites"), exists.getMessage());
        try (TestServer server = TestServer.start(restoredConfig)) {
            // A running server holds its data directory: restoring over it is refused.
            Exception inUse =
                    assertThrows(IllegalStateException.class, () -> Restore.run(server.config(), schema, backup, null));
            assertTrue(inUse.getMessage().contains("in use"), inUse.getMessage());
        }
        BackupManifest restored = Restore.run(restoredConfig, schema, backup, null);
        try (TestServer server = TestServer.start(restoredConfig);
                LDAPConnection c = server.admin()) {
            for (int n = 0; n < 200; n++) {
                assertNotNull(c.getEntry(person(n)), person(n));
            }
            assertEquals(
                    restored.entries(),
                    c.search(TestServer.SUFFIX, SearchScope.SUB, "(objectClass=*)", "1.1")
                            .getEntryCount());
        }
    }

    @Test
    void restoreRefusesATruncatedAlteredOrForeignCopyAndLeavesTheStoreAlone() throws Exception {
        SchemaManager schema = LarchSchema.load(List.of());
        LarchConfig live = TestServer.config(dir.resolve("live"));
        Path backup = dir.resolve("backup");
        try (TestServer server = TestServer.start(live)) {
            server.add(TestServer.BASE_LDIF);
        }
        backUp(live, schema, backup);
        LarchConfig target = TestServer.config(dir.resolve("target"));
        TestServer.start(target).close(); // an empty store of its own
        byte[] before = Files.readAllBytes(target.storage().dataDir().resolve("data.mdb"));

        Path truncated = copyOf(backup, "truncated");
        try (FileChannel data = FileChannel.open(truncated.resolve("data.mdb"), StandardOpenOption.WRITE)) {
            data.truncate(data.size() / 2);
        }
        assertRefused(target, schema, truncated, "truncated or altered");

        Path foreign = copyOf(backup, "foreign");
        byte[] noise = new byte[64 * 1024];
        new Random(7).nextBytes(noise);
        Files.write(foreign.resolve("data.mdb"), noise);
        rewriteManifest(
                foreign, "sha256=" + BackupManifest.sha256(foreign.resolve("data.mdb")), "bytes=" + noise.length);
        assertRefused(target, schema, foreign, "cannot read a Larch store");

        Path otherSuffix = copyOf(backup, "other-suffix");
        rewriteManifest(otherSuffix, "suffix=dc=other,dc=org");
        assertRefused(target, schema, otherSuffix, "suffix");

        Path notABackup = Files.createDirectories(dir.resolve("empty"));
        assertRefused(target, schema, notABackup, "not a Larch backup");

        assertTrue(
                Arrays.equals(
                        before, Files.readAllBytes(target.storage().dataDir().resolve("data.mdb"))),
                "a refused restore changed the store");
        assertFalse(Files.exists(target.storage().dataDir().resolve("data.mdb.restoring")));
    }

    /**
     * A backup the Larch before this store format took (format 4: DN-valued index keys as spelled) is
     * upgraded on the way in, beside the live store and without writing the backup: the restored
     * server finds a group by its member and a person by memberOf, and the staging directory is gone.
     */
    @Test
    void aBackupOfTheFormatBeforeIsUpgradedAsItIsRestored() throws Exception {
        SchemaManager schema = LarchSchema.load(List.of());
        LarchConfig old = TestServer.config(dir.resolve("old"));
        TestServer.importOffline(
                old,
                TestServer.BASE_LDIF + "\ndn: " + person(1) + "\nobjectClass: inetOrgPerson\nuid: p1\ncn: P\nsn: P\n\n"
                        + "dn: " + GROUP + "\nobjectClass: groupOfNames\ncn: keepers\nmember: " + person(1) + "\n");
        FormatFourStores.rewrite(old, schema);
        Path backup = Files.createDirectories(dir.resolve("backup-four"));
        Files.copy(old.storage().dataDir().resolve(BackupManifest.DATA_FILE), backup.resolve(BackupManifest.DATA_FILE));
        Path data = backup.resolve(BackupManifest.DATA_FILE);
        new BackupManifest(
                        StoreFormat.UPGRADABLE,
                        TestServer.SUFFIX,
                        3 + 2,
                        Files.size(data),
                        BackupManifest.sha256(data),
                        "2026-11-29T00:00:00Z",
                        "format 4")
                .write(backup);
        String sha = BackupManifest.sha256(data);

        LarchConfig target = TestServer.config(dir.resolve("target"));
        BackupManifest restored = Restore.run(target, schema, backup, null);

        assertEquals(StoreFormat.UPGRADABLE, restored.format());
        assertEquals(sha, BackupManifest.sha256(data), "the backup was written");
        assertFalse(Files.exists(target.storage().dataDir().resolve(Restore.STAGING)));
        try (TestServer server = TestServer.start(target);
                LDAPConnection c = server.admin()) {
            assertEquals(
                    List.of(GROUP),
                    c
                            .search(TestServer.SUFFIX, SearchScope.SUB, "(member=" + person(1) + ")", "1.1")
                            .getSearchEntries()
                            .stream()
                            .map(e -> e.getDN())
                            .toList());
            assertEquals(
                    1,
                    c.search(TestServer.SUFFIX, SearchScope.SUB, "(memberOf=" + GROUP + ")", "1.1")
                            .getEntryCount());
        }
    }

    private static void assertRefused(LarchConfig target, SchemaManager schema, Path backup, String why) {
        MaintenanceException refused =
                assertThrows(MaintenanceException.class, () -> Restore.run(target, schema, backup, null));
        assertTrue(refused.getMessage().contains(why), refused.getMessage());
    }

    private Path copyOf(Path backup, String name) throws IOException {
        Path copy = Files.createDirectories(dir.resolve(name));
        for (String file : List.of(BackupManifest.DATA_FILE, BackupManifest.FILE)) {
            Files.copy(backup.resolve(file), copy.resolve(file));
        }
        return copy;
    }

    /** Replaces manifest lines by key ({@code key=value}). */
    private static void rewriteManifest(Path backup, String... lines) throws IOException {
        Path file = backup.resolve(BackupManifest.FILE);
        List<String> out = new ArrayList<>(Files.readAllLines(file));
        for (String line : lines) {
            String key = line.substring(0, line.indexOf('=') + 1);
            out.removeIf(l -> l.startsWith(key));
            out.add(line.replace("=dc=", "=dc\\=").replace(",dc=", ",dc\\="));
        }
        Files.write(file, out);
    }
}
