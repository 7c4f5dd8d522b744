package dev.larch.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.e2e.sync.LdapEndpoint;
import dev.larch.e2e.sync.SlapdServer;
import dev.larch.e2e.sync.TreeComparison;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Larch as the consumer of an unmodified slapd provider (syncprov): an empty Larch pulls a
 * 20,000-entry tree, is killed with SIGKILL in the middle of that first refresh (loaded in bulk:
 * searches of the tree are turned away with unavailable meanwhile, and the restarted consumer empties
 * the half-loaded store and starts over) and again in persist mode, follows changes made on slapd while it runs and while it is down, survives the
 * provider being killed and restarted under it, and catches up from a cookie older than the
 * provider's session log. After each step the trees are compared entry by entry, entryUUID, entryCSN
 * and the create/modify stamps included ({@link TreeComparison}). A read-only consumer refers
 * writes to its provider.
 */
class LarchConsumerSyncIT {
    private static final String PASSWORD = "consumer-secret";
    private static final Duration INITIAL_REFRESH = Duration.ofSeconds(120);
    private static final Duration CHANGES = Duration.ofSeconds(60);

    /** Kept when the test fails: the provider's slapd.conf and slapd.log, the consumer's configuration. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @BeforeAll
    static void slapdIsInstalled() {
        RequiredTool.check(SlapdServer.installed(), "slapd", "apt-get install -y slapd");
    }

    @Test
    void anEmptyLarchConvergesOnASlapdProviderThroughChangesSigkillsAndAProviderRestart() throws Exception {
        Path ldif = dir.resolve("tree.ldif");
        ProviderSyncScenario.TREE.write(ldif);
        SyncChanges changes = new SyncChanges(ProviderSyncScenario.TREE);
        try (SlapdServer provider =
                SlapdServer.provider(dir.resolve("provider"), ldif, ProviderSyncScenario.SESSION_LOG)) {
            Path config = consumerConfig(provider);
            Path data = dir.resolve("consumer-data");
            LarchProcess consumer = start(data, config);
            try {
                awaitLoadingInBulk(consumer, 500);
                consumer.kill();
                consumer = start(data, config);
                converge("initial refresh, after a SIGKILL in its middle", provider, consumer, INITIAL_REFRESH);
                assertTrue(
                        consumer.output().contains("stopped midway while loading the store in bulk"),
                        "the restarted consumer emptied the half-loaded store:\n" + tail(consumer.output()));

                try (LDAPConnection c = provider.connect()) {
                    changes.round(c, 1, ProviderSyncScenario.ROUND_SIZES[0]);
                }
                converge("changes while the consumer persists", provider, consumer, CHANGES);

                consumer.kill();
                try (LDAPConnection c = provider.connect()) {
                    changes.round(c, 2, ProviderSyncScenario.ROUND_SIZES[1]);
                }
                consumer = start(data, config);
                converge("restart after SIGKILL in persist mode", provider, consumer, CHANGES);

                provider.kill();
                provider.restart();
                try (LDAPConnection c = provider.connect()) {
                    c.modify(
                            ProviderSyncScenario.TREE.personDn(17),
                            new Modification(ModificationType.REPLACE, "description", "after the provider restarted"));
                }
                converge("the provider killed and restarted under the consumer", provider, consumer, CHANGES);

                consumer.kill();
                try (LDAPConnection c = provider.connect()) {
                    changes.round(c, 3, ProviderSyncScenario.ROUND_SIZES[2]);
                }
                consumer = start(data, config);
                converge("a cookie older than the provider's session log", provider, consumer, CHANGES);

                aWriteIsReferredToTheProvider(consumer, provider);
            } finally {
                consumer.close();
            }
        }
    }

    private Path consumerConfig(SlapdServer provider) throws IOException {
        Path config = dir.resolve("consumer.conf");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "replication.server-id = 2",
                        "server.warm-up-seconds = 0",
                        "replication.consumer.1.provider-url = " + provider.url(),
                        "replication.consumer.1.bind-dn = " + provider.bindDn(),
                        "replication.consumer.1.bind-password = " + provider.password(),
                        "replication.consumer.1.retry-seconds = 1",
                        "replication.consumer.1.max-retry-seconds = 2",
                        ""));
        return config;
    }

    private static LarchProcess start(Path data, Path config) {
        return LarchProcess.serve(data).config(config).adminPassword(PASSWORD).start();
    }

    private static LdapEndpoint endpoint(LarchProcess larch) {
        return LdapEndpoint.of("larch consumer", larch.url(), LarchProcess.ADMIN_DN, PASSWORD);
    }

    /**
     * Waits until the consumer's first refresh, loaded in bulk into its empty store, has committed at
     * least {@code wanted} changes and not the whole tree; meanwhile a search of the tree is turned
     * away with unavailable (its indexes are built only at the end).
     */
    private static void awaitLoadingInBulk(LarchProcess consumer, int wanted) throws Exception {
        long deadline = System.nanoTime() + INITIAL_REFRESH.toNanos();
        long applied = 0;
        while (System.nanoTime() < deadline) {
            applied = applied(endpoint(consumer));
            if (applied >= wanted) {
                assertTrue(
                        applied < ProviderSyncScenario.TREE.entries(),
                        "the initial refresh was over (" + applied
                                + " changes) before the consumer could be killed in it");
                try (LDAPConnection c = endpoint(consumer).connect()) {
                    LDAPException refused = assertThrows(
                            LDAPException.class,
                            () -> c.search(new SearchRequest(TestData.SUFFIX, SearchScope.SUB, "(uid=*)", "1.1")));
                    assertEquals(ResultCode.UNAVAILABLE, refused.getResultCode(), refused::toString);
                }
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the consumer applied " + applied + " changes after " + INITIAL_REFRESH);
    }

    /** The changes the consumer's replica committed (cn=Monitor, readable while the store loads); 0 before it listens. */
    private static long applied(LdapEndpoint server) {
        try (LDAPConnection c = server.connect()) {
            SearchResultEntry replica = c.searchForEntry(
                    "cn=Monitor", SearchScope.SUB, "(larchReplicaChangesApplied=*)", "larchReplicaChangesApplied");
            return replica == null ? 0 : replica.getAttributeValueAsLong("larchReplicaChangesApplied");
        } catch (LDAPException e) {
            return 0;
        }
    }

    private static void converge(String step, SlapdServer provider, LarchProcess consumer, Duration timeout)
            throws InterruptedException {
        try {
            Duration took = new TreeComparison(provider, endpoint(consumer)).awaitConverged(timeout);
            System.out.printf("[sync] %s: larch consumer converged in %d ms%n", step, took.toMillis());
        } catch (AssertionError e) {
            throw new AssertionError(
                    step + ": " + e.getMessage() + "\nthe consumer's output, last lines:\n" + tail(consumer.output()),
                    e);
        }
    }

    /** A write on the read-only consumer is answered with a referral naming the provider. */
    private static void aWriteIsReferredToTheProvider(LarchProcess consumer, SlapdServer provider) throws Exception {
        try (LDAPConnection c = endpoint(consumer).connect()) {
            LDAPException refused = assertThrows(
                    LDAPException.class,
                    () -> c.modify(
                            ProviderSyncScenario.TREE.personDn(18),
                            new Modification(ModificationType.REPLACE, "description", "written on the consumer")));
            assertEquals(ResultCode.REFERRAL, refused.getResultCode(), refused::toString);
            assertTrue(
                    refused.getReferralURLs().length > 0 && refused.getReferralURLs()[0].startsWith(provider.url()),
                    "the referral names the provider: " + String.join(", ", refused.getReferralURLs()));
        }
    }

    private static String tail(String output) {
        String[] lines = output.split("\n");
        StringBuilder last = new StringBuilder();
        for (int i = Math.max(0, lines.length - 40); i < lines.length; i++) {
            last.append(lines[i]).append('\n');
        }
        return last.toString();
    }
}
