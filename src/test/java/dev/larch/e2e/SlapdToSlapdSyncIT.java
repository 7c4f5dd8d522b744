package dev.larch.e2e;

import java.nio.file.Path;

import dev.larch.e2e.sync.SlapdServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The content-sync harness proved against slapd as the provider: the {@link ProviderSyncScenario}
 * that a Larch provider must pass, run with a syncprov slapd in its place. If this fails, the
 * harness (or the machine's slapd) is wrong, not Larch.
 */
class SlapdToSlapdSyncIT {
    /** Kept when the test fails: each slapd's slapd.conf and slapd.log are there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    static void slapdIsInstalled() {
        RequiredTool.check(SlapdServer.installed(), "slapd", "apt-get install -y slapd");
    }

    @Test
    void slapdConsumersConvergeOnASlapdProviderThroughChangesAndSigkill() throws Exception {
        new ProviderSyncScenario(SlapdServer.providers(ProviderSyncScenario.SESSION_LOG), dir).run();
    }
}
