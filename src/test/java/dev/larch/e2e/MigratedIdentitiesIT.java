package dev.larch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.server.tls.Certificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Identities as an OpenLDAP export carries them, imported with {@code ./larch import} and used by
 * every way an identity is established: simple bind, SASL EXTERNAL with a client certificate, and
 * proxied authorization (RFC 4370). Accounts disabled the OpenLDAP way ({@code pwdAccountLockedTime},
 * the administrative value {@code 000001010000Z} or a time stamp) stay disabled, with or without a
 * policy and whatever its {@code pwdLockout} says; and the stored {@code cn=admin} entry an OpenLDAP
 * export holds is an ordinary entry, never the administrator, however it is reached.
 */
class MigratedIdentitiesIT {
    static final String ADMIN_PASSWORD = "migrated-admin-secret";
    static final String PEOPLE = "ou=people," + TestData.SUFFIX;
    static final String POLICIES = "ou=policies," + TestData.SUFFIX;
    static final String APP = "uid=app," + PEOPLE;
    static final String VICTIM = "uid=victim," + PEOPLE;
    static final String STORED_ADMIN = TestData.ADMIN_DN;
    static final String PASSWORD = "user-secret";
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** Users whose accounts an OpenLDAP administrator disabled, by how. */
    static final Map<String, String> DISABLED = Map.of(
            "no-policy",
            "pwdAccountLockedTime: 000001010000Z\n",
            "lockout-policy",
            "pwdPolicySubentry: cn=lockout," + POLICIES + "\npwdAccountLockedTime: 000001010000Z\n",
            "no-lockout-policy",
            "pwdPolicySubentry: cn=nolockout," + POLICIES + "\npwdAccountLockedTime: 000001010000Z\n",
            "stamped-no-policy",
            "pwdAccountLockedTime: 20260101000000Z\n");

    static Path dir;
    static LarchProcess server;
    static int ldapsPort;
    static Certificates.Issued ca;

