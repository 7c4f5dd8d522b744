package dev.larch.server.bulk;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.ldif.LdifImporter;
import dev.larch.server.maintenance.StoreVerifier;
import dev.larch.server.maintenance.VerifyReport;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bulk path of the import against the ordinary one: the same generated LDIF (a few thousand
 * people in several units, groups nested and not, memberOf claims the import must ignore) imported
 * both ways must give the same store record for record, answer every search the same through a
 * real server, and verify clean; the bulk import is run with a tiny sort memory so that its index
 * records go through many spilled runs.
 */
class BulkImportIT {
    private static final String SUFFIX = "dc=example,dc=com";
    private static final int PEOPLE = 3000;
    private static final int UNITS = 3;
    private static final int GROUPS = 20;
    private static final Set<String> OPERATIONAL =
            Set.of("entryuuid", "entrycsn", "createtimestamp", "modifytimestamp", "creatorsname", "modifiersname");

    /** entryUUID and entryCSN, whose index keys differ between two imports of one file. */
    private static final Set<String> STAMP_INDEXES = Set.of("1.3.6.1.1.16.4", "1.3.6.1.4.1.4203.666.1.7");

    @TempDir
    static Path dir;

    static Path ordinary;
    static Path bulk;
    static LdifImporter.Result bulkResult;
    static LdifImporter.Result ordinaryResult;
    static List<String> ordinaryContents;
    static List<String> bulkContents;
    static String bulkVerified;
    static TestServer ordinaryServer;
    static TestServer bulkServer;

    @BeforeAll
    static void importBothWays() throws Exception {
        Path ldif = dir.resolve("people.ldif");
        Files.writeString(ldif, generate(), StandardCharsets.UTF_8);
        ordinary = dir.resolve("ordinary");
        bulk = dir.resolve("bulk");
        ordinaryResult = importInto(ordinary, ldif, 0);
        bulkResult = importInto(bulk, ldif, 1 << 20);
        // Read before the servers start: LMDB must not open one store twice in a process.
        ordinaryContents = contents(ordinary);
        bulkContents = contents(bulk);
        bulkVerified = verify(bulk);
        // The administrator unlimited: some searches below return every person.
        ordinaryServer = TestServer.start(ordinary, c -> c.set("limits.apply-to-admin", false));
        bulkServer = TestServer.start(bulk, c -> c.set("limits.apply-to-admin", false));
    }

    @AfterAll
    static void stop() {
        if (ordinaryServer != null) {
            ordinaryServer.close();
        }
        if (bulkServer != null) {
            bulkServer.close();
        }
    }

    private static LdifImporter.Result importInto(Path data, Path ldif, long sortMemory) throws Exception {
        LarchConfig config = TestServer.config(data);
        try (StoredDirectory open = StoredDirectory.open(config, LarchSchema.load(config.schemaFiles()), false)) {
            return new LdifImporter(open, 500, config.limits().indexEntryLimit(), sortMemory).importFile(ldif, n -> {});
        }
    }

    private static String person(int i) {
        String unit = "ou=unit" + (i % UNITS) + ",ou=People," + SUFFIX;
        String given = List.of("Ann", "Bob", "Cleo", "Dan", "Eve", "Ümit").get(i % 6);
        String sn = "Sn" + (i % 97);
        StringBuilder b = new StringBuilder()
                .append("dn: uid=user")
                .append(i)
                .append(',')
                .append(unit)
                .append("\nobjectClass: inetOrgPerson\nuid: user")
                .append(i)
                .append("\ncn: ")
                .append(given)
                .append(' ')
                .append(sn)
                .append(" ")
                .append(i)
                .append("\nsn: ")
                .append(sn)
                .append("\ngivenName: ")
                .append(given)
                .append("\nmail: user")
                .append(i)
                .append("@example.com\n");
        if (i > 0) {
            b.append("manager: uid=user")
                    .append(i / 2)
                    .append(",ou=unit")
                    .append((i / 2) % UNITS)
                    .append(",ou=People,")
                    .append(SUFFIX)
                    .append('\n');
        }
        if (i % 10 == 0) {
            // A claim the import drops: memberOf is computed from the groups.
            b.append("memberOf: cn=group1,ou=Groups,").append(SUFFIX).append('\n');
        }
        return b.append('\n').toString();
    }

