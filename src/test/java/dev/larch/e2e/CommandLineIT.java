package dev.larch.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mistakes on the command line and in the config file: each ends the command with a non-zero exit
 * and one line on standard error that names the option, key or file, never a stack trace.
 */
class CommandLineIT {
    @TempDir
    Path dir;

    /** Asserts the exit code and that standard error is the one line {@code larch: ...} containing {@code names}. */
    private static String assertOneLineError(int exitCode, String names, ProcessResult r) {
        assertEquals(exitCode, r.exitCode(), r.describe());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), "expected exactly one line on stderr\n" + r.describe());
        String line = lines.get(0);
        assertTrue(line.startsWith("larch: "), line);
        assertTrue(line.contains(names), "the message should name '" + names + "': " + line);
        assertEquals("", r.out(), r.describe());
        return line;
    }

    private Path config(String content) throws IOException {
        Path file = Files.createTempFile(dir, "larch-", ".conf");
        Files.writeString(file, content);
        return file;
    }

    private String data() {
        return dir.resolve("data").toString();
    }

    @Test
    void anUnknownOptionIsNamed() {
        String line = assertOneLineError(2, "'--bogus'", LarchProcess.run("serve", "--bogus", "--data", data()));
        assertEquals("larch: Unknown option: '--bogus' (see './larch serve --help')", line);
    }

    @Test
    void aPortThatIsNoNumberIsNamed() {
        assertOneLineError(2, "'--port'", LarchProcess.run("serve", "--data", data(), "--port", "abc"));
    }

    @Test
    void aPortOutOfRangeIsNamed() {
        String line = assertOneLineError(2, "--port", LarchProcess.run("serve", "--data", data(), "--port", "70000"));
        assertEquals("larch: --port: expected 0..65535, got 70000", line);
    }

    @Test
    void anUnknownCommandPointsToTheTopLevelHelp() {
        String line = assertOneLineError(2, "'frobnicate'", LarchProcess.run("frobnicate"));
        assertTrue(line.endsWith("(see './larch --help')"), line);
    }

    @Test
    void anUnknownConfigKeyIsNamed() throws IOException {
        Path conf = config("listen.port = 0\nlisten.colour = blue\n");
        String line = assertOneLineError(
                1, "listen.colour", LarchProcess.run("serve", "--config", conf.toString(), "--data", data()));
        assertEquals("larch: " + conf + ": listen.colour: unknown key", line);
    }

    @Test
    void aBadConfigValueIsNamedWithItsKey() throws IOException {
        Path conf = config("listen.max-pdu-size = 12q\n");
        String line = assertOneLineError(
                1, "listen.max-pdu-size", LarchProcess.run("serve", "--config", conf.toString(), "--data", data()));
        assertTrue(line.endsWith("got '12q'"), line);
    }

    @Test
    void aBadBooleanInTheConfigIsNamedWithItsKey() throws IOException {
        Path conf = config("storage.durable-writes = maybe\n");
        assertOneLineError(
                1, "storage.durable-writes", LarchProcess.run("serve", "--config", conf.toString(), "--data", data()));
    }

    @Test
    void aMissingConfigFileIsNamed() {
        Path missing = dir.resolve("missing.conf");
        assertOneLineError(
                1, missing.toString(), LarchProcess.run("serve", "--config", missing.toString(), "--data", data()));
    }

    @Test
    void anIndexOnAnAttributeTheSchemaLacksIsNamedWithItsKey() throws IOException {
        Path conf = config("index.fooBar = equality\n");
        assertOneLineError(
                1,
                "index.fooBar",
                LarchProcess.run("serve", "--config", conf.toString(), "--data", data(), "--port", "0"));
    }

    @Test
    void aPortInUseIsNamedWithTheAddress() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            String line = assertOneLineError(
                    1,
                    "127.0.0.1:" + port,
                    LarchProcess.run("serve", "--data", data(), "--port", Integer.toString(port)));
            assertTrue(line.toLowerCase(Locale.ROOT).contains("address already in use"), line);
        }
    }

    @Test
    void aSecondServerOnTheSameDataDirectoryRefuses() {
        try (LarchProcess first =
                LarchProcess.serve(dir.resolve("data")).adminPassword("pw").start()) {
            String line = assertOneLineError(
                    1,
                    "in use by another Larch process (pid " + first.pid() + ")",
                    LarchProcess.run(Map.of("LARCH_ADMIN_PASSWORD", "pw"), "serve", "--data", data(), "--port", "0"));
            assertTrue(line.startsWith("larch: cannot start the server: data directory "), line);
            assertTrue(first.isAlive());
            assertEquals(0, first.stop(), first.output());
        }
    }

    @Test
    void importWithoutAFileAsksForIt() {
        assertOneLineError(2, "FILE.ldif", LarchProcess.run("import", "--data", data()));
    }

    @Test
    void importOfAFileThatCannotBeReadNamesIt() {
        Path missing = dir.resolve("missing.ldif");
        assertOneLineError(2, missing.toString(), LarchProcess.run("import", "--data", data(), missing.toString()));
    }

    @Test
    void exportWithoutADataDirectoryNamesIt() {
        assertOneLineError(2, data(), LarchProcess.run("export", "--data", data()));
    }

    @Test
    void configCheckPrintsTheEffectiveSettingsWithSecretsMasked() throws IOException {
        Path conf = config("listen.port = 2389\nsecurity.admin-password = hunter2-secret\n");
        ProcessResult r = LarchProcess.run("config", "check", "--config", conf.toString());
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("\nlisten.port = 2389\n"), r.describe());
        assertTrue(r.out().contains("\nsecurity.admin-password = ***\n"), r.describe());
        assertTrue(r.out().contains("\nlimits.size-limit = 500    # default\n"), r.describe());
        assertTrue(!r.out().contains("hunter2") && !r.err().contains("hunter2"), r.describe());
    }

    @Test
    void configCheckRefusesWhatTheServerWouldRefuseNamingTheKey() throws IOException {
        Path conf = config("limits.worker-queue = -1\n");
        String line = assertOneLineError(
                1, "limits.worker-queue", LarchProcess.run("config", "check", "--config", conf.toString()));
        assertEquals(
                "larch: config check: " + conf + ": limits.worker-queue: expected an integer 0..1000000, got '-1'",
                line);
    }

    @Test
    void configDescribeTellsWhatAKeyDoesAndAnUnknownOneIsNamed() {
        ProcessResult r = LarchProcess.run("config", "describe", "limits.size-limit");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(
                r.out()
                        .startsWith("limits.size-limit\n  value:   an integer 0..2147483647\n  default: 500\n"
                                + "  applies: at a reload"),
                r.describe());
        assertTrue(r.out().contains("Most entries one search returns"), r.describe());
        assertOneLineError(2, "'limits.colour'", LarchProcess.run("config", "describe", "limits.colour"));
    }
}
