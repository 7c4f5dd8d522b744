package dev.larch.e2e;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldif.LDIFReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./larch reload} and SIGHUP against a real server process: the new size limit answers the
 * next search; a bad file leaves the old one in force.
 */
class ReloadIT {
    private static final String PEOPLE = "ou=people," + TestData.SUFFIX;

    @TempDir
    Path dir;

    @Test
    void reloadAppliesANewSizeLimitAndABadFileLeavesTheOldOneInForce() throws Exception {
        Path conf = dir.resolve("larch.conf");
        Files.writeString(conf, "limits.apply-to-admin = true\nlimits.size-limit = 3\n");
        Path data = dir.resolve("data");
        try (LarchProcess server =
                LarchProcess.serve(data).config(conf).adminPassword("pw").start()) {
            try (LDAPConnection admin = new LDAPConnection("127.0.0.1", server.port(), TestData.ADMIN_DN, "pw")) {
                StringBuilder ldif = new StringBuilder(TestData.PEOPLE_LDIF).append('\n');
                for (int i = 0; i < 8; i++) {
                    ldif.append(TestData.person("r" + i, PEOPLE)).append('\n');
                }
                try (LDIFReader reader = new LDIFReader(new BufferedReader(new StringReader(ldif.toString())))) {
                    for (var e = reader.readEntry(); e != null; e = reader.readEntry()) {
                        admin.add(e);
                    }
                }
            }
            assertEquals(3, entriesBeforeTheSizeLimit(server));

            Files.writeString(conf, "limits.apply-to-admin = true\nlimits.size-limit = 5\n");
            ProcessResult reload = LarchProcess.run("reload", "--data", data.toString());
            assertEquals(0, reload.exitCode(), reload.describe());
            awaitOutput(server, "limits.size-limit = 5 (was 3): applied");
            assertEquals(5, entriesBeforeTheSizeLimit(server));

            // A plain kill -HUP does the same; a file that does not parse changes nothing.
            Files.writeString(conf, "limits.apply-to-admin = true\nlimits.size-limit = 7\nlimits.colour = blue\n");
            Process hup = new ProcessBuilder("kill", "-HUP", Long.toString(server.pid())).start();
            assertEquals(0, hup.waitFor());
            awaitOutput(server, "failed, the running configuration stays in force");
            assertTrue(server.output().contains("limits.colour"), server.output());
            assertEquals(5, entriesBeforeTheSizeLimit(server));
            assertTrue(server.isAlive(), "SIGHUP does not stop the server");
            assertEquals(0, server.stop(), server.output());
        }
        List<String> pidFiles;
        try (var files = Files.list(data)) {
            pidFiles = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("larch.pid"))
                    .toList();
        }
        assertEquals(List.of(), pidFiles, "the pid file goes with the server");
    }

    @Test
    void reloadWithoutAServerSaysSo() throws Exception {
        Path data = Files.createDirectories(dir.resolve("idle"));
        ProcessResult r = LarchProcess.run("reload", "--data", data.toString());
        assertEquals(1, r.exitCode(), r.describe());
        assertTrue(r.err().contains("no server runs on"), r.describe());
        ProcessResult missing =
                LarchProcess.run("reload", "--data", dir.resolve("nowhere").toString());
        assertEquals(1, missing.exitCode(), missing.describe());
        assertFalse(Files.exists(dir.resolve("nowhere")), "reload creates no data directory");
    }

    private static int entriesBeforeTheSizeLimit(LarchProcess server) throws Exception {
        try (LDAPConnection admin = new LDAPConnection("127.0.0.1", server.port(), TestData.ADMIN_DN, "pw")) {
            LDAPSearchException e = assertThrows(
                    LDAPSearchException.class,
                    () -> admin.search(PEOPLE, SearchScope.ONE, "(objectClass=inetOrgPerson)"));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            return e.getEntryCount();
        }
    }

    /**
     * A server started with SIGHUP ignored (under nohup) cannot install a handler: it says so at start,
     * and {@code ./larch reload} says it cannot reach it instead of "sent".
     */
    @Test
    void aServerStartedIgnoringHangupIsToldApartFromOneThatReloads() throws Exception {
        Path conf = dir.resolve("nohup.conf");
        Files.writeString(conf, "limits.apply-to-admin = true\nlimits.size-limit = 3\n");
        Path data = dir.resolve("nohup-data");
        try (LarchProcess server = LarchProcess.serve(data)
                .config(conf)
                .adminPassword("pw")
                .ignoringHangup()
                .start()) {
            awaitOutput(server, "SIGHUP is ignored in this process");
            ProcessResult reload = LarchProcess.run("reload", "--data", data.toString());
            assertEquals(1, reload.exitCode(), reload.describe());
            assertTrue(reload.err().contains("ignores SIGHUP") && reload.err().contains("restart"), reload.describe());
            assertTrue(server.isAlive());
        }
    }

    private static void awaitOutput(LarchProcess server, String text) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!server.output().contains(text) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(server.output().contains(text), "waited for '" + text + "'\n" + server.output());
    }
}
