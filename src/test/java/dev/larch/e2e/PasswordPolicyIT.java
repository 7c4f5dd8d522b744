package dev.larch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The password policy (draft-behera) as OpenLDAP's clients see it: {@code ldapwhoami -e ppolicy} and
 * {@code ldapmodify -e ppolicy} against a server whose default policy locks after three failures,
 * wants eight characters, remembers three passwords and makes users change a reset password; two
 * more policies, named per user with {@code pwdPolicySubentry}, give an expiry warning and grace
 * logins. Each test works on its own user.
 */
class PasswordPolicyIT {
    private static final String ADMIN_PASSWORD = "ppolicy-admin-secret";
    private static final String PEOPLE = "ou=people," + TestData.SUFFIX;
    private static final String POLICIES = "ou=policies," + TestData.SUFFIX;

    private static Path dataDir;
    private static LarchProcess server;
    private static LdapUtils anonymous;
    private static LdapUtils admin;

    @BeforeAll
    static void start() throws IOException {
        dataDir = Files.createTempDirectory("larch-e2e-ppolicy-");
        Path config = dataDir.resolve("larch.conf");
        Files.writeString(config, """
                suffix = dc=example,dc=com
                # Until the server hashes passwords itself, the test stores them as given.
                security.allow-cleartext-passwords = true
                security.default-password-policy = cn=default,ou=policies,dc=example,dc=com
                # The fewest PBKDF2 iterations for new hashes (the administrator's, the history's): at
                # the default 100,000 every bind costs a quarter of a second of CPU (StoredPasswordsIT
                # checks the default).
                security.pbkdf2-iterations = 1000
                """);
        server = LarchProcess.serve(dataDir.resolve("data"))
                .adminPassword(ADMIN_PASSWORD)
                .config(config)
                .start();
        anonymous = LdapUtils.anonymous(server.port());
        admin = anonymous.asAdmin(ADMIN_PASSWORD);
        ok(admin.ldapaddLdif(TestData.PEOPLE_LDIF + "\n" + """
                dn: ou=policies,dc=example,dc=com
                objectClass: organizationalUnit
                ou: policies

                dn: cn=default,ou=policies,dc=example,dc=com
                objectClass: device
                objectClass: pwdPolicy
                cn: default
                pwdAttribute: userPassword
                pwdLockout: TRUE
                pwdMaxFailure: 3
                pwdLockoutDuration: 0
                pwdCheckQuality: 1
                pwdMinLength: 8
                pwdInHistory: 3
                pwdMustChange: TRUE

                dn: cn=warn,ou=policies,dc=example,dc=com
                objectClass: device
                objectClass: pwdPolicy
                cn: warn
                pwdAttribute: userPassword
                pwdMaxAge: 100000
                pwdExpireWarning: 200000

                dn: cn=grace,ou=policies,dc=example,dc=com
                objectClass: device
                objectClass: pwdPolicy
                cn: grace
                pwdAttribute: userPassword
                pwdMaxAge: 1
                pwdGraceAuthNLimit: 2
                """));
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.stop();
            server.close();
        }
        SharedServer.deleteTree(dataDir);
    }

    @Test
    void anExpiringPasswordBindsWithTheWarningInTheControl() {
        String dn = user("warned", "warnedpass1", "cn=warn," + POLICIES);
        adminSets(dn, "warnedpass2"); // sets pwdChangedTime, from which the age counts

        ProcessResult whoami = anonymous.as(dn, "warnedpass2").ldapwhoami("-e", "ppolicy");

        assertEquals(0, whoami.exitCode(), whoami.describe());
        assertTrue(whoami.err().contains("Password expires in"), whoami.describe());
    }

    @Test
    void anExpiredPasswordUsesItsGraceLoginsThenFails() throws InterruptedException {
        String dn = user("graced", "gracedpass1", "cn=grace," + POLICIES);
        adminSets(dn, "gracedpass2");
        Thread.sleep(1_500); // pwdMaxAge is one second: let the password expire for real
        LdapUtils graced = anonymous.as(dn, "gracedpass2");

        ProcessResult first = graced.ldapwhoami("-e", "ppolicy");
        assertEquals(0, first.exitCode(), first.describe());
        assertTrue(first.err().contains("1 grace logins remain"), first.describe());
        awaitOperational(dn, out -> count(out, "pwdGraceUseTime:") == 1);

        ProcessResult second = graced.ldapwhoami("-e", "ppolicy");
        assertTrue(second.err().contains("0 grace logins remain"), second.describe());
        awaitOperational(dn, out -> count(out, "pwdGraceUseTime:") == 2);

        ProcessResult third = graced.ldapwhoami("-e", "ppolicy");
        assertEquals(49, third.exitCode(), third.describe());
        assertTrue(third.err().contains("Password expired"), third.describe());
    }

    @Test
    void threeWrongPasswordsLockTheAccountLikeAWrongPasswordUntilTheAdminUnlocksIt() {
        String dn = user("locked", "lockedpass1", null);
        for (int i = 0; i < 3; i++) {
            ProcessResult wrong = anonymous.as(dn, "not-the-password").ldapwhoami("-e", "ppolicy");
            assertEquals(49, wrong.exitCode(), wrong.describe());
        }
        String state = awaitOperational(dn, out -> out.contains("pwdAccountLockedTime:"));
        assertEquals(3, count(state, "pwdFailureTime:"), state);

        ProcessResult right = anonymous.as(dn, "lockedpass1").ldapwhoami("-e", "ppolicy");
        assertEquals(49, right.exitCode(), right.describe());
        assertTrue(right.err().contains("Invalid credentials"), right.describe());
        assertFalse(right.err().toLowerCase(Locale.ROOT).contains("lock"), right.describe());

        ok(admin.ldapmodifyLdif("dn: " + dn + "\nchangetype: modify\ndelete: pwdAccountLockedTime\n"));
        ProcessResult unlocked = anonymous.as(dn, "lockedpass1").ldapwhoami("-e", "ppolicy");
        assertEquals(0, unlocked.exitCode(), unlocked.describe());
        String cleared = awaitOperational(dn, out -> !out.contains("pwdFailureTime:"));
        assertFalse(cleared.contains("pwdFailureTime:"), cleared);
    }

    @Test
    void aTooShortPasswordIsRefusedWithPasswordTooShort() {
        String dn = user("shorty", "shortypass1", null);

        ProcessResult change = anonymous.as(dn, "shortypass1").ldapmodifyLdif(replacePassword(dn, "short7"));

        assertEquals(19, change.exitCode(), change.describe());
        assertTrue(change.err().contains("Constraint violation"), change.describe());
        ProcessResult shown = runWithPpolicy(dn, "shortypass1", replacePassword(dn, "short7"));
        assertEquals(19, shown.exitCode(), shown.describe());
        assertTrue(shown.out().contains("Password is too short"), shown.describe());
    }

    @Test
    void aPasswordFromTheHistoryIsRefused() {
        String dn = user("historian", "historypass1", null);
        ok(runWithPpolicy(dn, "historypass1", replacePassword(dn, "historypass2")));

        ProcessResult reuse = runWithPpolicy(dn, "historypass2", replacePassword(dn, "historypass1"));

        assertEquals(19, reuse.exitCode(), reuse.describe());
        assertTrue(reuse.out().contains("in list of old passwords"), reuse.describe());
        String state = awaitOperational(dn, out -> out.contains("pwdHistory:"));
        // The former password is kept as it was stored: hashed, never in cleartext.
        assertTrue(state.contains("#1.3.6.1.4.1.1466.115.121.1.40#"), state);
        assertTrue(state.contains("{PBKDF2-SHA256}"), state);
        assertFalse(state.contains("historypass1"), state);
    }

    @Test
    void afterAnAdminResetTheUserMayOnlyChangeTheirPassword() {
        String dn = user("reset", "resetpass1", null);
        adminSets(dn, "temporary9");
        assertTrue(awaitOperational(dn, out -> true).contains("pwdReset: TRUE"));

        ProcessResult bind = anonymous.as(dn, "temporary9").ldapwhoami("-e", "ppolicy");
        assertTrue(bind.err().contains("Password must be changed"), bind.describe());
        ProcessResult search =
                anonymous.as(dn, "temporary9").ldapsearch("-e", "ppolicy", "-b", TestData.SUFFIX, "-s", "base", "1.1");
        assertEquals(53, search.exitCode(), search.describe());

        ok(runWithPpolicy(dn, "temporary9", replacePassword(dn, "resetpass2")));
        ProcessResult after =
                anonymous.as(dn, "resetpass2").ldapsearch("-e", "ppolicy", "-b", TestData.SUFFIX, "-s", "base", "1.1");
        assertEquals(0, after.exitCode(), after.describe());
        assertFalse(awaitOperational(dn, out -> true).contains("pwdReset"));
    }

    @Test
    void anEntryAddedWithAPasswordStartsItsAgeAndMayBeAddedForcedToChange() {
        String dn = user("newcomer", "newcomerpass1", "cn=warn," + POLICIES);
        assertTrue(awaitOperational(dn, out -> true).contains("pwdChangedTime:"));
        ProcessResult whoami = anonymous.as(dn, "newcomerpass1").ldapwhoami("-e", "ppolicy");
        assertTrue(whoami.err().contains("Password expires in"), whoami.describe());

        String forced = "uid=forced," + PEOPLE;
        ok(
                admin.ldapaddLdif(
                        "dn: " + forced
                                + "\nobjectClass: inetOrgPerson\nuid: forced\ncn: forced\nsn: forced\nuserPassword: forcedpass1\npwdReset: TRUE\n"));
        ProcessResult bind = anonymous.as(forced, "forcedpass1").ldapwhoami("-e", "ppolicy");
        assertTrue(bind.err().contains("Password must be changed"), bind.describe());
    }

    @Test
    void usersMayNotWriteThePolicyStateThemselves() {
        String dn = user("sneaky", "sneakypass1", null);
        ProcessResult write = anonymous
                .as(dn, "sneakypass1")
                .ldapmodifyLdif(
                        "dn: " + dn + "\nchangetype: modify\nreplace: pwdPolicySubentry\npwdPolicySubentry: cn=warn,"
                                + POLICIES + "\n");
        assertEquals(50, write.exitCode(), write.describe());
    }

    @Test
    void theRootDseAdvertisesThePasswordPolicyControl() {
        ProcessResult root = anonymous.ldapsearch("-LLL", "-b", "", "-s", "base", "supportedControl");
        assertEquals(0, root.exitCode(), root.describe());
        assertTrue(root.out().contains("supportedControl: 1.3.6.1.4.1.42.2.27.8.5.1"), root.describe());
    }

    private static String user(String uid, String password, String policy) {
        String dn = "uid=" + uid + "," + PEOPLE;
        String ldif = "dn: " + dn + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: " + uid
                + "\nuserPassword: " + password + "\n" + (policy == null ? "" : "pwdPolicySubentry: " + policy + "\n");
        ok(admin.ldapaddLdif(ldif));
        return dn;
    }

    private static void adminSets(String dn, String password) {
        ok(admin.ldapmodifyLdif(replacePassword(dn, password)));
    }

    private static String replacePassword(String dn, String password) {
        return "dn: " + dn + "\nchangetype: modify\nreplace: userPassword\nuserPassword: " + password + "\n";
    }

    /** {@code ldapmodify -e ppolicy} bound as {@code dn}; the control's error shows on stdout or stderr. */
    private static ProcessResult runWithPpolicy(String dn, String password, String ldif) {
        try {
            Path file = Files.createTempFile(dataDir, "change-", ".ldif");
            Files.writeString(file, ldif);
            ProcessResult r = anonymous.as(dn, password).ldapmodify("-e", "ppolicy", "-f", file.toString());
            return new ProcessResult(r.command(), r.exitCode(), r.out() + r.err(), r.err());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The entry's operational attributes as the admin reads them, once {@code until} holds (state writes are queued). */
    private static String awaitOperational(String dn, Predicate<String> until) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (true) {
            ProcessResult r = admin.ldapsearch("-LLL", "-o", "ldif-wrap=no", "-b", dn, "-s", "base", "+");
            ok(r);
            if (until.test(r.out()) || Instant.now().isAfter(deadline)) {
                return r.out();
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return r.out();
            }
        }
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private static void ok(ProcessResult r) {
        assertEquals(0, r.exitCode(), r.describe());
    }
}
