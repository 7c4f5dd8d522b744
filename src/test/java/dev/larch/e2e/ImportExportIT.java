package dev.larch.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./larch import} and {@code ./larch export}: a generated tree imported offline, served,
 * exported and re-imported; and the ways an import must refuse or stop.
 */
class ImportExportIT {
    static final GeneratedTree TREE = new GeneratedTree(3000, 10);
    static final Pattern IMPORTED = Pattern.compile(
            "^Imported ([0-9,]+) entries in [0-9.]+ s \\(([0-9,]+) entries/s\\); data file [0-9,]+ bytes$");

    @TempDir
    static Path dir;

    static Path imported;
    static ProcessResult importResult;
    static LarchProcess server;

    @BeforeAll
    static void importTheGeneratedTreeAndServeIt() throws IOException {
        Path ldif = dir.resolve("generated.ldif");
        TREE.write(ldif);
        imported = dir.resolve("imported");
        importResult = LarchProcess.run("import", "--data", imported.toString(), ldif.toString());
        assertEquals(0, importResult.exitCode(), importResult.describe());
        server = LarchProcess.serve(imported)
                .adminPassword("pw")
                .withoutSelfWarmUp()
                .start();
    }

    @AfterAll
    static void stopTheServer() {
        if (server != null) {
            server.stop();
            server.close();
        }
    }

