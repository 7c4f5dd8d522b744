package dev.larch.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.e2e.sync.LdapEndpoint;
import dev.larch.e2e.sync.SlapdServer;
import dev.larch.e2e.sync.Syncrepl;
import dev.larch.e2e.sync.TreeComparison;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Larch server and an unmodified slapd (back-mdb, syncprov, {@code multiprovider on}) in one
 * multi-provider set: slapd has server ID 1 and consumes from Larch (refreshAndPersist,
 * {@code attrs="*,+"}); Larch has server ID 2, {@code replication.multi-provider = true} and consumes
 * from slapd. One pair of servers serves the whole class, the steps in order:
 *
 * <ol>
 *   <li>the tree imported into Larch reaches the empty slapd;
 *   <li>adds, modifies and deletes made on both members at once, on different entries, reach the
 *       other;
 *   <li>conflicting writes made on both members at the same instant (a modify of one attribute on
 *       each, a modify on one against a delete on the other, an add of one DN on each) end in one
 *       tree on both: the delete wins, and whichever entry carries the higher entryCSN keeps its
 *       content and its DN;
 *   <li>a rename on one member against a modify of the same entry on the other, at the same
 *       instant, ends with the entry under one DN on both;
 *   <li>each member stopped in turn while the other takes writes catches up when it returns.
 * </ol>
 *
 * <p>After each step the two trees are compared entry by entry ({@link TreeComparison}: entryUUID,
 * entryCSN and the stamps included), and the pair must then be quiet: both suffixes show the same
 * contextCSN, and for a while Larch commits nothing and receives nothing from slapd, so no change
 * travels back and forth for ever.
 *
 * <p>Not here: a delete of a parent on one member against an add below it on the other. slapd
 * refuses to delete the parent it then holds a child of, keeps both (the parent as a hidden glue
 * entry) and the pair does not converge (docs/operations.md, replication, "With slapd").
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MixedMultiProviderIT {
    private static final String PASSWORD = "mixed-secret";
    /** A few hundred entries: what matters here is the pair's rules, not its speed. */
    private static final GeneratedTree TREE = new GeneratedTree(300, 5);

    private static final int SLAPD_SID = 1;
    private static final int LARCH_SID = 2;
    /** slapd's replica ID for its consumer of Larch; Larch's consumer of slapd is replica 1. */
    private static final int SLAPD_RID = LARCH_SID;

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    /** How long the pair must stay quiet after converging. */
    private static final Duration QUIET = Duration.ofSeconds(1);
    /** Conflicting pairs per kind: enough that most writes of a pair land before the other's arrives. */
    private static final int CONFLICTS = 12;

    /** Kept when a step fails: slapd's slapd.conf and slapd.log, Larch's configuration and data. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private final int larchPort = LarchProcess.freePort();
    private Path larchData;
    private Path larchConfig;
    private LarchProcess larch;
    private SlapdServer slapd;

    private final LdapEndpoint larchEndpoint = LdapEndpoint.of(
            "larch member sid " + LARCH_SID, "ldap://127.0.0.1:" + larchPort, LarchProcess.ADMIN_DN, PASSWORD);

    @BeforeAll
    void startThePair() throws IOException {
        RequiredTool.check(SlapdServer.installed(), "slapd", "apt-get install -y slapd");
        larchData = dir.resolve("larch-data");
        larchConfig = dir.resolve("larch.conf");
        // slapd's port is chosen when it is created, and Larch's configuration names it: slapd is
        // created (and started, empty, retrying its consumer every second) first.
        slapd = SlapdServer.multiProvider(
                dir.resolve("slapd"), SLAPD_SID, Syncrepl.refreshAndPersist(SLAPD_RID, larchEndpoint), 100);
        Files.writeString(
                larchConfig,
                String.join(
                        "\n",
                        "replication.server-id = " + LARCH_SID,
                        "replication.multi-provider = true",
                        "server.warm-up-seconds = 0",
                        "replication.consumer.1.provider-url = " + slapd.url(),
                        "replication.consumer.1.bind-dn = " + slapd.bindDn(),
                        "replication.consumer.1.bind-password = " + slapd.password(),
                        "replication.consumer.1.retry-seconds = 1",
                        "replication.consumer.1.max-retry-seconds = 2",
                        ""));
        Path ldif = dir.resolve("tree.ldif");
        TREE.write(ldif);
        ProcessResult imported = LarchProcess.run(
                "import", "--config", larchConfig.toString(), "--data", larchData.toString(), ldif.toString());
        assertEquals(0, imported.exitCode(), imported::toString);
        startLarch();
    }

    @AfterAll
    void stopThePair() throws IOException {
        if (larch != null) {
            larch.close();
        }
        if (slapd != null) {
            slapd.close();
        }
    }

    @Test
    @Order(1)
    void theTreeImportedIntoLarchReachesTheEmptySlapd() throws Exception {
        converge("the initial tree, imported into Larch");
        assertEquals(TREE.entries(), count(slapd), "entries slapd holds");
    }

    @Test
    @Order(2)
    void addsModifiesAndDeletesMadeOnBothAtOnceReachTheOther() throws Exception {
        // Larch writes people 0-49 and adds below unit 1, slapd people 50-99 and below unit 2.
        inParallel(
                () -> writes(larchEndpoint, "larch", 0, TREE.unitDn(1)),
                () -> writes(slapd, "slapd", 50, TREE.unitDn(2)));
        converge("adds, modifies and deletes on both at once");
    }

    @Test
    @Order(3)
    void conflictingWritesMadeOnBothAtTheSameInstantEndInOneTree() throws Exception {
        CyclicBarrier together = new CyclicBarrier(2);
        inParallel(() -> conflicts(larchEndpoint, "larch", together), () -> conflicts(slapd, "slapd", together));
        converge("conflicting writes on both at once");
        try (LDAPConnection c = larchEndpoint.connect()) {
            for (int k = 0; k < CONFLICTS; k++) {
                SearchResultEntry modified = c.getEntry(TREE.personDn(modifyModify(k)), "description");
                assertNotNull(modified, "an entry both modified still exists");
                String value = modified.getAttributeValue("description");
                assertTrue(
                        List.of("conflict on larch", "conflict on slapd").contains(value),
                        "one side's modify won whole: " + value);
                assertNull(
                        c.getEntry(TREE.personDn(modifyDelete(k)), "1.1"),
                        "a delete wins over a modify made at the same time on the other member");
                SearchResultEntry added = c.getEntry(conflictAddDn(k), "uid");
                assertNotNull(added, "one of the two entries added at one DN keeps it");
            }
        }
    }

    @Test
    @Order(4)
    void aRenameAgainstAModifyMadeAtTheSameInstantEndsInOneTree() throws Exception {
        CyclicBarrier together = new CyclicBarrier(2);
        inParallel(() -> renames(larchEndpoint, "larch", together), () -> renames(slapd, "slapd", together));
        converge("a rename on one member against a modify on the other, at once");
        try (LDAPConnection c = larchEndpoint.connect()) {
            for (int k = 0; k < CONFLICTS; k++) {
                String renamedOnLarch = "uid=renamed-on-larch-" + k + "," + TREE.unitDn((240 + k) % TREE.units());
                String renamedOnSlapd = "uid=renamed-on-slapd-" + k + "," + TREE.unitDn((240 + k) % TREE.units());
                int held = 0;
                for (String dn : List.of(TREE.personDn(240 + k), renamedOnLarch, renamedOnSlapd)) {
                    held += c.getEntry(dn, "1.1") == null ? 0 : 1;
                }
                assertEquals(1, held, "person " + (240 + k) + " is under one DN, the winner's");
            }
        }
    }

    @Test
    @Order(5)
    void larchStoppedWhileSlapdTakesWritesCatchesUp() throws Exception {
        assertEquals(0, larch.stop(), () -> "Larch stopped with an error:\n" + larch.output());
        larch = null;
        writes(slapd, "slapd-alone", 150, TREE.unitDn(3));
        startLarch();
        converge("Larch restarted after slapd took writes alone");
    }

    @Test
    @Order(6)
    void slapdStoppedWhileLarchTakesWritesCatchesUp() throws Exception {
        slapd.close();
        writes(larchEndpoint, "larch-alone", 200, TREE.unitDn(4));
        slapd.restart();
        converge("slapd restarted after Larch took writes alone");
    }

    /** Larch renames the even people of 240-251 and modifies the odd ones; slapd the other way round. */
    private static Void renames(LdapEndpoint server, String who, CyclicBarrier together) throws Exception {
        boolean larch = who.equals("larch");
        try (LDAPConnection c = server.connect()) {
            for (int k = 0; k < CONFLICTS; k++) {
                String dn = TREE.personDn(240 + k);
                together.await(10, TimeUnit.SECONDS);
                try {
                    if ((k % 2 == 0) == larch) {
                        c.modifyDN(dn, "uid=renamed-on-" + who + "-" + k, true);
                    } else {
                        c.modify(dn, new Modification(ModificationType.REPLACE, "description", "modified on " + who));
                    }
                } catch (LDAPException e) {
                    // The other's rename arrived first: no conflict this time, and not a failure.
                    if (!ResultCode.NO_SUCH_OBJECT.equals(e.getResultCode())) {
                        throw e;
                    }
                }
            }
        }
        return null;
    }

    private void startLarch() {
        larch = LarchProcess.serve(larchData)
                .config(larchConfig)
                .port(larchPort)
                .adminPassword(PASSWORD)
                .start();
    }

    /**
     * On {@code server}: 10 people added below {@code unit}, people {@code first}..+19 modified
     * (a value replaced, one added, one removed), and people {@code first + 20}..+29 deleted.
     */
    private static Void writes(LdapEndpoint server, String who, int first, String unit) throws LDAPException {
        try (LDAPConnection c = server.connect()) {
            for (int k = 0; k < 10; k++) {
                c.add(person(who + "-added-" + k, unit));
            }
            for (int k = 0; k < 20; k++) {
                c.modify(
                        TREE.personDn(first + k),
                        new Modification(ModificationType.REPLACE, "telephoneNumber", "+1 555 000 " + (first + k)),
                        new Modification(ModificationType.ADD, "description", "written on " + who),
                        new Modification(ModificationType.DELETE, "givenName"));
            }
            for (int k = 20; k < 30; k++) {
                c.delete(TREE.personDn(first + k));
            }
        }
        return null;
    }

    /** Person {@code k}'s index among those both members modify at once. */
    private static int modifyModify(int k) {
        return 100 + k;
    }

    /** Person {@code k}'s index among those one member modifies while the other deletes it. */
    private static int modifyDelete(int k) {
        return 120 + k;
    }

    private static String conflictAddDn(int k) {
        return "uid=added-on-both-" + k + "," + TREE.unitDn(0);
    }

    /**
     * Every pair of conflicting writes, each member's half started at the same instant as the
     * other's ({@code together}): a replace of one attribute on each; a modify on one against a
     * delete on the other (Larch deletes the even ones, slapd the odd ones); an add of one DN on each.
     */
    private static Void conflicts(LdapEndpoint server, String who, CyclicBarrier together) throws Exception {
        boolean larch = who.equals("larch");
        try (LDAPConnection c = server.connect()) {
            for (int k = 0; k < CONFLICTS; k++) {
                together.await(10, TimeUnit.SECONDS);
                c.modify(
                        TREE.personDn(modifyModify(k)),
                        new Modification(ModificationType.REPLACE, "description", "conflict on " + who));
            }
            for (int k = 0; k < CONFLICTS; k++) {
                String dn = TREE.personDn(modifyDelete(k));
                together.await(10, TimeUnit.SECONDS);
                if ((k % 2 == 0) == larch) {
                    c.delete(dn);
                } else {
                    modifyUnlessGone(c, dn, "modified on " + who + " while the other deleted it");
                }
            }
            for (int k = 0; k < CONFLICTS; k++) {
                together.await(10, TimeUnit.SECONDS);
                Entry entry = person("added-on-both-" + k, TREE.unitDn(0));
                entry.addAttribute("description", "added on " + who);
                try {
                    c.add(entry);
                } catch (LDAPException e) {
                    // The other's add arrived first: no conflict this time, and not a failure.
                    if (!ResultCode.ENTRY_ALREADY_EXISTS.equals(e.getResultCode())) {
                        throw e;
                    }
                }
            }
        }
        return null;
    }

    private static void modifyUnlessGone(LDAPConnection c, String dn, String description) throws LDAPException {
        try {
            c.modify(dn, new Modification(ModificationType.REPLACE, "description", description));
        } catch (LDAPException e) {
            // The other's delete arrived first: no conflict this time, and not a failure.
            if (!ResultCode.NO_SUCH_OBJECT.equals(e.getResultCode())) {
                throw e;
            }
        }
    }

    private static Entry person(String uid, String parentDn) {
        return new Entry(
                "uid=" + uid + "," + parentDn,
                new Attribute("objectClass", "inetOrgPerson"),
                new Attribute("uid", uid),
                new Attribute("cn", uid),
                new Attribute("sn", uid));
    }

    @SafeVarargs
    private static void inParallel(Callable<Void>... tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.length);
        try {
            List<Future<Void>> running = new ArrayList<>();
            for (Callable<Void> task : tasks) {
                running.add(pool.submit(task));
            }
            for (Future<Void> f : running) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Both trees equal entry by entry, then the pair quiet: the same contextCSN on both suffixes, and
     * over {@link #QUIET} neither changes, no write is committed on Larch and nothing is received
     * from slapd.
     */
    private void converge(String step) throws Exception {
        long start = System.nanoTime();
        try {
            new TreeComparison(slapd, larchEndpoint).awaitConverged(CONVERGE);
            assertQuiet(step);
        } catch (AssertionError e) {
            throw new AssertionError(
                    step + ": " + e.getMessage() + "\nslapd " + slapd.state() + "; its log (" + slapd.log()
                            + "), last lines:\n"
                            + slapd.logTail(40) + "\nLarch's output, last lines:\n" + tail(larch),
                    e);
        }
        System.out.printf("[sync] %s: converged and quiet in %d ms%n", step, (System.nanoTime() - start) / 1_000_000);
    }

    private void assertQuiet(String step) throws Exception {
        long deadline = System.nanoTime() + CONVERGE.toNanos();
        Map<String, String> before = activity();
        String last;
        do {
            Thread.sleep(QUIET.toMillis());
            Map<String, String> after = activity();
            boolean sameContext = after.get("slapd contextCSN").equals(after.get("larch contextCSN"));
            if (after.equals(before) && sameContext) {
                return;
            }
            last = before + " then " + after;
            before = after;
        } while (System.nanoTime() < deadline);
        throw new AssertionError(step + ": the pair never settled: " + last);
    }

    /** What changes while replication is still at work: both contextCSNs and Larch's counters. */
    private Map<String, String> activity() throws LDAPException {
        Map<String, String> seen = new TreeMap<>();
        try (LDAPConnection c = slapd.connect()) {
            seen.put("slapd contextCSN", contextCsn(c));
        }
        // One connection: a bind to Larch as the administrator costs a password hash.
        try (LDAPConnection c = larchEndpoint.connect()) {
            seen.put("larch contextCSN", contextCsn(c));
            SearchResultEntry provider = c.getEntry("cn=Provider 1,cn=Replication,cn=Monitor", "monitorCounter");
            assertNotNull(provider, "Larch's monitor shows its consumer of slapd");
            seen.put("larch received from slapd", provider.getAttributeValue("monitorCounter"));
            SearchResultEntry writes = c.getEntry("cn=Write Operations,cn=Statistics,cn=Monitor", "monitorCounter");
            assertNotNull(writes, "Larch's monitor counts its writes");
            seen.put("larch writes", writes.getAttributeValue("monitorCounter"));
        }
        return seen;
    }

    private static String contextCsn(LDAPConnection c) throws LDAPException {
        SearchResultEntry suffix = c.getEntry(TestData.SUFFIX, "contextCSN");
        if (suffix == null || suffix.getAttributeValues("contextCSN") == null) {
            return "(none)";
        }
        List<String> csns = new ArrayList<>(List.of(suffix.getAttributeValues("contextCSN")));
        csns.sort(null);
        return String.join(";", csns);
    }

    private static int count(LdapEndpoint server) throws LDAPException {
        try (LDAPConnection c = server.connect()) {
            return c.search(TestData.SUFFIX, SearchScope.SUB, "(objectClass=*)", "1.1")
                    .getEntryCount();
        }
    }

    private static String tail(LarchProcess m) {
        if (m == null) {
            return "(not running)";
        }
        String[] lines = m.output().split("\n");
        return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 30), lines.length));
    }
}
