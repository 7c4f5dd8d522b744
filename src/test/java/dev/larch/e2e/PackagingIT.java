package dev.larch.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The files that run Larch as a service: the systemd unit, the container image and the launcher both
 * use ({@code packaging/}). Tools that are not installed skip their test: systemd-analyze is needed
 * for the unit, a Docker engine ({@code docker info} succeeds) for the image build.
 */
class PackagingIT {
    /** The repository, seen from this module's directory (where Failsafe runs). */
    private static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();

    private static final Path LAUNCHER = ROOT.resolve("packaging/bin/larch-server");

    @TempDir
    Path dir;

    @Test
    void theSystemdUnitVerifiesWithoutAWarning() throws Exception {
        assumeTrue(RequiredTool.onPath("systemd-analyze"), "systemd-analyze is not installed");
        String unit = Files.readString(ROOT.resolve("packaging/systemd/larch.service"));
        assertTrue(unit.contains("ExecStart=/opt/larch/bin/larch-server serve"), unit);
        // systemd-analyze checks that ExecStart exists: point it at the launcher in this tree.
        Path copy = dir.resolve("larch.service");
        Files.writeString(copy, unit.replace("/opt/larch/bin/larch-server", LAUNCHER.toString()));
        ProcessResult r = ProcessResult.run(
                List.of("systemd-analyze", "verify", copy.toString()), Map.of(), dir, Duration.ofSeconds(60));
        assertEquals(0, r.exitCode(), r.describe());
        // It reports unknown keys and bad values on its output but still exits 0.
        assertEquals("", (r.out() + r.err()).strip(), r.describe());
    }

    @Test
    void aBrokenUnitIsCaughtByTheSameCheck() throws Exception {
        assumeTrue(RequiredTool.onPath("systemd-analyze"), "systemd-analyze is not installed");
        Path copy = dir.resolve("larch.service");
        Files.writeString(
                copy,
                Files.readString(ROOT.resolve("packaging/systemd/larch.service"))
                        .replace("/opt/larch/bin/larch-server", LAUNCHER.toString())
                        .replace("NoNewPrivileges=yes", "NoNewPrivileges=perhaps"));
        ProcessResult r = ProcessResult.run(
                List.of("systemd-analyze", "verify", copy.toString()), Map.of(), dir, Duration.ofSeconds(60));
        assertTrue((r.out() + r.err()).contains("perhaps"), r.describe());
    }

    @Test
    void theImageBuildsWhereADockerEngineRuns() throws Exception {
        assumeTrue(RequiredTool.onPath("docker"), "the docker command is not installed");
        ProcessResult info = ProcessResult.run(List.of("docker", "info"), Map.of(), dir, Duration.ofSeconds(60));
        assumeTrue(info.exitCode() == 0, "no Docker engine answers 'docker info'");
        ProcessResult build = ProcessResult.run(
                List.of("docker", "build", "-f", "packaging/docker/Dockerfile", "-t", "larch:packaging-it", "."),
                Map.of(),
                ROOT,
                Duration.ofMinutes(20));
        assertEquals(0, build.exitCode(), build.describe());
    }

    /**
     * The container's entry point, run here without Docker: the launcher with the image's environment,
     * the admin password from a secret file named by LARCH_ADMIN_PASSWORD_FILE, the config file from
     * LARCH_CONFIG and the data in LARCH_DATA. The suffix exists at once (storage.create-suffix).
     */
    @Test
    void theLauncherServesWithTheAdminPasswordFromASecretFile() throws Exception {
        Path secret = Files.writeString(dir.resolve("admin-secret"), "from-the-secret-file\n");
        Path conf = Files.writeString(dir.resolve("larch.conf"), "listen.host = 127.0.0.1\n");
        Path data = dir.resolve("data");
        try (LarchProcess server = LarchProcess.serve(data)
                .launchedBy(LAUNCHER)
                .env("LARCH_CONFIG", conf.toString())
                .env("LARCH_ADMIN_PASSWORD_FILE", secret.toString())
                .start()) {
            try (LDAPConnection admin =
                    new LDAPConnection("127.0.0.1", server.port(), TestData.ADMIN_DN, "from-the-secret-file")) {
                assertNotNull(admin.getEntry(TestData.SUFFIX), "the suffix was created at the first start");
            }
            LDAPException wrong = assertThrows(
                    LDAPException.class,
                    () -> new LDAPConnection("127.0.0.1", server.port(), TestData.ADMIN_DN, "from-the-secret-file\n"));
            assertEquals(ResultCode.INVALID_CREDENTIALS, wrong.getResultCode());
            assertEquals(0, server.stop(), server.output());
        }
        assertTrue(Files.exists(data.resolve("data.mdb")), "LARCH_DATA is the data directory");
        assertFalse(Files.exists(data.resolve("admin-password")), "a password from a secret file is not stored");
    }
}