    private static String stderrLine(ProcessResult r) {
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), "expected one line on stderr\n" + r.describe());
        return lines.get(0);
    }

    @Test
    void importReportsTheEntriesItLoadedAndTheRate() {
        // The summary is the last line; log lines of the index fill (bulk path) may come before it.
        List<String> out = importResult.out().strip().lines().toList();
        Matcher m = IMPORTED.matcher(out.get(out.size() - 1));
        assertTrue(m.matches(), importResult.describe());
        assertEquals(TREE.entries(), Integer.parseInt(m.group(1).replace(",", "")));
        assertTrue(Long.parseLong(m.group(2).replace(",", "")) > 0, importResult.describe());
    }

    @Test
    void theServerStartsOnImportedDataAndCountsItsEntries() {
        assertTrue(
                server.stdoutLines().stream().anyMatch(l -> l.contains("(" + TREE.entries() + " entries")),
                server.output());
    }

    @Test
    void searchesOnImportedDataFindExactlyTheGeneratedEntries() {
        LdapUtils ldap = LdapUtils.anonymous(server.port());
        assertEquals(List.of(TREE.personDn(1234)), ldap.dns(TestData.SUFFIX, "sub", "(uid=user01234)"));
        assertEquals(List.of(TREE.personDn(2999)), ldap.dns(TestData.SUFFIX, "sub", "(mail=user02999@example.com)"));
        assertEquals(
                TREE.personDns(i -> i % 100 == 42),
                ldap.dns(TestData.SUFFIX, "sub", "(sn=Last42)").stream()
                        .sorted()
                        .toList());
        assertEquals(List.of(TREE.personDn(13)), ldap.dns(TREE.unitDn(3), "one", "(uid=user0001*)"));
        assertEquals(
                TREE.personDns(i -> i % 10 == 7 && i < 100),
                ldap
                        .dns(
                                TREE.unitDn(7),
                                "one",
                                "(&(objectClass=inetOrgPerson)(|(uid=user000*)(givenName=First77)))")
                        .stream()
                        .sorted()
                        .toList());
        assertEquals(List.of(), ldap.dns(TREE.unitDn(0), "one", "(uid=user00001)"));
    }

    @Test
    void anExportReimportedIntoAnEmptyDirectoryExportsIdentically() throws IOException {
        Path first = dir.resolve("first.ldif");
        ProcessResult export1 = LarchProcess.run("export", "--data", imported.toString(), first.toString());
        assertEquals(0, export1.exitCode(), export1.describe());
        assertEquals(
                "larch: exported " + String.format(Locale.ROOT, "%,d", TREE.entries()) + " entries",
                stderrLine(export1));

        Path copy = dir.resolve("copy");
        ProcessResult reimport = LarchProcess.run("import", "--data", copy.toString(), first.toString());
        assertEquals(0, reimport.exitCode(), reimport.describe());

        Path second = dir.resolve("second.ldif");
        ProcessResult export2 = LarchProcess.run("export", "--data", copy.toString(), second.toString());
        assertEquals(0, export2.exitCode(), export2.describe());

        byte[] a = Files.readAllBytes(first);
        byte[] b = Files.readAllBytes(second);
        assertEquals(
                TREE.entries(),
                new String(a, StandardCharsets.UTF_8)
                        .lines()
                        .filter(l -> l.startsWith("dn: "))
                        .count());
        assertArrayEquals(a, b, "the two exports differ: " + first + " " + second);
        String firstEntry = new String(a, StandardCharsets.UTF_8).split("\n\n", 2)[0];
        assertTrue(firstEntry.startsWith("dn: dc=example,dc=com\n"), firstEntry);
        assertTrue(firstEntry.contains("\nentryUUID: "), "operational attributes are exported: " + firstEntry);
    }

    @Test
    void importRefusesWhileAServerHoldsTheDataDirectory() throws IOException {
        Path ldif = dir.resolve("one.ldif");
        Files.writeString(ldif, TestData.person("late", TREE.unitDn(0)));
        ProcessResult r = LarchProcess.run("import", "--data", imported.toString(), ldif.toString());
        assertNotEquals(0, r.exitCode(), r.describe());
        String line = stderrLine(r);
        assertTrue(line.startsWith("larch: cannot import: data directory "), line);
        assertTrue(
                line.endsWith(" is in use by another Larch process (pid " + server.pid() + "); stop it first"), line);
        assertTrue(server.isAlive());
    }

    private static ProcessResult importInto(Path data, String ldif) throws IOException {
        return importInto(data, ldif.getBytes(StandardCharsets.UTF_8));
    }

    private static ProcessResult importInto(Path data, byte[] ldif) throws IOException {
        Path file = Files.createTempFile(dir, "bad-", ".ldif");
        Files.write(file, ldif);
        return LarchProcess.run("import", "--data", data.toString(), file.toString());
    }

    @Test
    void importOfAnEntryWhoseParentIsMissingStopsAndNamesTheEntry(@TempDir Path data) throws IOException {
        ProcessResult r =
                importInto(data, TestData.BASE_LDIF + "\n" + TestData.person("orphan", "ou=missing,dc=example,dc=com"));
        assertEquals(1, r.exitCode(), r.describe());
        assertEquals(
                "larch: import stopped: entry 3 (uid=orphan,ou=missing,dc=example,dc=com): parent entry does not"
                        + " exist: ou=missing,dc=example,dc=com [noSuchObject]",
                stderrLine(r));
    }

    @Test
    void importOfAnEntryBreakingTheSchemaStopsAndNamesTheEntry(@TempDir Path data) throws IOException {
        ProcessResult r = importInto(
                data,
                TestData.BASE_LDIF + "\n" + TestData.person("extra", "ou=people,dc=example,dc=com")
                        + "uidNumber: 12\n");
        assertEquals(1, r.exitCode(), r.describe());
        String line = stderrLine(r);
        assertTrue(line.startsWith("larch: import stopped: entry 3 (uid=extra,ou=people,dc=example,dc=com): "), line);
        assertTrue(line.endsWith("[objectClassViolation]"), line);
    }

    @Test
    void importOfLdifWithABadLineStopsAndNamesTheEntry(@TempDir Path data) throws IOException {
        ProcessResult r = importInto(data, TestData.BASE_LDIF + """

                dn: uid=broken,ou=people,dc=example,dc=com
                objectClass inetOrgPerson
                uid: broken
                """);
        assertEquals(1, r.exitCode(), r.describe());
        assertEquals(
                "larch: import stopped: entry 3 (uid=broken,ou=people,dc=example,dc=com), near line 12: Bad attribute",
                stderrLine(r));
    }

    @Test
    void importOfAFileThatIsNotUtf8FailsInsteadOfStoppingSilently(@TempDir Path data) throws IOException {
        ByteArrayOutputStream ldif = new ByteArrayOutputStream();
        ldif.writeBytes((TestData.BASE_LDIF + "\n").getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 2000; i++) {
            ldif.writeBytes(
                    (TestData.person("u" + i, "ou=people,dc=example,dc=com") + "\n").getBytes(StandardCharsets.UTF_8));
        }
        // "José" in Latin-1: not UTF-8.
        ldif.writeBytes(
                "dn: uid=latin,ou=people,dc=example,dc=com\nobjectClass: inetOrgPerson\nuid: latin\nsn: x\ncn: Jos"
                        .getBytes(StandardCharsets.US_ASCII));
        ldif.write(0xE9);
        ldif.writeBytes("\n\n".getBytes(StandardCharsets.US_ASCII));
        for (int i = 2000; i < 2010; i++) {
            ldif.writeBytes(
                    (TestData.person("u" + i, "ou=people,dc=example,dc=com") + "\n").getBytes(StandardCharsets.UTF_8));
        }

        ProcessResult r = importInto(data, ldif.toByteArray());
        assertEquals(1, r.exitCode(), r.describe());
        String line = stderrLine(r);
        assertTrue(line.startsWith("larch: import stopped: "), line);
        assertTrue(line.contains("UTF-8"), line);
    }

    /** An LDIF from a third party must not copy a local file (a key, a config) into the tree. */
    @Test
    void importRefusesValuesGivenByUrlUnlessTheirDirectoryIsAllowed(@TempDir Path work) throws IOException {
        Path secrets = Files.createDirectories(work.resolve("secrets"));
        Path secret = Files.writeString(secrets.resolve("key.pem"), "PRIVATE KEY 1234\n");
        Path allowed = Files.createDirectories(work.resolve("photos"));
        Files.writeString(allowed.resolve("note.txt"), "a harmless note");
        Files.createSymbolicLink(allowed.resolve("escape.txt"), secret);
        String ldif = TestData.BASE_LDIF + "\n" + TestData.person("thief", "ou=people,dc=example,dc=com")
                + "description:< " + secret.toUri() + "\n";
        Path file = Files.writeString(work.resolve("third-party.ldif"), ldif);

        ProcessResult refused =
                LarchProcess.run("import", "--data", work.resolve("d1").toString(), file.toString());
        assertEquals(1, refused.exitCode(), refused.describe());
        String line = stderrLine(refused);
        assertTrue(line.startsWith("larch: import stopped: entry 3 (uid=thief,ou=people,dc=example,dc=com)"), line);
        assertTrue(line.contains("takes its value from the URL " + secret.toUri()), line);
        assertTrue(line.contains("--allow-url-values"), line);

        ProcessResult outside = LarchProcess.run(
                "import",
                "--data",
                work.resolve("d2").toString(),
                "--allow-url-values",
                allowed.toString(),
                file.toString());
        assertEquals(1, outside.exitCode(), outside.describe());
        assertTrue(
                stderrLine(outside).contains("is not a regular file under the allowed directory"), outside.describe());

        Path viaLink = Files.writeString(
                work.resolve("link.ldif"),
                ldif.replace(
                        secret.toUri().toString(),
                        allowed.resolve("escape.txt").toUri().toString()));
        ProcessResult link = LarchProcess.run(
                "import",
                "--data",
                work.resolve("d3").toString(),
                "--allow-url-values",
                allowed.toString(),
                viaLink.toString());
        assertEquals(1, link.exitCode(), link.describe());
        assertTrue(stderrLine(link).contains("is not a regular file under the allowed directory"), link.describe());

        Path note = Files.writeString(
                work.resolve("note.ldif"),
                ldif.replace(
                        secret.toUri().toString(),
                        allowed.resolve("note.txt").toUri().toString()));
        Path data = work.resolve("d4");
        ProcessResult imported = LarchProcess.run(
                "import", "--data", data.toString(), "--allow-url-values", allowed.toString(), note.toString());
        assertEquals(0, imported.exitCode(), imported.describe());
        Path exported = work.resolve("out.ldif");
        ProcessResult export = LarchProcess.run("export", "--data", data.toString(), exported.toString());
        assertEquals(0, export.exitCode(), export.describe());
        assertTrue(Files.readString(exported).contains("description: a harmless note"), Files.readString(exported));
    }
}
