package dev.larch.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.unboundid.ldap.sdk.LDAPConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./larch backup} and {@code ./larch export} run as their own processes beside a server
 * that is adding, renaming and deleting entries, as an operator would run them: the backup restores
 * to a store holding every write acknowledged before it started, the export imports back whole, and
 * both resulting stores pass {@code ./larch verify}.
 */
class OnlineCopiesIT {
    static final GeneratedTree TREE = new GeneratedTree(500, 5);

    @TempDir
    Path dir;

    @Test
    void backupAndExportTakenUnderWritesGiveSoundStores() throws Exception {
        Path ldif = dir.resolve("generated.ldif");
        TREE.write(ldif);
        Path live = dir.resolve("live");
        ProcessResult loaded = LarchProcess.run("import", "--data", live.toString(), ldif.toString());
        assertEquals(0, loaded.exitCode(), loaded.describe());

        Path backup = dir.resolve("backup");
        Path export = dir.resolve("export.ldif");
        List<String> ackedBeforeBackup;
        AtomicInteger acknowledged = new AtomicInteger();
        try (LarchProcess server =
                LarchProcess.serve(live).adminPassword("pw").withoutSelfWarmUp().start()) {
            Writer writer = new Writer(server.port(), acknowledged);
            Thread thread = new Thread(writer, "online-copies-writer");
            thread.start();
            try {
                awaitAcknowledged(acknowledged, 50, thread);
                ackedBeforeBackup = writer.untouchedSoFar();
                ProcessResult backedUp = LarchProcess.run("backup", "--data", live.toString(), backup.toString());
                assertEquals(0, backedUp.exitCode(), backedUp.describe());
                int atExportStart = acknowledged.get();
                ProcessResult exported = LarchProcess.run("export", "--data", live.toString(), export.toString());
                assertEquals(0, exported.exitCode(), exported.describe());
                assertTrue(
                        acknowledged.get() > atExportStart || !thread.isAlive(),
                        "the writer kept writing during the export");
            } finally {
                writer.stop();
                thread.join();
            }
            assertNull(writer.failure(), () -> "the writer failed: " + writer.failure());
            server.stop();
        }
        assertTrue(acknowledged.get() > 50, "writes acknowledged: " + acknowledged.get());

        Path restored = dir.resolve("restored");
        ProcessResult restore = LarchProcess.run("restore", backup.toString(), "--data", restored.toString());
        assertEquals(0, restore.exitCode(), restore.describe());
        assertVerifiesClean(restored);
        Set<String> restoredDns = dns(exportOf(restored));
        for (String dn : ackedBeforeBackup) {
            assertTrue(restoredDns.contains(dn), "acknowledged before the backup but not restored: " + dn);
        }

        Path reimported = dir.resolve("reimported");
        ProcessResult imported = LarchProcess.run("import", "--data", reimported.toString(), export.toString());
        assertEquals(0, imported.exitCode(), imported.describe());
        assertVerifiesClean(reimported);
        assertEquals(dns(Files.readString(export)), dns(exportOf(reimported)), "the re-imported tree is the export");
    }

    private static void awaitAcknowledged(AtomicInteger acknowledged, int count, Thread writer)
            throws InterruptedException {
        while (acknowledged.get() < count && writer.isAlive()) {
            Thread.sleep(20);
        }
    }

    private static void assertVerifiesClean(Path data) {
        ProcessResult verify = LarchProcess.run("verify", "--data", data.toString());
        assertEquals(0, verify.exitCode(), verify.describe());
    }

    private String exportOf(Path data) throws IOException {
        Path file = Files.createTempFile(dir, "export", ".ldif");
        ProcessResult exported = LarchProcess.run("export", "--data", data.toString(), file.toString());
        assertEquals(0, exported.exitCode(), exported.describe());
        return Files.readString(file);
    }

    private static Set<String> dns(String ldif) {
        Set<String> dns = new HashSet<>();
        ldif.lines().filter(l -> l.startsWith("dn: ")).forEach(l -> dns.add(l.substring(4)));
        return dns;
    }

    /**
     * Adds people; after every third add it renames the one before and deletes the one before that,
     * so copies meet adds, renames and deletes in flight. Every third person is never touched again:
     * those are the writes a backup taken later must hold.
     */
    private static final class Writer implements Runnable {
        private final int port;
        private final AtomicInteger acknowledged;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicReference<Exception> failure = new AtomicReference<>();
        private final List<String> untouched = new ArrayList<>();

        Writer(int port, AtomicInteger acknowledged) {
            this.port = port;
            this.acknowledged = acknowledged;
        }

        private static String dn(String rdn) {
            return rdn + "," + TREE.unitDn(0);
        }

        @Override
        public void run() {
            try (LDAPConnection c = new LDAPConnection("127.0.0.1", port, TestData.ADMIN_DN, "pw")) {
                for (int n = 0; running.get() && n < 20_000; n++) {
                    c.add("dn: " + dn("uid=w" + n), "objectClass: inetOrgPerson", "uid: w" + n, "cn: W " + n, "sn: W");
                    if (n % 3 == 2) {
                        c.modifyDN(dn("uid=w" + (n - 1)), "uid=r" + (n - 1), true);
                        c.delete(dn("uid=w" + (n - 2)));
                        synchronized (untouched) {
                            untouched.add(dn("uid=w" + n));
                        }
                    }
                    acknowledged.incrementAndGet();
                }
            } catch (Exception e) {
                failure.set(e);
            }
        }

        List<String> untouchedSoFar() {
            synchronized (untouched) {
                return List.copyOf(untouched);
            }
        }

        void stop() {
            running.set(false);
        }

        Exception failure() {
            return failure.get();
        }
    }
}
