package dev.larch.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.larch.e2e.sync.SlapdServer;
import dev.larch.e2e.sync.SyncProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Unmodified slapd consumers (refreshAndPersist and refreshOnly) replicate from Larch: the initial
 * refresh of a 20,000-entry tree, changes while they run, and changes while they are killed with
 * SIGKILL, within the change log and beyond it (the log is kept as short as the slapd provider's
 * session log in {@link SlapdToSlapdSyncIT}, so the last round is served as a present phase), each
 * step ending with the trees compared entry by entry, operational stamps included.
 */
class LarchProviderSyncIT {
    private static final String PASSWORD = "provider-secret";

    /** Kept when the test fails: the consumers' slapd.conf and slapd.log, the provider's output. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    static void slapdIsInstalled() {
        RequiredTool.check(SlapdServer.installed(), "slapd", "apt-get install -y slapd");
    }

    /** Imports the tree with {@code ./larch import}, then serves it with {@code ./larch serve}. */
    private static SyncProvider larch(Path dir, Path ldif) throws IOException {
        Files.createDirectories(dir);
        Path config = dir.resolve("larch.conf");
        // No self-warm-up: over 20,000 entries it would take up to 30 s before the port opens.
        Files.writeString(
                config,
                "replication.changelog-max-changes = " + ProviderSyncScenario.SESSION_LOG
                        + "\nserver.warm-up-seconds = 0\n");
        Path data = dir.resolve("data");
        ProcessResult imported =
                LarchProcess.run("import", "--config", config.toString(), "--data", data.toString(), ldif.toString());
        assertEquals(0, imported.exitCode(), imported::toString);
        LarchProcess server =
                LarchProcess.serve(data).config(config).adminPassword(PASSWORD).start();
        return new SyncProvider() {
            @Override
            public String name() {
                return "larch provider";
            }

            @Override
            public String url() {
                return server.url();
            }

            @Override
            public String bindDn() {
                return LarchProcess.ADMIN_DN;
            }

            @Override
            public String password() {
                return PASSWORD;
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }

    @Test
    void slapdConsumersConvergeOnALarchProviderThroughChangesAndSigkill() throws Exception {
        new ProviderSyncScenario(LarchProviderSyncIT::larch, dir).run();
    }
}