    static String generate() {
        StringBuilder b = new StringBuilder("version: 1\n\n")
                .append("dn: ")
                .append(SUFFIX)
                .append("\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n\n")
                .append("dn: ou=People,")
                .append(SUFFIX)
                .append("\nobjectClass: organizationalUnit\nou: People\n\n")
                .append("dn: ou=Groups,")
                .append(SUFFIX)
                .append("\nobjectClass: organizationalUnit\nou: Groups\n\n");
        for (int u = 0; u < UNITS; u++) {
            b.append("dn: ou=unit")
                    .append(u)
                    .append(",ou=People,")
                    .append(SUFFIX)
                    .append("\nobjectClass: organizationalUnit\nou: unit")
                    .append(u)
                    .append("\n\n");
        }
        for (int i = 0; i < PEOPLE; i++) {
            b.append(person(i));
        }
        for (int g = 0; g < GROUPS; g++) {
            b.append("dn: cn=group")
                    .append(g)
                    .append(",ou=Groups,")
                    .append(SUFFIX)
                    .append('\n');
            b.append(g % 2 == 0 ? "objectClass: groupOfNames\n" : "objectClass: groupOfUniqueNames\n");
            b.append("cn: group").append(g).append('\n');
            String memberAttribute = g % 2 == 0 ? "member: " : "uniqueMember: ";
            for (int i = g; i < PEOPLE; i += 7 + g) {
                b.append(memberAttribute)
                        .append("uid=user")
                        .append(i)
                        .append(",ou=unit")
                        .append(i % UNITS)
                        .append(",ou=People,")
                        .append(SUFFIX)
                        .append('\n');
            }
            if (g > 0 && g % 2 == 0) {
                // Nested: group g names group g-2 (after it in the file, so memberOf must wait for all).
                b.append("member: cn=group")
                        .append(g - 2)
                        .append(",ou=Groups,")
                        .append(SUFFIX)
                        .append('\n');
            }
            b.append('\n');
        }
        return b.toString();
    }

    @Test
    void bothPathsImportEveryEntryAndTheSameMemberOfValues() {
        int total = 1 + 2 + UNITS + PEOPLE + GROUPS;
        assertEquals(total, ordinaryResult.entries());
        assertEquals(total, bulkResult.entries());
        assertTrue(bulkResult.withMemberOf() > PEOPLE / 2, "memberOf: " + bulkResult.withMemberOf());
        assertEquals(ordinaryResult.withMemberOf(), bulkResult.withMemberOf());
    }

    @Test
    void theStoresHoldTheSameRecordsInEveryTree() throws Exception {
        assertEquals(ordinaryContents.size(), bulkContents.size());
        for (int i = 0; i < ordinaryContents.size(); i++) {
            assertEquals(ordinaryContents.get(i), bulkContents.get(i), "record " + i);
        }
    }

    /** Every entry (ID, DN, attributes), DN record and index record of the store at {@code data}. */
    private static List<String> contents(Path data) throws Exception {
        LarchConfig config = TestServer.config(data);
        List<String> out = new ArrayList<>();
        try (StoredDirectory open =
                        StoredDirectory.openReadOnly(config, LarchSchema.load(config.schemaFiles()), false);
                ReadTxn txn = open.store().read()) {
            try (IdCursor ids = txn.allEntries()) {
                for (long id = ids.next(); id != ReadTxn.NOT_FOUND; id = ids.next()) {
                    var entry = open.directory().load(txn, id);
                    StringBuilder b =
                            new StringBuilder("entry " + id + " " + entry.dn() + " parent " + entry.parentId());
                    for (var attribute : entry.attributes()) {
                        // entryUUID, entryCSN and the timestamps are the import's own, different in each store.
                        if (!OPERATIONAL.contains(attribute.userId().toLowerCase(Locale.ROOT))) {
                            b.append(' ').append(attribute.userId()).append('=');
                            for (byte[] value : attribute.values()) {
                                b.append(new String(value, StandardCharsets.UTF_8))
                                        .append(';');
                            }
                        }
                    }
                    out.add(b.toString());
                }
            }
            txn.forEachDnRecord((key, id) -> out.add("dn " + hex(key) + " " + id));
            for (IndexRef ref : open.store().indexes().refs()) {
                if (STAMP_INDEXES.contains(ref.attributeOid())) {
                    continue; // keyed by each import's own entryUUIDs and entryCSNs
                }
                txn.forEachIndexRecord(
                        ref.attributeOid(), ref.kind(), (key, id) -> out.add(ref + " " + hex(key) + " " + id));
            }
        }
        return out;
    }

    private static String hex(byte[] key) {
        StringBuilder b = new StringBuilder();
        for (byte x : key) {
            b.append(String.format(Locale.ROOT, "%02x", x));
        }
        return b.toString();
    }

    private static String verify(Path data) throws Exception {
        try (StoredDirectory open = StoredDirectory.openReadOnly(
                TestServer.config(data),
                LarchSchema.load(TestServer.config(data).schemaFiles()),
                false)) {
            VerifyReport report = new StoreVerifier(open.directory(), null).verify();
            return "clean " + report.clean() + ", entries " + report.entries() + ", index records over "
                    + (PEOPLE * 10L) + " " + (report.indexRecords() > PEOPLE * 10L) + ", unbuilt "
                    + open.store().indexes().unbuilt() + ", problems " + report.listed();
        }
    }

