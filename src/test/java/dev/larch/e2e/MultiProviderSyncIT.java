package dev.larch.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import dev.larch.e2e.sync.LdapEndpoint;
import dev.larch.e2e.sync.TreeComparison;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Three Larch servers in one multi-provider set (server IDs 1, 2 and 3, each consuming from the two
 * others): the first is loaded with a tree and the others start empty and pull it; writes made on
 * every member reach the others; one member stopped while the others take writes catches up when it
 * returns; and conflicting writes, made on two members while they cannot see each other (each
 * stopped in turn), end the same way on all three: the later modify of an attribute wins, a delete
 * wins over a modify, a rename and a modify of one entry end as the later of the two, two adds of one
 * DN leave the later entry, and people added below a unit that another member renamed follow the
 * unit.
 */
class MultiProviderSyncIT {
    private static final String PASSWORD = "members-secret";
    private static final GeneratedTree TREE = new GeneratedTree(2_000, 10);
    private static final Duration CONVERGE = Duration.ofSeconds(90);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private final List<Member> members = new ArrayList<>();

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

        void writeConfig() throws IOException {
            List<String> lines = new ArrayList<>(List.of(
                    "replication.server-id = " + sid,
                    "replication.multi-provider = true",
                    // Nine starts: a warm-up of a few thousand entries buys these checks nothing.
                    "server.warm-up-seconds = 0"));
            for (Member other : members) {
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
    void threeMembersTakingWritesConvergeThroughAPartitionAndConflicts() throws Exception {
        for (int sid = 1; sid <= 3; sid++) {
            members.add(new Member(sid));
        }
        for (Member m : members) {
            m.writeConfig();
        }
        Member a = members.get(0);
        Member b = members.get(1);
        Member c = members.get(2);
        Path ldif = dir.resolve("tree.ldif");
        TREE.write(ldif);
        ProcessResult imported = LarchProcess.run(
                "import", "--config", a.config.toString(), "--data", a.data.toString(), ldif.toString());
        assertEquals(0, imported.exitCode(), imported::toString);
        try {
            for (Member m : members) {
                m.start();
            }
            converge("the empty members pulled the tree");

            writeOn(a, TREE.personDn(1), "written on member 1");
            writeOn(b, TREE.personDn(2), "written on member 2");
            writeOn(c, TREE.personDn(3), "written on member 3");
            try (LDAPConnection conn = b.connect()) {
                conn.add(person("added-on-2", TREE.unitDn(1)));
            }
            converge("a write on each member");

            c.stop();
            writeOn(a, TREE.personDn(4), "while member 3 was down, on 1");
            writeOn(b, TREE.personDn(5), "while member 3 was down, on 2");
            try (LDAPConnection conn = a.connect()) {
                conn.delete(TREE.personDn(6));
            }
            c.start();
            converge("member 3 rejoined after a partition");

            conflicts(a, b, c);
            converge("conflicting writes on members 1 and 2");
            assertConflictOutcomes(a);
        } finally {
            for (Member m : members) {
                if (m.process != null) {
                    m.process.close();
                }
            }
        }
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

    /** Every member equal to member 1, entry by entry, stamps included. */
    private void converge(String step) throws InterruptedException {
        Member first = members.get(0);
        for (Member other : members.subList(1, members.size())) {
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
