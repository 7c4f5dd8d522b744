package dev.larch.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldif.LDIFException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Crashes under write load: {@link #WRITERS} connections add entries and modify a counter entry
 * each, recording every write the server acknowledged (with that many writers the server's group
 * commit puts several writes in one transaction and one sync, which the test checks happened); the server JVM is killed with SIGKILL at a
 * random moment, restarted on the same data, and every acknowledged write must be there. Repeated
 * for {@code -Dlarch.crash.rounds} rounds (2 in the normal test run; {@code ./larch crash-test}
 * runs more), with kill moments drawn from {@code -Dlarch.crash.seed} (random and printed when not
 * given).
 */
class CrashIT {
    static final int ROUNDS = Integer.getInteger("larch.crash.rounds", 2);
    static final long SEED = Long.getLong("larch.crash.seed", new Random().nextLong());
    static final int WRITERS = 8;
    static final String ADMIN_PASSWORD = "crash-admin-secret";
    static final String PARENT = "ou=people," + TestData.SUFFIX;
    static final String STATISTICS = ",cn=Statistics,cn=Monitor";
    /** The kill comes this long after every writer had a write acknowledged, plus up to {@link #KILL_SPREAD_MS}. */
    static final int KILL_MIN_MS = 50;

    static final int KILL_SPREAD_MS = 1500;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedWriteSurvivesSigkill() throws Exception {
        System.out.println("[crash-test] rounds " + ROUNDS + ", seed " + SEED + " (-Dlarch.crash.seed=" + SEED + ")");
        Random random = new Random(SEED);
        Path data = dir.resolve("data");
        long start = System.nanoTime();
        LarchProcess server = start(data);
        long adds = 0;
        long modifies = 0;
        long transactions = 0;
        long operations = 0;
        try {
            createCounters(server);
            for (int round = 1; round <= ROUNDS; round++) {
                Round r = new Round(round, server);
                r.writeUntilKilled(KILL_MIN_MS + random.nextInt(KILL_SPREAD_MS));
                server = start(data);
                r.verify(server);
                adds += r.acknowledgedAdds.size();
                modifies += r.acknowledgedModifies.get();
                transactions += r.transactions;
                operations += r.operations;
                System.out.println("[crash-test] round " + round + ": killed after " + r.acknowledgedAdds.size()
                        + " acknowledged adds; all present after the restart");
            }
            assertEquals(0, server.stop(), server.output());
        } finally {
            server.close();
        }
        assertTrue(
                operations > transactions,
                "no writes shared a transaction (" + operations + " writes in " + transactions
                        + " transactions): the kills did not test group commit");
        AbuseReport.record(
                "crash test",
                String.format(
                        Locale.ROOT,
                        "%d rounds of SIGKILL under %d writers (seed %d): %d acknowledged adds and %d acknowledged"
                                + " modifies (%.1f writes per commit), all present after the restarts; %.1f s",
                        ROUNDS,
                        WRITERS,
                        SEED,
                        adds,
                        modifies,
                        operations / (double) Math.max(1, transactions),
                        (System.nanoTime() - start) / 1e9));
    }

    private static LarchProcess start(Path data) {
        LarchProcess server = LarchProcess.serve(data)
                .adminPassword(ADMIN_PASSWORD)
                .withoutSelfWarmUp()
                .start();
        List<String> errors = server.stdoutLines().stream()
                .filter(line -> line.contains(" ERROR "))
                .toList();
        assertEquals(List.of(), errors, "the store did not open cleanly\n" + server.output());
        return server;
    }

    private static LDAPConnection admin(LarchProcess server) throws LDAPException {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setResponseTimeoutMillis(30_000);
        return new LDAPConnection(options, "127.0.0.1", server.port(), TestData.ADMIN_DN, ADMIN_PASSWORD);
    }

    private static String counterDn(int writer) {
        return "uid=counter" + writer + "," + PARENT;
    }

    private static Entry person(String uid) {
        try {
            return new Entry(TestData.person(uid, PARENT).split("\n"));
        } catch (LDIFException e) {
            throw new AssertionError(e);
        }
    }

    /** ou=people (the server created the suffix) and one counter entry per writer, its description "0". */
    private static void createCounters(LarchProcess server) throws Exception {
        try (LDAPConnection c = admin(server)) {
            c.add("dn: " + PARENT, "objectClass: organizationalUnit", "ou: people");
            for (int w = 0; w < WRITERS; w++) {
                Entry counter = person("counter" + w);
                counter.addAttribute("description", "0");
                c.add(counter);
            }
        }
    }

    /** One round: the writes it got acknowledged, and the check after the restart. */
    private static final class Round {
        final int number;
        final LarchProcess server;
        final List<String> acknowledgedAdds = new CopyOnWriteArrayList<>();
        /** Per writer, the last counter value acknowledged. */
        final ConcurrentHashMap<Integer, Integer> acknowledgedCounters = new ConcurrentHashMap<>();

        final AtomicInteger acknowledgedModifies = new AtomicInteger();

        final List<String> problems = new CopyOnWriteArrayList<>();
        volatile boolean killed;
        /** Write transactions and writes the server had committed shortly before the kill. */
        long transactions;

        long operations;

        Round(int number, LarchProcess server) {
            this.number = number;
            this.server = server;
        }

        void writeUntilKilled(int killAfterMs) throws Exception {
            CountDownLatch everyWriterAcknowledged = new CountDownLatch(WRITERS);
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(Thread.ofPlatform()
                        .name("crash-writer-" + w)
                        .start(() -> write(writer, everyWriterAcknowledged)));
            }
            assertTrue(
                    everyWriterAcknowledged.await(60, TimeUnit.SECONDS),
                    "no write acknowledged: " + problems + "\n" + server.output());
            Thread.sleep(killAfterMs);
            try (LDAPConnection c = admin(server)) {
                transactions = counter(c, "cn=Write Transactions");
                operations = counter(c, "cn=Write Operations");
            }
            killed = true;
            server.kill();
            for (Thread writer : writers) {
                writer.join(Duration.ofSeconds(60));
            }
            assertEquals(List.of(), problems, "writes failed before the kill");
        }

        private static long counter(LDAPConnection admin, String rdn) throws LDAPException {
            SearchResultEntry e = admin.getEntry(rdn + STATISTICS, "monitorCounter");
            assertTrue(e != null && e.hasAttribute("monitorCounter"), rdn + " has no monitorCounter");
            return Long.parseLong(e.getAttributeValue("monitorCounter"));
        }

        /** Adds entries and raises this writer's counter, alternately, until the server is gone. */
        private void write(int writer, CountDownLatch acknowledged) {
            try (LDAPConnection c = admin(server)) {
                for (int seq = 1; ; seq++) {
                    if (seq % 2 == 1) {
                        String uid = "r" + number + "w" + writer + "n" + seq;
                        c.add(person(uid));
                        acknowledgedAdds.add("uid=" + uid + "," + PARENT);
                    } else {
                        c.modify(
                                counterDn(writer),
                                new Modification(ModificationType.REPLACE, "description", Integer.toString(seq)));
                        acknowledgedCounters.put(writer, seq);
                        acknowledgedModifies.incrementAndGet();
                    }
                    acknowledged.countDown();
                }
            } catch (LDAPException e) {
                if (!killed) {
                    problems.add("writer " + writer + ": " + e.getResultCode() + " " + e.getMessage());
                }
            }
        }

        /** Every acknowledged add is there; every counter holds at least its last acknowledged value. */
        void verify(LarchProcess restarted) throws LDAPException {
            try (LDAPConnection c = admin(restarted)) {
                for (String dn : acknowledgedAdds) {
                    assertNotNull(c.getEntry(dn, "1.1"), "acknowledged add lost in round " + number + ": " + dn);
                }
                for (var counter : acknowledgedCounters.entrySet()) {
                    SearchResultEntry entry = c.getEntry(counterDn(counter.getKey()), "description");
                    assertNotNull(entry, "counter entry lost: " + counterDn(counter.getKey()));
                    int value = Integer.parseInt(entry.getAttributeValue("description"));
                    // A write in flight at the kill may have been applied without being acknowledged.
                    assertTrue(
                            value >= counter.getValue(),
                            "round " + number + ": counter " + counter.getKey() + " is " + value
                                    + ", but the server had acknowledged " + counter.getValue());
                }
            }
        }
    }
}