    @Test
    void theBulkStoreVerifiesCleanAndKeepsNoRunFiles() throws Exception {
        assertEquals(
                "clean true, entries " + (1 + 2 + UNITS + PEOPLE + GROUPS) + ", index records over " + (PEOPLE * 10L)
                        + " true, unbuilt [], problems []",
                bulkVerified);
        try (Stream<Path> files = Files.list(bulk)) {
            assertEquals(
                    List.of(),
                    files.filter(p -> p.getFileName().toString().startsWith("import-runs-"))
                            .toList());
        }
    }

    @Test
    void everySearchAnswersTheSameOnBothStores() throws Exception {
        List<String> filters = new ArrayList<>();
        for (int i : new int[] {0, 1, 7, 500, 1234, 2999}) {
            filters.add("(uid=user" + i + ")");
            filters.add("(mail=user" + i + "@example.com)");
            filters.add("(uid=*er" + i + ")");
            filters.add("(mail=user" + i + "*)");
            filters.add("(manager=uid=user" + i + ",ou=unit" + (i % UNITS) + ",ou=People," + SUFFIX + ")");
        }
        for (String given : List.of("Ann", "Cleo", "Ümit")) {
            filters.add("(givenName=" + given + ")");
            filters.add("(givenName=*" + given.substring(1) + ")");
            filters.add("(cn=" + given + " Sn5 *)");
        }
        filters.add("(sn=Sn42)");
        filters.add("(sn=*n4*)");
        filters.add("(cn=*Sn96 29*)");
        filters.add("(objectClass=groupOfUniqueNames)");
        filters.add("(objectClass=organizationalUnit)");
        filters.add("(member=uid=user14,ou=unit2,ou=People," + SUFFIX + ")");
        filters.add("(uniqueMember=uid=user1,ou=unit1,ou=People," + SUFFIX + ")");
        for (int g : new int[] {0, 1, 2, 4, 19}) {
            filters.add("(memberOf=cn=group" + g + ",ou=Groups," + SUFFIX + ")");
        }
        try (LDAPConnection a = ordinaryServer.admin();
                LDAPConnection b = bulkServer.admin()) {
            for (String filter : filters) {
                Set<String> expected = dns(a, SUFFIX, SearchScope.SUB, filter);
                assertEquals(expected, dns(b, SUFFIX, SearchScope.SUB, filter), filter);
                assertTrue(!expected.isEmpty() || filter.startsWith("(manager=uid=user2999"), "no match: " + filter);
            }
            for (int u = 0; u < UNITS; u++) {
                String base = "ou=unit" + u + ",ou=People," + SUFFIX;
                Set<String> one = dns(b, base, SearchScope.ONE, "(objectClass=*)");
                assertEquals(dns(a, base, SearchScope.ONE, "(objectClass=*)"), one, base);
                assertEquals(PEOPLE / UNITS, one.size(), base);
                assertEquals(dns(a, base, SearchScope.SUB, "(sn=Sn1*)"), dns(b, base, SearchScope.SUB, "(sn=Sn1*)"));
            }
            assertEquals(
                    dns(a, SUFFIX, SearchScope.SUB, "(objectClass=*)"),
                    dns(b, SUFFIX, SearchScope.SUB, "(objectClass=*)"));
            // memberOf holds the computed groups, not the LDIF's claim (user10 is in no group1).
            Set<String> groupsOf10 = new TreeSet<>();
            SearchResultEntry user10 = b.getEntry("uid=user10,ou=unit1,ou=People," + SUFFIX, "memberOf");
            for (String g : user10.getAttributeValues("memberOf")) {
                groupsOf10.add(g.toLowerCase(Locale.ROOT));
            }
            SearchResultEntry before = a.getEntry("uid=user10,ou=unit1,ou=People," + SUFFIX, "memberOf");
            Set<String> expected = new TreeSet<>();
            for (String g : before.getAttributeValues("memberOf")) {
                expected.add(g.toLowerCase(Locale.ROOT));
            }
            assertEquals(expected, groupsOf10);
            assertTrue(!groupsOf10.contains("cn=group1,ou=groups," + SUFFIX), groupsOf10.toString());
        }
    }

    private static Set<String> dns(LDAPConnection c, String base, SearchScope scope, String filter) throws Exception {
        SearchResult result = c.search(base, scope, filter, "1.1");
        Set<String> out = new HashSet<>();
        for (SearchResultEntry e : result.getSearchEntries()) {
            out.add(e.getDN().toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