    @BeforeAll
    static void importAnOpenLdapExportAndServeIt() throws Exception {
        RequiredTool.check(LdapUtils.installed(), "ldap-utils", "apt-get install -y ldap-utils");
        dir = Files.createTempDirectory("larch-e2e-identities-");
        ca = Certificates.authority("CN=Identities Test CA,O=Example", Duration.ofDays(2));
        Certificates.Issued serverCert = Certificates.server("localhost", ca, Duration.ofDays(2));
        Files.writeString(dir.resolve("ca.pem"), ca.certificatePem());
        Files.writeString(dir.resolve("server.pem"), serverCert.certificatePem());
        Files.writeString(dir.resolve("server.key"), serverCert.privateKeyPem());
        // Bouncy Castle encodes RDNs in the order written, and RFC 4514 prints them the other way round:
        // this certificate's subject DN is cn=admin,dc=example,dc=com, which maps to the stored entry.
        issueClient("stored-admin", "DC=com,DC=example,CN=admin");
        issueClient("free", "UID=free,OU=people,DC=example,DC=com");
        for (String uid : DISABLED.keySet()) {
            issueClient(uid, "UID=" + uid + ",OU=people,DC=example,DC=com");
        }
        Path ldif = Files.writeString(dir.resolve("export.ldif"), exportLdif());
        ldapsPort = freePort();
        Path config = Files.writeString(
                dir.resolve("larch.conf"),
                "listen.ldaps-port = " + ldapsPort + "\n"
                        + "tls.certificate = server.pem\n"
                        + "tls.private-key = server.key\n"
                        + "tls.ca-certificates = ca.pem\n"
                        + "server.warm-up-seconds = 0\n");
        Path data = dir.resolve("data");
        ProcessResult imported =
                LarchProcess.run("import", "--config", config.toString(), "--data", data.toString(), ldif.toString());
        assertEquals(0, imported.exitCode(), imported.describe());
        server = LarchProcess.serve(data)
                .adminPassword(ADMIN_PASSWORD)
                .config(config)
                .start();
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.stop();
            server.close();
        }
        if (dir != null) {
            SharedServer.deleteTree(dir);
        }
    }

    /** What {@code slapcat} of an OpenLDAP 2.6 server with ppolicy gives, for the accounts these tests use. */
    static String exportLdif() {
        StringBuilder ldif = new StringBuilder(TestData.SUFFIX_LDIF);
        ldif.append("aci: (targetattr=\"*\")(version 3.0; acl \"the application acts for users\"; allow (proxy)"
                        + " userdn=\"ldap:///")
                .append(APP)
                .append("\";)\n\n")
                .append(TestData.PEOPLE_LDIF)
                .append("\n");
        ldif.append("dn: ")
                .append(STORED_ADMIN)
                .append("\nobjectClass: simpleSecurityObject\nobjectClass: organizationalRole\ncn: admin\n"
                        + "description: LDAP administrator\nuserPassword: ")
                .append(ssha("stored-admin-password"))
                .append("\n\n");
        ldif.append("dn: ").append(POLICIES).append("\nobjectClass: organizationalUnit\nou: policies\n\n");
        ldif.append(policy("lockout", "pwdLockout: TRUE\npwdMaxFailure: 3\npwdLockoutDuration: 300\n"));
        ldif.append(policy("nolockout", "pwdLockout: FALSE\n"));
        ldif.append(user("app", "")).append(user("victim", "")).append(user("free", ""));
        DISABLED.forEach((uid, state) -> ldif.append(user(uid, state)));
        return ldif.toString();
    }

    static String policy(String cn, String attributes) {
        return "dn: cn=" + cn + "," + POLICIES + "\nobjectClass: device\nobjectClass: pwdPolicy\ncn: " + cn
                + "\npwdAttribute: userPassword\n" + attributes + "\n";
    }

    static String user(String uid, String state) {
        return TestData.person(uid, PEOPLE) + "userPassword: " + ssha(PASSWORD) + "\n" + state + "\n";
    }

    // ---- defect 4: a disabled account stays disabled, whatever the bind method ----------------------

    @ParameterizedTest
    @ValueSource(strings = {"no-policy", "lockout-policy", "no-lockout-policy", "stamped-no-policy"})
    void aDisabledAccountsRightPasswordIsInvalidCredentials(String uid) {
        ProcessResult r = tools().as("uid=" + uid + "," + PEOPLE, PASSWORD).ldapwhoami();
        assertEquals(49, r.exitCode(), r.describe());
    }

    @ParameterizedTest
    @ValueSource(strings = {"no-policy", "lockout-policy", "no-lockout-policy", "stamped-no-policy"})
    void aDisabledAccountsCertificateIsInvalidCredentials(String uid) {
        ProcessResult r = external(uid, "ldapwhoami");
        assertEquals(49, r.exitCode(), r.describe());
    }

    @ParameterizedTest
    @ValueSource(strings = {"no-policy", "lockout-policy", "no-lockout-policy", "stamped-no-policy"})
    void actingAsADisabledAccountIsAuthorizationDenied(String uid) {
        ProcessResult r = tools().as(APP, PASSWORD).ldapwhoami("-e", "!authzid=dn:uid=" + uid + "," + PEOPLE);
        // ldapwhoami exits 1 for any failure of the operation; the result code is in what it prints
        assertNotEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("Proxied Authorization Denied (123)"), r.describe());
    }

    @ParameterizedTest
    @ValueSource(strings = {"simple", "external", "proxied"})
    void anAccountThatIsNotDisabledIsUsableByEveryMethod(String method) {
        String free = "uid=free," + PEOPLE;
        ProcessResult r = switch (method) {
            case "simple" -> tools().as(free, PASSWORD).ldapwhoami();
            case "external" -> external("free", "ldapwhoami");
            default -> tools().as(APP, PASSWORD).ldapwhoami("-e", "!authzid=dn:" + free);
        };
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("dn:" + free), r.describe());
    }

    // ---- defect 5: the stored cn=admin entry is never the administrator -----------------------------

    @ParameterizedTest
    @ValueSource(strings = {"proxied", "external"})
    void theStoredAdminEntryNeverReadsAnotherUsersPasswordHash(String method) {
        ProcessResult r = method.equals("proxied")
                ? tools().as(APP, PASSWORD)
                        .ldapsearch(
                                "-LLL",
                                "-e",
                                "!authzid=dn:" + STORED_ADMIN,
                                "-b",
                                VICTIM,
                                "-s",
                                "base",
                                "(objectClass=*)",
                                "userPassword")
                : external(
                        "stored-admin",
                        "ldapsearch",
                        "-LLL",
                        "-b",
                        VICTIM,
                        "-s",
                        "base",
                        "(objectClass=*)",
                        "userPassword");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("dn: " + VICTIM), r.describe());
        assertFalse(r.out().contains("userPassword"), r.describe());
    }

    @ParameterizedTest
    @ValueSource(strings = {"proxied", "external"})
    void theStoredAdminEntryMayNotWriteWhatOnlyTheAdministratorMay(String method) {
        String change = "dn: " + VICTIM + "\nchangetype: modify\nreplace: description\ndescription: owned\n";
        ProcessResult r = method.equals("proxied")
                ? tools().as(APP, PASSWORD).ldapmodifyLdifWith(change, "-e", "!authzid=dn:" + STORED_ADMIN)
                : withFile(change, file -> external("stored-admin", "ldapmodify", "-f", file.toString()));
        assertEquals(50, r.exitCode(), r.describe());
    }

    @ParameterizedTest
    @ValueSource(strings = {"simple", "simple-over-ldaps"})
    void theAdministratorsOwnBindStillReadsPasswordHashes(String how) {
        List<String> args = new ArrayList<>(List.of("ldapsearch", "-x"));
        args.addAll(how.equals("simple") ? List.of("-H", "ldap://127.0.0.1:" + server.port()) : List.of("-H", ldaps()));
        args.addAll(List.of(
                "-D",
                STORED_ADMIN,
                "-w",
                ADMIN_PASSWORD,
                "-LLL",
                "-b",
                VICTIM,
                "-s",
                "base",
                "(objectClass=*)",
                "userPassword"));
        ProcessResult r = ldap(Map.of(), args);
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("userPassword:: "), r.describe());
    }

    // ---- helpers ------------------------------------------------------------------------------------

    static LdapUtils tools() {
        return LdapUtils.anonymous(server.port());
    }

    static String ldaps() {
        return "ldaps://127.0.0.1:" + ldapsPort;
    }

    /** An ldap-utils command binding with SASL EXTERNAL over LDAPS with {@code certificate}'s key. */
    static ProcessResult external(String certificate, String tool, String... args) {
        List<String> command = new ArrayList<>(List.of(tool, "-Y", "EXTERNAL", "-Q", "-H", ldaps()));
        command.addAll(List.of(args));
        return ldap(
                Map.of(
                        "LDAPTLS_CERT", dir.resolve(certificate + ".pem").toString(),
                        "LDAPTLS_KEY", dir.resolve(certificate + ".key").toString()),
                command);
    }

    static ProcessResult ldap(Map<String, String> extraEnv, List<String> command) {
        // Without LDAPNOINIT, which would make the tools ignore LDAPTLS_*.
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("LDAPTLS_CACERT", dir.resolve("ca.pem").toString());
        env.put("LDAPTLS_REQCERT", "demand");
        return ProcessResult.run(command, env, null, TIMEOUT);
    }

    interface FileCommand {
        ProcessResult run(Path file);
    }

    static ProcessResult withFile(String content, FileCommand command) {
        try {
            Path file = Files.createTempFile(dir, "change-", ".ldif");
            Files.writeString(file, content);
            return command.run(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void issueClient(String name, String subject) throws IOException {
        Certificates.Issued client = Certificates.client(subject, ca, Duration.ofDays(2));
        Files.writeString(dir.resolve(name + ".pem"), client.certificatePem());
        Path key = Files.writeString(dir.resolve(name + ".key"), client.privateKeyPem());
        Files.setPosixFilePermissions(key, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    }

    /** {SSHA} as slappasswd writes it: SHA-1 of password and salt, then the salt, in base64. */
    static String ssha(String password) {
        try {
            byte[] salt = new byte[8];
            new SecureRandom().nextBytes(salt);
            MessageDigest sha = MessageDigest.getInstance("SHA-1");
            sha.update(password.getBytes(UTF_8));
            sha.update(salt);
            byte[] digest = sha.digest();
            byte[] all = new byte[digest.length + salt.length];
            System.arraycopy(digest, 0, all, 0, digest.length);
            System.arraycopy(salt, 0, all, digest.length, salt.length);
            return "{SSHA}" + Base64.getEncoder().encodeToString(all);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
