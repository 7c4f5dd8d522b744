package dev.larch.server.ldif;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
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
}
