package dev.larch.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import dev.larch.e2e.sync.LdapEndpoint;
import dev.larch.e2e.sync.TreeComparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Larch multi-provider sets of two and of three members (server IDs 1, 2 and 3, each consuming from
 * all the others). A pair first: member 1 is loaded with a tree and member 2 starts empty and pulls
 * it; a write on each reaches the other; conflicting writes made on both at the same moment end the
 * same on both; member 2 stopped while member 1 takes writes catches up when it returns. Then member 3
 * joins the running pair (it starts empty; members 2 and 1 restart in turn with it in their
 * configuration, member 1 staying down while 2 and 3 take writes) and all three converge. Last,
 * conflicting writes made on members 1 and 2 while they cannot see each other (each stopped in turn,
 * member 3 down too) end the same way on all three: the later modify of an attribute wins, a delete
 * wins over a modify, a rename and a modify of one entry end as the later of the two, two adds of one
 * DN leave the later entry, and people added below a unit that another member renamed follow the
 * unit.
 */
class MultiProviderSyncIT {
    private static final String PASSWORD = "members-secret";
    /**
     * 1,011 entries: member 2's and member 3's first pulls span three of a consumer's batches of 500
     * changes, so an entry and its parent may arrive in different batches, as in a larger tree.
     */
    private static final GeneratedTree TREE = new GeneratedTree(1_000, 10);

    private static final Duration CONVERGE = Duration.ofSeconds(90);
    /** People written on both members of the pair at the same moment. */
    private static final int AT_ONCE_FIRST = 20;

    private static final int AT_ONCE_PEOPLE = 10;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    /** One member: its data directory, configuration and port stay across restarts. */
    private final class Member implements LdapEndpoint {
        final int sid;
        final int port = LarchProcess.freePort();
        final Path data;
        final Path config;
        LarchProcess process;

        Member(int sid) {
            this.sid = sid;
            this.data = dir.resolve("member" + sid);
            this.config = dir.resolve("member" + sid + ".conf");
        }

        /** Writes this member's configuration: it consumes from every other member of {@code set}. */
        void writeConfig(List<Member> set) throws IOException {
            List<String> lines = new ArrayList<>(List.of(
                    "replication.server-id = " + sid,
                    "replication.multi-provider = true",
                    // Nine starts: a warm-up of a thousand entries buys these checks nothing.
                    "server.warm-up-seconds = 0"));
            for (Member other : set) {
                if (other != this) {
                    String key = "replication.consumer." + other.sid + ".";
                    lines.add(key + "provider-url = ldap://127.0.0.1:" + other.port);
                    lines.add(key + "bind-dn = " + LarchProcess.ADMIN_DN);
                    lines.add(key + "bind-password = " + PASSWORD);
                    lines.add(key + "retry-seconds = 1");
                    lines.add(key + "max-retry-seconds = 2");
                }
            }
            Files.writeString(config, String.join("\n", lines) + "\n");
        }

        void start() {
            process = LarchProcess.serve(data)
                    .config(config)
                    .port(port)
                    .adminPassword(PASSWORD)
                    .start();
        }

        void stop() {
            assertEquals(0, process.stop(), () -> name() + " stopped with an error:\n" + process.output());
            process = null;
        }

        @Override
        public String name() {
            return "member " + sid;
        }

        @Override
        public String url() {
            return "ldap://127.0.0.1:" + port;
        }

        @Override
        public String bindDn() {
            return LarchProcess.ADMIN_DN;
        }

        @Override
        public String password() {
            return PASSWORD;
        }
    }

