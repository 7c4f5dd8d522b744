package dev.larch.server.write;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.ldif.LdifExporter;
import dev.larch.server.maintenance.StoreVerifier;
import dev.larch.server.maintenance.VerifyReport;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A modify DN of an entry with thousands of descendants (store format 3: the descendants store
 * their RDN, so only the renamed entry is rewritten): every descendant's DN is right afterwards in
 * searches, through indexes, in group references and memberOf, after a restart, in an export and
 * to {@code verify}.
 */
class SubtreeRenameIT {
    private static final String SUFFIX = TestServer.SUFFIX;
    private static final String STAFF = "ou=staff," + SUFFIX;
    private static final String MOVED = "ou=crew,ou=people," + SUFFIX;
    private static final String GROUP = "cn=leads,ou=groups," + SUFFIX;
    private static final int PEOPLE = 2_000;
    private static final int TEAM = 10;

    @TempDir
    Path dir;

    private static String uid(int i) {
        return String.format(Locale.ROOT, "u%04d", i);
    }

    /** ou=staff with PEOPLE people and ou=team of TEAM more; a group naming one of each. */
    private static String tree() {
        StringBuilder ldif = new StringBuilder(TestServer.BASE_LDIF).append('\n');
        ldif.append("dn: ").append(STAFF).append("\nobjectClass: organizationalUnit\nou: staff\n\n");
        ldif.append("dn: ou=team,").append(STAFF).append("\nobjectClass: organizationalUnit\nou: team\n\n");
        for (int i = 0; i < PEOPLE + TEAM; i++) {
            String parent = i < PEOPLE ? STAFF : "ou=team," + STAFF;
            ldif.append("dn: uid=")
                    .append(uid(i))
                    .append(',')
                    .append(parent)
                    .append("\nobjectClass: inetOrgPerson\nuid: ")
                    .append(uid(i))
                    .append("\ncn: Person ")
                    .append(i)
                    .append("\nsn: P")
                    .append(i)
                    .append("\n\n");
        }
        ldif.append("dn: ")
                .append(GROUP)
                .append("\nobjectClass: groupOfNames\ncn: leads\nmember: uid=u0007,")
                .append(STAFF)
                .append("\nmember: uid=u")
                .append(PEOPLE + 3)
                .append(",ou=team,")
                .append(STAFF)
                .append("\n\n");
        return ldif.toString();
    }

    /** The DN every descendant must have after the move, normalized as UnboundID compares DNs. */
    private static Set<String> expectedDns() {
        Set<String> out = new TreeSet<>();
        out.add(MOVED);
        out.add("ou=team," + MOVED);
        for (int i = 0; i < PEOPLE + TEAM; i++) {
            out.add("uid=" + uid(i) + "," + (i < PEOPLE ? MOVED : "ou=team," + MOVED));
        }
        return out;
    }

    private static Set<String> subtree(LDAPConnection c, String base, String filter) throws Exception {
        Set<String> out = new TreeSet<>();
        for (SearchResultEntry e :
                c.search(base, SearchScope.SUB, filter, "1.1").getSearchEntries()) {
            out.add(e.getDN());
        }
        return out;
    }

    private static void checkDescendants(TestServer server) throws Exception {
        try (LDAPConnection c = server.admin()) {
            assertEquals(expectedDns(), subtree(c, MOVED, "(objectClass=*)"));
            assertEquals(Set.of("uid=u1234," + MOVED), subtree(c, SUFFIX, "(uid=u1234)"), "an indexed equality");
            assertEquals(
                    Set.of("uid=u" + (PEOPLE + 3) + ",ou=team," + MOVED),
                    subtree(c, "ou=team," + MOVED, "(cn=Person " + (PEOPLE + 3) + ")"));
            assertEquals(
                    "uid=u0042," + MOVED,
                    c.getEntry("uid=u0042," + MOVED, "entryDN").getAttributeValue("entryDN"));
            LDAPSearchException gone =
                    assertThrows(LDAPSearchException.class, () -> c.search(STAFF, SearchScope.SUB, "(objectClass=*)"));
            assertEquals(ResultCode.NO_SUCH_OBJECT, gone.getResultCode());
            assertEquals(
                    Set.of("uid=u0007," + MOVED, "uid=u" + (PEOPLE + 3) + ",ou=team," + MOVED),
                    new TreeSet<>(List.of(c.getEntry(GROUP, "member").getAttributeValues("member"))),
                    "references to descendants follow the rename");
            assertEquals(
                    List.of(GROUP),
                    List.of(c.getEntry("uid=u0007," + MOVED, "memberOf").getAttributeValues("memberOf")));
            assertEquals(
                    List.of(GROUP),
                    List.of(c.getEntry("uid=u" + (PEOPLE + 3) + ",ou=team," + MOVED, "memberOf")
                            .getAttributeValues("memberOf")));
        }
    }

    @Test
    void everyDescendantOfAMovedSubtreeHasItsNewDnInSearchesAfterARestartInAnExportAndToVerify() throws Exception {
        // No size limit: the checks read the whole moved subtree in one search. References to
        // renamed entries are rewritten by the default integrity rules (member among them).
        LarchConfig config = TestServer.withIntegrityRules(TestServer.settings(dir.resolve("data")))
                .set("limits.size-limit", 0)
                .set("limits.time-limit-seconds", 0)
                .set("limits.look-through-limit", 0)
                .set("limits.apply-to-admin", true)
                .build();
        TestServer.importOffline(config, tree());
        try (TestServer server = TestServer.start(config)) {
            try (LDAPConnection c = server.admin()) {
                assertEquals(
                        PEOPLE + TEAM + 2, subtree(c, STAFF, "(objectClass=*)").size());
                assertEquals(
                        ResultCode.SUCCESS,
                        c.modifyDN(STAFF, "ou=crew", true, "ou=people," + SUFFIX)
                                .getResultCode());
            }
            checkDescendants(server);
            server.restart();
            checkDescendants(server);
        }
        try (StoredDirectory open =
                StoredDirectory.openReadOnly(config, LarchSchema.load(config.schemaFiles()), false)) {
            VerifyReport report = new StoreVerifier(open.directory(), null).verify();
            assertTrue(report.clean(), report.listed().toString());
            StringWriter out = new StringWriter();
            new LdifExporter(open).export(out);
            List<String> movedDns = new ArrayList<>();
            for (String line : out.toString().split("\n")) {
                if (line.startsWith("dn: ") && line.endsWith(MOVED)) {
                    movedDns.add(line.substring(4));
                }
                assertTrue(!line.startsWith("dn: ") || !line.contains("ou=staff"), line);
            }
            assertEquals(expectedDns(), new TreeSet<>(movedDns));
        }
    }
}
