package dev.larch.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored passwords with the clients identity teams use: ldapadd and ldapmodify of cleartext
 * {@code userPassword} (stored hashed with the default PBKDF2-SHA256, binds work), ldappasswd (self
 * change with the old password, admin reset, generated password), owner-only store and export files
 * under umask 022, a loosened store tightened at start, and the access log masking password filters.
 */
class StoredPasswordsIT {
    private static final String ADMIN_PASSWORD = "stored-pw-admin";
    private static final String PEOPLE = "ou=people,dc=example,dc=com";
    private static final Pattern NEW_PASSWORD = Pattern.compile("^New password: (\\S+)$", Pattern.MULTILINE);

    @TempDir
    static Path dir;

    static Path data;
    static LarchProcess server;
    static LdapUtils admin;

    @BeforeAll
    static void startUnderAPermissiveUmask() {
        data = dir.resolve("data");
        server = LarchProcess.serve(data)
                .adminPassword(ADMIN_PASSWORD)
                .umask("022")
                .withoutSelfWarmUp()
                .start();
        admin = LdapUtils.anonymous(server.port()).asAdmin(ADMIN_PASSWORD);
        ProcessResult r = admin.ldapaddLdif("""
                dn: ou=people,dc=example,dc=com
                objectClass: organizationalUnit
                ou: people
                """);
        assertEquals(0, r.exitCode(), r.describe());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.stop();
            server.close();
        }
    }

    private static String dn(String uid) {
        return "uid=" + uid + "," + PEOPLE;
    }

    private static void addPerson(String uid, String password) {
        ProcessResult r = admin.ldapaddLdif("dn: " + dn(uid) + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: "
                + uid + "\nsn: " + uid + "\nuserPassword: " + password + "\n");
        assertEquals(0, r.exitCode(), r.describe());
    }

    private static boolean binds(String uid, String password) {
        ProcessResult r =
                LdapUtils.anonymous(server.port()).as(dn(uid), password).ldapwhoami();
        if (r.exitCode() == 49) {
            return false;
        }
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals("dn:" + dn(uid), r.out().strip());
        return true;
    }

    /** The stored userPassword values as the administrator's ldapsearch prints them, decoded. */
    private static List<String> storedPasswords(String uid) {
        ProcessResult r = admin.ldapsearch("-LLL", "-o", "ldif-wrap=no", "-b", dn(uid), "-s", "base", "userPassword");
        assertEquals(0, r.exitCode(), r.describe());
        return r.out()
                .lines()
                .filter(l -> l.startsWith("userPassword:"))
                .map(l -> l.startsWith("userPassword:: ")
                        ? new String(Base64.getDecoder().decode(l.substring(15)), StandardCharsets.UTF_8)
                        : l.substring(14))
                .toList();
    }

    private static ProcessResult ldappasswd(String... args) {
        List<String> command = new ArrayList<>(List.of("ldappasswd", "-x", "-H", server.url()));
        command.addAll(List.of(args));
        return ProcessResult.run(command, Map.of("LDAPNOINIT", "1"), null, Duration.ofSeconds(60));
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void ldapaddOfACleartextPasswordStoresAPbkdf2HashAndTheUserBinds() {
        addPerson("alice", "alice-clear-pw");
        List<String> stored = storedPasswords("alice");
        assertEquals(1, stored.size(), stored.toString());
        assertTrue(stored.get(0).matches("\\{PBKDF2-SHA256}100000\\$[A-Za-z0-9./]+\\$[A-Za-z0-9./]+"), stored.get(0));
        assertFalse(stored.get(0).contains("alice-clear-pw"));
        assertTrue(binds("alice", "alice-clear-pw"));
        assertFalse(binds("alice", "not-alice"));
    }

    @Test
    void ldapmodifyReplacingThePasswordStoresAHash() {
        addPerson("bob", "bob-first");
        ProcessResult r = admin.ldapmodifyLdif(
                "dn: " + dn("bob") + "\nchangetype: modify\nreplace: userPassword\nuserPassword: bob-second\n");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(storedPasswords("bob").get(0).startsWith("{PBKDF2-SHA256}"));
        assertTrue(binds("bob", "bob-second"));
        assertFalse(binds("bob", "bob-first"));
    }

    @Test
    void ldappasswdChangesOwnPasswordWithTheOldOneAndRefusesAWrongOldOne() {
        addPerson("carol", "carol-old");
        ProcessResult wrong = ldappasswd("-D", dn("carol"), "-w", "carol-old", "-a", "not-it", "-s", "carol-new");
        // ldappasswd exits 1 on any failure and prints the result code.
        assertEquals(1, wrong.exitCode(), wrong.describe());
        assertTrue(wrong.out().contains("Invalid credentials (49)"), wrong.describe());
        ProcessResult r = ldappasswd("-D", dn("carol"), "-w", "carol-old", "-a", "carol-old", "-s", "carol-new");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(binds("carol", "carol-new"));
        assertFalse(binds("carol", "carol-old"));
        assertTrue(storedPasswords("carol").get(0).startsWith("{PBKDF2-SHA256}"));
    }

    @Test
    void ldappasswdByTheAdministratorResetsAndPrintsAGeneratedPassword() {
        addPerson("dave", "dave-forgot");
        ProcessResult r = ldappasswd("-D", LarchProcess.ADMIN_DN, "-w", ADMIN_PASSWORD, dn("dave"));
        assertEquals(0, r.exitCode(), r.describe());
        Matcher m = NEW_PASSWORD.matcher(r.out());
        assertTrue(m.find(), r.describe());
        String generated = m.group(1);
        assertEquals(16, generated.length());
        assertTrue(binds("dave", generated));
        assertFalse(binds("dave", "dave-forgot"));
        ProcessResult chosen =
                ldappasswd("-D", LarchProcess.ADMIN_DN, "-w", ADMIN_PASSWORD, "-s", "dave-chosen", dn("dave"));
        assertEquals(0, chosen.exitCode(), chosen.describe());
        assertTrue(binds("dave", "dave-chosen"));
    }

    @Test
    void anonymousLdappasswdIsRefused() {
        addPerson("erin", "erin-pw");
        ProcessResult r = ldappasswd("-s", "whatever", dn("erin"));
        assertEquals(1, r.exitCode(), r.describe());
        assertTrue(r.out().contains("Server is unwilling to perform (53)"), r.describe());
        assertTrue(binds("erin", "erin-pw"));
    }

    @Test
    void storeFilesAreOwnerOnlyUnderUmask022() throws IOException {
        assertEquals("rwx------", mode(data));
        for (String file : List.of("data.mdb", "lock.mdb", "larch.lock")) {
            assertEquals("rw-------", mode(data.resolve(file)), file);
        }
        Optional<Path> adminFile = Optional.of(data.resolve("admin-password")).filter(Files::exists);
        if (adminFile.isPresent()) {
            assertEquals("rw-------", mode(adminFile.get()));
        }
    }

    @Test
    void exportFilesAreOwnerOnlyUnderUmask022EvenWhenTheFileExisted() throws IOException {
        Path export = dir.resolve("export.ldif");
        Files.writeString(export, "old");
        Files.setPosixFilePermissions(export, PosixFilePermissions.fromString("rw-r--r--"));
        ProcessResult r = ProcessResult.run(
                LarchProcess.withUmask(
                        "022", LarchJvm.command(List.of("export", "--data", data.toString(), export.toString()))),
                Map.of(),
                null,
                LarchProcess.COMMAND_TIMEOUT);
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals("rw-------", mode(export));
        assertTrue(Files.readString(export).contains("dn: dc=example,dc=com"));
        Path fresh = dir.resolve("fresh-export.ldif");
        ProcessResult again = ProcessResult.run(
                LarchProcess.withUmask(
                        "022", LarchJvm.command(List.of("export", "--data", data.toString(), fresh.toString()))),
                Map.of(),
                null,
                LarchProcess.COMMAND_TIMEOUT);
        assertEquals(0, again.exitCode(), again.describe());
        assertEquals("rw-------", mode(fresh));
    }

    @Test
    void theAccessLogMasksPasswordAssertionValues() throws Exception {
        addPerson("frank", "frank-pw");
        String probe = "probe-secret-value";
        ProcessResult search = admin.ldapsearch(
                "-LLL",
                "-b",
                PEOPLE,
                "(&(uid=frank)(|(userPassword=" + probe + ")(userPassword;x-foo=" + probe + ")))",
                "1.1");
        assertEquals(0, search.exitCode(), search.describe());
        ProcessResult compare = admin.ldapcompare(dn("frank"), "userPassword:" + probe);
        assertEquals(5, compare.exitCode(), compare.describe()); // compareFalse
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!server.output().contains("attr=userPassword") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        String log = server.output();
        assertTrue(log.contains("(userPassword=***)"), log);
        assertTrue(log.contains("(uid=frank)"), log);
        assertTrue(log.contains("attr=userPassword"), log);
        assertFalse(log.contains(probe), log);
        assertFalse(log.contains("frank-pw"), log);
    }

    @Test
    void aStoreWithLooserModesIsTightenedAtStartWithOneLogLine(@TempDir Path loose) throws IOException {
        Path ldif = loose.resolve("base.ldif");
        Files.writeString(ldif, "dn: dc=example,dc=com\nobjectClass: domain\ndc: example\n");
        Path store = loose.resolve("store");
        ProcessResult imported = LarchProcess.run("import", "--data", store.toString(), ldif.toString());
        assertEquals(0, imported.exitCode(), imported.describe());
        Files.setPosixFilePermissions(store, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(store.resolve("data.mdb"), PosixFilePermissions.fromString("rw-rw-r--"));
        try (LarchProcess tightened =
                LarchProcess.serve(store).adminPassword("pw").start()) {
            assertEquals("rwx------", mode(store));
            assertEquals("rw-------", mode(store.resolve("data.mdb")));
            List<String> warnings = tightened
                    .output()
                    .lines()
                    .filter(l -> l.contains("tightened to 0700/0600"))
                    .toList();
            assertEquals(1, warnings.size(), tightened.output());
            assertTrue(warnings.get(0).contains("data.mdb"), warnings.get(0));
            assertNotEquals(-1, tightened.port());
            tightened.stop();
        }
    }
}