    @Test
    void aPairAndThenThreeMembersConvergeThroughWritesAtOnceAPartitionAJoinAndConflicts() throws Exception {
        Member a = new Member(1);
        Member b = new Member(2);
        Member c = new Member(3);
        List<Member> pair = List.of(a, b);
        List<Member> all = List.of(a, b, c);
        for (Member m : pair) {
            m.writeConfig(pair);
        }
        Path ldif = dir.resolve("tree.ldif");
        TREE.write(ldif);
        ProcessResult imported = LarchProcess.run(
                "import", "--config", a.config.toString(), "--data", a.data.toString(), ldif.toString());
        assertEquals(0, imported.exitCode(), imported::toString);
        try {
            a.start();
            b.start();
            converge(pair, "the empty member 2 pulled the tree");

            writeOn(a, TREE.personDn(1), "written on member 1");
            writeOn(b, TREE.personDn(2), "written on member 2");
            try (LDAPConnection conn = b.connect()) {
                conn.add(person("added-on-2", TREE.unitDn(1)));
            }
            writeAtOnce(a, b);
            converge(pair, "a write on each member of the pair, and conflicting writes on both at once");
            assertAtOnceOutcomes(a);

            b.stop();
            writeOn(a, TREE.personDn(4), "while member 2 was down, on 1");
            try (LDAPConnection conn = a.connect()) {
                conn.delete(TREE.personDn(6));
            }
            b.start();
            converge(pair, "member 2 rejoined the pair after a partition");

            thirdMemberJoins(a, b, c, all);
            converge(all, "member 3 joined; member 1 rejoined after writes on 2 and 3");

            conflicts(a, b, c);
            converge(all, "conflicting writes on members 1 and 2");
            assertConflictOutcomes(a);
        } finally {
            for (Member m : all) {
                if (m.process != null) {
                    m.process.close();
                }
            }
        }
    }

    /**
     * Members 1 and 2 write the same entries at the same moment, each on its own connection released
     * by one barrier: both replace the description of {@value #AT_ONCE_PEOPLE} people, and each deletes
     * a person the other modifies. The other's delete may arrive before a modify, which then finds no
     * entry.
     */
    private static void writeAtOnce(Member a, Member b) throws Exception {
        CyclicBarrier together = new CyclicBarrier(2);
        ExecutorService writers = Executors.newFixedThreadPool(2);
        try {
            Future<?> onA = writers.submit(() -> writeAtOnce(a, together, TREE.personDn(30), TREE.personDn(31)));
            Future<?> onB = writers.submit(() -> writeAtOnce(b, together, TREE.personDn(31), TREE.personDn(30)));
            onA.get(CONVERGE.toSeconds(), TimeUnit.SECONDS);
            onB.get(CONVERGE.toSeconds(), TimeUnit.SECONDS);
        } finally {
            writers.shutdownNow();
        }
    }

