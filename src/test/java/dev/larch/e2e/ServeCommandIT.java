package dev.larch.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./larch serve}: the listening line, the admin password's life cycle, SIGTERM and restarts. */
class ServeCommandIT {
    @TempDir
    Path data;

    @Test
    void serveListensOnTheGivenPortAndSaysSoInOneLine() throws Exception {
        int port = LarchProcess.freePort();
        try (LarchProcess server =
                LarchProcess.serve(data).port(port).adminPassword("pw").start()) {
            assertEquals(port, server.port(), server.output());
            assertEquals(
                    1,
                    server.stdoutLines().stream()
                            .filter(line -> line.equals("Larch listening on ldap://127.0.0.1:" + port))
                            .count(),
                    server.output());
            assertEquals(0, server.stop(), server.output());
        }
    }

    @Test
    void firstStartGeneratesAPasswordPrintsItOnceAndStoresOnlyItsHashOwnerReadable() throws Exception {
        String password;
        try (LarchProcess first = LarchProcess.serve(data).start()) {
            password = first.generatedPassword()
                    .orElseThrow(() -> new AssertionError("no generated password printed\n" + first.output()));
            Path stored = data.resolve("admin-password");
            assertTrue(Files.exists(stored), "no " + stored);
            assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(stored));
            String content = Files.readString(stored, StandardCharsets.US_ASCII);
            assertFalse(content.contains(password), "the file holds the cleartext: " + content);
            assertTrue(content.startsWith("{"), "not a {SCHEME}hash: " + content);

            LdapUtils ldap = LdapUtils.anonymous(first.port());
            ProcessResult whoami = ldap.asAdmin(password).ldapwhoami();
            assertEquals(0, whoami.exitCode(), whoami.describe());
            assertEquals("dn:" + TestData.ADMIN_DN + "\n", whoami.out());
            assertEquals(0, first.stop(), first.output());
        }

        try (LarchProcess second = LarchProcess.serve(data).start()) {
            assertTrue(second.generatedPassword().isEmpty(), second.output());
            assertTrue(second.stdoutLines().stream().noneMatch(line -> line.contains(password)), second.output());
            LdapUtils ldap = LdapUtils.anonymous(second.port());
            ProcessResult whoami = ldap.asAdmin(password).ldapwhoami();
            assertEquals(0, whoami.exitCode(), whoami.describe());
            assertEquals(0, second.stop(), second.output());
        }
    }

    /** A config file with the administrator's password that every local user can read is worth a warning. */
    @Test
    void aWorldReadableConfigHoldingTheAdminPasswordIsWarnedAboutAndTheAccessLogIsPrivate(@TempDir Path etc)
            throws Exception {
        Path log = etc.resolve("logs").resolve("access.log");
        Path config = Files.writeString(
                etc.resolve("larch.conf"),
                "security.admin-password = config-secret\nlogging.access-log-file = " + log + "\n");
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));
        String warning = "the config file " + config + " holds security.admin-password and every user of this"
                + " machine may read it: chmod 600 " + config;
        try (LarchProcess server =
                LarchProcess.serve(data).config(config).umask("022").start()) {
            assertTrue(server.stdoutLines().stream().anyMatch(line -> line.endsWith(warning)), server.output());
            ProcessResult whoami =
                    LdapUtils.anonymous(server.port()).asAdmin("config-secret").ldapwhoami();
            assertEquals(0, whoami.exitCode(), whoami.describe());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
            assertEquals(0, server.stop(), server.output());
        }
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
        try (LarchProcess server = LarchProcess.serve(data).config(config).start()) {
            assertTrue(
                    server.stdoutLines().stream().noneMatch(line -> line.contains("every user of this machine")),
                    server.output());
            assertEquals(0, server.stop(), server.output());
        }
    }

    @Test
    void adminPasswordFromTheEnvironmentTakesEffect() throws Exception {
        try (LarchProcess server =
                LarchProcess.serve(data).adminPassword("from-the-env").start()) {
            assertTrue(server.generatedPassword().isEmpty(), server.output());
            assertFalse(Files.exists(data.resolve("admin-password")), "a password was stored though the env set one");
            LdapUtils ldap = LdapUtils.anonymous(server.port());
            ProcessResult right = ldap.asAdmin("from-the-env").ldapwhoami();
            assertEquals(0, right.exitCode(), right.describe());
            ProcessResult wrong = ldap.asAdmin("something-else").ldapwhoami();
            assertEquals(49, wrong.exitCode(), wrong.describe());
            assertEquals(0, server.stop(), server.output());
        }
    }

    @Test
    void sigtermExitsZeroPromptlyLogsThatItStoppedAndTheDataSurvivesARestart() throws Exception {
        String people = "ou=people," + TestData.SUFFIX;
        try (LarchProcess server = LarchProcess.serve(data).adminPassword("pw").start()) {
            LdapUtils admin = LdapUtils.anonymous(server.port()).asAdmin("pw");
            ProcessResult add = admin.ldapaddLdif(TestData.PEOPLE_LDIF + "\n" + TestData.person("ann", people) + "\n"
                    + TestData.person("ben", people));
            assertEquals(0, add.exitCode(), add.describe());

            long before = System.nanoTime();
            int exit = server.stop();
            Duration took = Duration.ofNanos(System.nanoTime() - before);
            assertEquals(0, exit, "exit code after SIGTERM\n" + server.output());
            assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "stopping took " + took);
            assertTrue(server.stdoutLines().stream().anyMatch(line -> line.endsWith("Larch stopped")), server.output());
        }

        try (LarchProcess again = LarchProcess.serve(data).adminPassword("pw").start()) {
            assertTrue(
                    again.stdoutLines().stream().anyMatch(line -> line.contains("(4 entries")),
                    "the start-up summary should count 4 entries\n" + again.output());
            LdapUtils ldap = LdapUtils.anonymous(again.port());
            assertEquals(List.of("uid=ann," + people, "uid=ben," + people), ldap.dns(people, "one", "(uid=*)"));
            assertEquals(0, again.stop(), again.output());
        }
    }
}
