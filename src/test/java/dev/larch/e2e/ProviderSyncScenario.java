package dev.larch.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.e2e.sync.SlapdServer;
import dev.larch.e2e.sync.SyncProvider;
import dev.larch.e2e.sync.Syncrepl;
import dev.larch.e2e.sync.TreeComparison;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What an RFC 4533 provider must do for unmodified slapd consumers, as one scenario any
 * {@link SyncProvider} runs: a {@link #TREE} of 20,000 people loaded offline; a refreshAndPersist
 * and a refreshOnly slapd consumer, both starting empty; the trees compared entry by entry
 * ({@link TreeComparison}) after the initial refresh, after {@link SyncChanges} made while the
 * consumers run, after changes made while both were killed with SIGKILL (fewer than the provider's
 * {@link #SESSION_LOG}, so a delta refresh can serve them), and after more changes than that made
 * while they were killed again (a present phase, or a full reload).
 *
 * <p>A Larch provider plugs in as a {@link SyncProvider.Starter}, for example:
 *
 * <pre>{@code
 * SyncProvider.Starter larch = (dir, ldif) -> {
 *     Path data = dir.resolve("data");
 *     ProcessResult imported = LarchProcess.run("import", "--data", data.toString(), ldif.toString());
 *     assertEquals(0, imported.exitCode(), imported::toString);
 *     LarchProcess server = LarchProcess.serve(data).adminPassword("pw").start();
 *     return new SyncProvider() {
 *         public String name() { return "larch provider"; }
 *         public String url() { return server.url(); }
 *         public String bindDn() { return LarchProcess.ADMIN_DN; }
 *         public String password() { return "pw"; }
 *         public void close() { server.stop(); }
 *     };
 * };
 * new ProviderSyncScenario(larch, dir).run();
 * }</pre>
 *
 * <p>Each consumer's slapd.conf and slapd.log ({@code -d sync}) are in its directory under
 * {@code dir}; a failure message ends with the consumer's last log lines.
 */
final class ProviderSyncScenario {
    static final GeneratedTree TREE = new GeneratedTree(20_000, 10);
    /** What the provider should keep for delta refreshes (slapd's {@code syncprov-sessionlog}). */
    static final int SESSION_LOG = 100;
    /** Changes per round: round 2's (3 * 20 + 7) fit in the session log, round 3's (3 * 200 + 7) do not. */
    static final int[] ROUND_SIZES = {50, 20, 200};

    static final Duration INITIAL_REFRESH = Duration.ofSeconds(90);
    static final Duration CHANGES = Duration.ofSeconds(60);
    static final Duration REFRESH_INTERVAL = Duration.ofSeconds(1);

    private final SyncProvider.Starter starter;
    private final Path dir;

    ProviderSyncScenario(SyncProvider.Starter starter, Path dir) {
        this.starter = starter;
        this.dir = dir;
    }

    void run() throws IOException, LDAPException, InterruptedException {
        Path ldif = dir.resolve("tree.ldif");
        TREE.write(ldif);
        SyncChanges changes = new SyncChanges(TREE);
        long start = System.nanoTime();
        try (SyncProvider provider = starter.start(dir.resolve("provider"), ldif);
                SlapdServer persist =
                        SlapdServer.consumer(dir.resolve("persist"), Syncrepl.refreshAndPersist(1, provider));
                SlapdServer refreshOnly = SlapdServer.consumer(
                        dir.resolve("refresh-only"), Syncrepl.refreshOnly(2, provider, REFRESH_INTERVAL))) {
            log("provider loaded and started", start);
            assertEquals(TREE.entries(), count(provider), "entries the provider serves after loading the tree");
            converge("initial refresh", provider, INITIAL_REFRESH, persist, refreshOnly);

            try (LDAPConnection c = provider.connect()) {
                changes.round(c, 1, ROUND_SIZES[0]);
            }
            converge("changes while the consumers run", provider, CHANGES, persist, refreshOnly);

            persist.kill();
            refreshOnly.kill();
            try (LDAPConnection c = provider.connect()) {
                changes.round(c, 2, ROUND_SIZES[1]);
            }
            persist.restart();
            refreshOnly.restart();
            converge("restart after SIGKILL, changes within the session log", provider, CHANGES, persist, refreshOnly);

            persist.kill();
            refreshOnly.kill();
            try (LDAPConnection c = provider.connect()) {
                changes.round(c, 3, ROUND_SIZES[2]);
            }
            persist.restart();
            refreshOnly.restart();
            converge(
                    "restart after SIGKILL, more changes than the session log",
                    provider,
                    CHANGES,
                    persist,
                    refreshOnly);
        }
        log("scenario done", start);
    }

    private static void converge(String step, SyncProvider provider, Duration timeout, SlapdServer... consumers)
            throws InterruptedException {
        for (SlapdServer consumer : consumers) {
            try {
                Duration took = new TreeComparison(provider, consumer).awaitConverged(timeout);
                System.out.printf("[sync] %s: %s converged in %d ms%n", step, consumer.name(), took.toMillis());
            } catch (AssertionError e) {
                throw new AssertionError(
                        step + ": " + e.getMessage() + "\n" + consumer.name() + "'s log (" + consumer.log()
                                + "), last lines:\n" + consumer.logTail(40),
                        e);
            }
        }
    }

    private static int count(SyncProvider provider) throws LDAPException {
        try (LDAPConnection c = provider.connect()) {
            SearchRequest all = new SearchRequest(TestData.SUFFIX, SearchScope.SUB, "(objectClass=*)", "1.1");
            all.setSizeLimit(0);
            return c.search(all).getEntryCount();
        }
    }

    private static void log(String what, long start) {
        System.out.printf("[sync] %s after %d ms%n", what, (System.nanoTime() - start) / 1_000_000);
    }
}