    private static Void writeAtOnce(Member m, CyclicBarrier together, String deleted, String modified)
            throws Exception {
        try (LDAPConnection conn = m.connect()) {
            together.await(CONVERGE.toSeconds(), TimeUnit.SECONDS);
            for (int i = AT_ONCE_FIRST; i < AT_ONCE_FIRST + AT_ONCE_PEOPLE; i++) {
                conn.modify(TREE.personDn(i), replace("description", "at once on " + m.name()));
            }
            conn.delete(deleted);
            try {
                conn.modify(modified, replace("description", "at once on " + m.name() + ", deleted on the other"));
            } catch (LDAPException e) {
                assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode(), e::toString);
            }
        }
        return null;
    }

    /** Whichever modify was later, it is one of the two; a delete wins over the other's modify. */
    private static void assertAtOnceOutcomes(Member m) throws LDAPException {
        try (LDAPConnection conn = m.connect()) {
            for (int i = AT_ONCE_FIRST; i < AT_ONCE_FIRST + AT_ONCE_PEOPLE; i++) {
                String value = description(conn, TREE.personDn(i));
                assertTrue(
                        "at once on member 1".equals(value) || "at once on member 2".equals(value),
                        TREE.personDn(i) + ": " + value);
            }
            assertNull(conn.getEntry(TREE.personDn(30)), "a delete wins over a modify made at the same moment");
            assertNull(conn.getEntry(TREE.personDn(31)), "a delete wins over a modify made at the same moment");
        }
    }

    /**
     * Member 3 joins the running pair: it starts empty with both in its configuration and pulls the
     * tree (from both at once); member 2 restarts with member 3 in its configuration; member 1 stops while 2 and 3 take
     * writes, and restarts with member 3 in its configuration too, then takes a write itself.
     */
    private static void thirdMemberJoins(Member a, Member b, Member c, List<Member> all) throws Exception {
        for (Member m : all) {
            m.writeConfig(all);
        }
        c.start();
        // Before its first writes below: member 3 must hold the entries they name.
        converge(List.of(a, c), "the empty member 3 pulled the tree from the running pair");
        b.stop();
        b.start();
        a.stop();
        writeOn(b, TREE.personDn(7), "while member 1 was down, on 2");
        writeOn(c, TREE.personDn(8), "while member 1 was down, on 3");
        try (LDAPConnection conn = c.connect()) {
            conn.delete(TREE.personDn(9));
            conn.add(person("added-on-3", TREE.unitDn(3)));
        }
        a.start();
        writeOn(a, TREE.personDn(14), "written on member 1 after it rejoined");
    }

    /**
     * Members 1 and 2 write without seeing each other: member 2 (and 3) stopped while 1 writes, then 1
     * stopped while 2 writes, so every pair of writes below conflicts and member 2's is the later.
     */
    private void conflicts(Member a, Member b, Member c) throws Exception {
        b.stop();
        c.stop();
        try (LDAPConnection conn = a.connect()) {
            conn.modify(TREE.personDn(10), replace("description", "modify on 1"));
            conn.delete(TREE.personDn(11));
            conn.modify(TREE.personDn(12), replace("description", "modify on 1, renamed on 2"));
            conn.modifyDN(new ModifyDNRequest(TREE.personDn(13), "uid=renamed-on-1", true));
            conn.add(person("same-dn", TREE.unitDn(2)));
            conn.add(person("added-below-the-unit-2-renames", TREE.unitDn(5)));
        }
        a.stop();
        b.start();
        try (LDAPConnection conn = b.connect()) {
            conn.modify(TREE.personDn(10), replace("description", "modify on 2"));
            conn.modify(TREE.personDn(11), replace("description", "modify on 2 of an entry 1 deleted"));
            conn.modifyDN(new ModifyDNRequest(TREE.personDn(12), "uid=renamed-on-2", true));
            conn.modify(TREE.personDn(13), replace("description", "modify on 2, renamed on 1"));
            conn.add(person("same-dn", TREE.unitDn(2)));
            conn.modifyDN(new ModifyDNRequest(TREE.unitDn(5), "ou=renamed-unit5", true));
        }
        a.start();
        c.start();
    }

    private static void assertConflictOutcomes(Member m) throws LDAPException {
        try (LDAPConnection conn = m.connect()) {
            assertEquals("modify on 2", description(conn, TREE.personDn(10)), "the later modify wins");
            assertNull(conn.getEntry(TREE.personDn(11)), "a delete wins over a concurrent modify");
            String renamedUnit = TREE.unitDn(5).replace("ou=unit5", "ou=renamed-unit5");
            SearchResultEntry below = conn.getEntry("uid=added-below-the-unit-2-renames," + renamedUnit);
            assertEquals(
                    "added-below-the-unit-2-renames",
                    below == null ? null : below.getAttributeValue("uid"),
                    "an entry added below a unit renamed meanwhile follows the unit");
        }
    }

    private static String description(LDAPConnection conn, String dn) throws LDAPException {
        SearchResultEntry entry = conn.getEntry(dn, "description");
        return entry == null ? null : entry.getAttributeValue("description");
    }

    private static void writeOn(Member m, String dn, String description) throws LDAPException {
        try (LDAPConnection conn = m.connect()) {
            conn.modify(dn, replace("description", description));
        }
    }

    private static Modification replace(String attribute, String value) {
        return new Modification(ModificationType.REPLACE, attribute, value);
    }

    private static Entry person(String uid, String parentDn) {
        return new Entry(
                "uid=" + uid + "," + parentDn,
                new Attribute("objectClass", "inetOrgPerson"),
                new Attribute("uid", uid),
                new Attribute("cn", uid),
                new Attribute("sn", uid));
    }

    /** Every member of {@code set} equal to its first, entry by entry, stamps included. */
    private static void converge(List<Member> set, String step) throws InterruptedException {
        Member first = set.get(0);
        for (Member other : set.subList(1, set.size())) {
            try {
                Duration took = new TreeComparison(first, other).awaitConverged(CONVERGE);
                System.out.printf("[sync] %s: %s converged in %d ms%n", step, other.name(), took.toMillis());
            } catch (AssertionError e) {
                throw new AssertionError(
                        step + ": " + e.getMessage() + "\n" + first.name() + "'s output:\n" + tail(first) + "\n"
                                + other.name() + "'s output:\n" + tail(other),
                        e);
            }
        }
    }

    private static String tail(Member m) {
        if (m.process == null) {
            return "(not running)";
        }
        String[] lines = m.process.output().split("\n");
        return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 30), lines.length));
    }
}
