package dev.larch.server.ldif;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.write.InitialSuffix;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LdifImporterTest {
    @TempDir
    Path dir;

    private StoredDirectory open(Path data) {
        return StoredDirectory.open(LarchConfig.defaults().withDataDir(data), LarchSchema.standard(), false);
    }

    private Path ldif(String text) throws Exception {
        Path file = Files.createTempFile(dir, "in", ".ldif");
        Files.writeString(file, text);
        return file;
    }

    private static String people(int n) {
        StringBuilder b = new StringBuilder(Ldif.BASE);
        for (int i = 0; i < n; i++) {
            b.append(Ldif.person("u" + i, "User " + i, "Sn" + i, null));
        }
        return b.toString();
    }

    @Test
    void importsEveryEntryInBatchesAndReportsProgress() throws Exception {
        try (StoredDirectory open = open(dir.resolve("data"))) {
            List<Long> progress = new ArrayList<>();
            LdifImporter.Result result = new LdifImporter(open, 100).importFile(ldif(people(250)), progress::add);
            assertEquals(253, result.entries());
            assertEquals(List.of(100L, 200L), progress);
            try (ReadTxn txn = open.store().read()) {
                assertEquals(253, txn.entryCount());
            }
        }
    }

    @Test
    void memberOfIsComputedAfterTheEntriesWhateverTheLdifSaid() throws Exception {
        String groups = "ou=Groups,dc=example,dc=com";
        String text = people(3)
                // (the base tree holds ou=Groups) outer names inner before inner exists; u2 claims a group that does
                // not hold it
                + "dn: cn=outer," + groups + "\nobjectClass: groupOfNames\ncn: outer\nmember: cn=inner," + groups
                + "\n\n"
                + "dn: cn=inner," + groups + "\nobjectClass: groupOfUniqueNames\ncn: inner\nuniqueMember: "
                + "uid=u0,ou=People,dc=example,dc=com\n\n";
        text = text.replace(
                "dn: uid=u2,ou=People,dc=example,dc=com\n",
                "dn: uid=u2,ou=People,dc=example,dc=com\nmemberOf: cn=outer," + groups + "\n");
        try (StoredDirectory open = open(dir.resolve("data"))) {
            LdifImporter.Result result = new LdifImporter(open, 2).importFile(ldif(text), n -> {});
            assertEquals(2, result.withMemberOf()); // u0 (inner, outer) and inner (outer)
            assertEquals(
                    List.of("cn=inner," + groups, "cn=outer," + groups),
                    memberOf(open, "uid=u0,ou=People,dc=example,dc=com"));
            assertEquals(List.of("cn=outer," + groups), memberOf(open, "cn=inner," + groups));
            assertEquals(List.of(), memberOf(open, "uid=u2,ou=People,dc=example,dc=com"));
        }
    }

    private static List<String> memberOf(StoredDirectory open, String dn) {
        try (ReadTxn txn = open.store().read()) {
            var directory = open.directory();
            var entry = directory.load(
                    txn, directory.require(txn, directory.schemaNormalizer().dn(dn)));
            var values = entry.attribute(Directory.MEMBER_OF_OID);
            List<String> out = new ArrayList<>();
            if (values != null) {
                for (byte[] v : values.values()) {
                    out.add(new String(v, StandardCharsets.UTF_8));
                }
            }
            out.sort(null);
            return out;
        }
    }

    @Test
    void exportOfAnImportImportsBackToTheSameLdif() throws Exception {
        StringWriter first = new StringWriter();
        try (StoredDirectory open = open(dir.resolve("a"))) {
            new LdifImporter(open, 50).importFile(ldif(people(120)), n -> {});
            new LdifExporter(open).export(first);
        }
        StringWriter second = new StringWriter();
        try (StoredDirectory open = open(dir.resolve("b"))) {
            new LdifImporter(open, 50).importFile(ldif(first.toString()), n -> {});
            new LdifExporter(open).export(second);
        }
        assertEquals(first.toString(), second.toString());
        assertTrue(first.toString().contains("dn: uid=u119,ou=People,dc=example,dc=com"));
    }

    @Test
    void aMissingParentStopsTheImportNamingTheEntry() throws Exception {
        try (StoredDirectory open = open(dir.resolve("data"))) {
            String text = people(5) + "dn: uid=x,ou=Nowhere,dc=example,dc=com\nobjectClass: inetOrgPerson\n"
                    + "uid: x\ncn: x\nsn: x\n\n";
            var e = assertThrows(
                    LdifImporter.ImportException.class,
                    () -> new LdifImporter(open, 3).importFile(ldif(text), n -> {}));
            assertTrue(
                    e.getMessage().startsWith("entry 9 (uid=x,ou=Nowhere,dc=example,dc=com): parent entry"),
                    e.getMessage());
        }
    }

    @Test
    void aSchemaViolationStopsTheImportNamingTheEntry() throws Exception {
        try (StoredDirectory open = open(dir.resolve("data"))) {
            String text =
                    Ldif.BASE + "dn: uid=y,ou=People,dc=example,dc=com\nobjectClass: inetOrgPerson\nuid: y\ncn: y\n\n";
            var e = assertThrows(
                    LdifImporter.ImportException.class,
                    () -> new LdifImporter(open, 10).importFile(ldif(text), n -> {}));
            assertTrue(e.getMessage().contains("entry 4 (uid=y,ou=People,dc=example,dc=com)"), e.getMessage());
            assertTrue(e.getMessage().contains("requires attribute 'sn'"), e.getMessage());
        }
    }

    @Test
    void malformedLdifIsReportedNotCrashed() throws Exception {
        try (StoredDirectory open = open(dir.resolve("data"))) {
            var e = assertThrows(
                    LdifImporter.ImportException.class,
                    () -> new LdifImporter(open, 10)
                            .importFile(ldif(Ldif.BASE + "dn: =broken\nnot ldif at all\n\n"), n -> {}));
            assertTrue(e.getMessage().startsWith("entry 4 (=broken), near line 17: "), e.getMessage());
        }
    }

    @Test
    void changeRecordsAreRefused() throws Exception {
        try (StoredDirectory open = open(dir.resolve("data"))) {
            String text = Ldif.BASE + "dn: ou=People,dc=example,dc=com\nchangetype: delete\n\n";
            var e = assertThrows(
                    LdifImporter.ImportException.class,
                    () -> new LdifImporter(open, 10).importFile(ldif(text), n -> {}));
            assertTrue(e.getMessage().contains("not change records"), e.getMessage());
        }
    }

    @Test
    void theSuffixAServerCreatedInAnEmptyStoreIsReplacedByTheLdifs() throws Exception {
        try (StoredDirectory open = open(dir.resolve("data"))) {
            assertTrue(InitialSuffix.createIfEmpty(open.directory(), open.checker())
                    .isPresent());
            LdifImporter.Result result = new LdifImporter(open, 2).importFile(ldif(people(3)), n -> {});
            assertEquals(6, result.entries());
            try (ReadTxn txn = open.store().read()) {
                assertEquals(6, txn.entryCount());
                long id = open.directory().resolve(txn, open.directory().suffix());
                StoredEntry suffix = open.directory().load(txn, id);
                Entry entry = open.directory().schemaNormalizer().toEntry(suffix);
                assertEquals("Example", entry.get("o").getString(), "the LDIF's o, not the server's");
            }
        }
    }

    @Test
    void aSuffixInAStoreWithMoreEntriesStillClashes() throws Exception {
        try (StoredDirectory open = open(dir.resolve("data"))) {
            new LdifImporter(open, 10).importFile(ldif(Ldif.BASE), n -> {});
            var e = assertThrows(
                    LdifImporter.ImportException.class,
                    () -> new LdifImporter(open, 10).importFile(ldif(Ldif.BASE), n -> {}));
            assertTrue(e.getMessage().contains("entry already exists: dc=example,dc=com"), e.getMessage());
        }
    }

    @Test
    void aBadEntryInTheMiddleOfABulkLoadIsNamedAndTheStoreIsLeftEmpty() throws Exception {
        String text = people(2000)
                .replace(
                        "dn: uid=u999,ou=People,dc=example,dc=com\n",
                        "dn: uid=u999,ou=People,dc=example,dc=com\nnoSuchAttribute: x\n");
        Path data = dir.resolve("data");
        try (StoredDirectory open = open(data)) {
            var e = assertThrows(
                    LdifImporter.ImportException.class,
                    () -> new LdifImporter(open, 100, 0, 1 << 16).importFile(ldif(text), n -> {}));
            // Three base entries, then u0..u998: u999 is entry 1003.
            assertTrue(
                    e.getMessage().startsWith("entry 1003 (uid=u999,ou=People,dc=example,dc=com): "), e.getMessage());
            assertTrue(e.getMessage().contains("noSuchAttribute"), e.getMessage());
            try (ReadTxn txn = open.store().read()) {
                assertEquals(0, txn.entryCount(), "a stopped bulk load leaves the store empty");
            }
            assertTrue(open.store().indexes().unbuilt().isEmpty(), "empty indexes cover every entry");
        }
        try (var files = Files.list(data)) {
            assertEquals(
                    List.of(),
                    files.filter(p -> p.getFileName().toString().startsWith("import-runs-"))
                            .toList());
        }
        try (StoredDirectory open = open(data)) {
            assertEquals(
                    253,
                    new LdifImporter(open, 100)
                            .importFile(ldif(people(250)), n -> {})
                            .entries());
        }
    }

    @Test
    void aChildBeforeItsParentIsRefusedNamingTheChildAndTheMissingParent() throws Exception {
        String text = people(3)
                + "dn: uid=early,ou=Late,dc=example,dc=com\nobjectClass: inetOrgPerson\nuid: early\ncn: e\nsn: e\n\n"
                + "dn: ou=Late,dc=example,dc=com\nobjectClass: organizationalUnit\nou: Late\n\n";
        try (StoredDirectory open = open(dir.resolve("data"))) {
            var e = assertThrows(
                    LdifImporter.ImportException.class,
                    () -> new LdifImporter(open, 10).importFile(ldif(text), n -> {}));
            assertEquals(
                    "entry 7 (uid=early,ou=Late,dc=example,dc=com): parent entry does not exist:"
                            + " ou=Late,dc=example,dc=com [noSuchObject]",
                    e.getMessage());
        }
    }

    @Test
    void aRecordThatDoesNotParseInTheMiddleIsNamedWithItsLine() throws Exception {
        String before = people(40);
        String text = before + "dn: uid=bad,ou=People,dc=example,dc=com\nobjectClass inetOrgPerson\n\n"
                + Ldif.person("late", "Late", "Late", null);
        int dnLine = (int) before.chars().filter(c -> c == '\n').count() + 1;
        try (StoredDirectory open = open(dir.resolve("data"))) {
            var e = assertThrows(
                    LdifImporter.ImportException.class,
                    () -> new LdifImporter(open, 10).importFile(ldif(text), n -> {}));
            String prefix = "entry 44 (uid=bad,ou=People,dc=example,dc=com), near line ";
            assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
            int line =
                    Integer.parseInt(e.getMessage().substring(prefix.length()).split(":")[0]);
            assertTrue(line >= dnLine && line <= dnLine + 2, "line " + line + ", the record starts at " + dnLine);
        }
    }

    @Test
    void theOrdinaryPathStillServesAnImportWithNoSortMemory() throws Exception {
        try (StoredDirectory open = open(dir.resolve("data"))) {
            LdifImporter.Result result = new LdifImporter(open, 100, 0, 0).importFile(ldif(people(250)), n -> {});
            assertEquals(253, result.entries());
            try (ReadTxn txn = open.store().read()) {
                assertEquals(253, txn.entryCount());
            }
        }
    }
}
