package dev.larch.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code {ARGON2}} against values from the reference implementation: each constant was printed by
 * the {@code argon2} command of the Debian package (libargon2, the library OpenLDAP's pw-argon2 links),
 * for example {@code echo -n secret | argon2 somesalt12345678 -id -t 2 -m 10 -p 1 -e}.
 */
class Argon2SchemeTest {
    private static final NewHashCost CHEAP = new NewHashCost(1_000, 64, 1, 1);

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean verify(String phc, String password) {
        return PasswordSchemes.verify(utf8("{ARGON2}" + phc), utf8(password), false);
    }

    @Test
    void argon2idFromTheReferenceImplementationVerifies() {
        String phc = "$argon2id$v=19$m=1024,t=2,p=1$c29tZXNhbHQxMjM0NTY3OA$DIUcSHpCiebLVy4jcHUholsuzs2AALnb/x/U2FM71HQ";
        assertTrue(verify(phc, "secret"));
        assertFalse(verify(phc, "Secret"));
    }

    @Test
    void argon2iAndArgon2dAndVersion16AndSeveralLanesVerify() {
        assertTrue(verify(
                "$argon2i$v=19$m=4096,t=3,p=2$c29tZXNhbHQxMjM0NTY3OA$R4WBIUUIxPKUJq+IEPkjErCI+b2ojMWX7Og0leg9GAo",
                "secret"));
        assertTrue(verify(
                "$argon2d$v=19$m=256,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$my64UHTL84G9eM6FrrwQcgsV/A6DdM7hvD3nykYcjaE",
                "correct horse"));
        assertTrue(verify(
                "$argon2id$v=16$m=1024,t=2,p=1$c29tZXNhbHQxMjM0NTY3OA$ohS9ny7sfuix8G9h3mUUDL3R1kW4m1cecRRvb6bdR90",
                "secret"));
        // A 16-byte hash, four lanes and a non-ASCII password (UTF-8, as clients send it).
        assertTrue(verify("$argon2id$v=19$m=1024,t=2,p=4$MDEyMzQ1Njc4OWFiY2RlZg$5lr+AQb5rbUWVsAmmAceAA", "pässwörd"));
    }

    @Test
    void newHashesAreArgon2idInThePhcFormWithTheConfiguredCost() {
        byte[] stored = PasswordSchemes.hash("argon2", utf8("hunter2"), CHEAP);
        String text = new String(stored, StandardCharsets.US_ASCII);
        assertTrue(
                text.matches("\\{ARGON2}\\$argon2id\\$v=19\\$m=64,t=1,p=1\\$[A-Za-z0-9+/]{22}\\$[A-Za-z0-9+/]{43}"),
                text);
        assertTrue(PasswordSchemes.verify(stored, utf8("hunter2"), false));
        assertFalse(PasswordSchemes.verify(stored, utf8("hunter3"), false));
    }

    @Test
    void aHashAskingForMoreMemoryOrPassesThanTheLimitsIsNotComputed() {
        byte[] stored = utf8("{ARGON2}$argon2id$v=19$m=1024,t=2,p=1$c29tZXNhbHQxMjM0NTY3OA"
                + "$DIUcSHpCiebLVy4jcHUholsuzs2AALnb/x/U2FM71HQ");
        assertEquals(
                PasswordCheck.MATCH,
                PasswordSchemes.check(stored, utf8("secret"), false, new HashCostLimits(1, 1024, 2)));
        assertEquals(
                PasswordCheck.TOO_COSTLY,
                PasswordSchemes.check(stored, utf8("secret"), false, new HashCostLimits(1_000_000, 1023, 2)));
        assertEquals(
                PasswordCheck.TOO_COSTLY,
                PasswordSchemes.check(stored, utf8("secret"), false, new HashCostLimits(1_000_000, 1024, 1)));
    }

    @Test
    void malformedValuesMatchNothing() {
        for (String bad : new String[] {
            "$argon2id$v=19$m=1024,t=2,p=1$c29tZXNhbHQxMjM0NTY3OA",
            "$argon2x$v=19$m=1024,t=2,p=1$c29tZXNhbHQxMjM0NTY3OA$DIUcSHpCiebLVy4jcHUholsuzs2AALnb/x/U2FM71HQ",
            "$argon2id$v=18$m=1024,t=2,p=1$c29tZXNhbHQxMjM0NTY3OA$DIUcSHpCiebLVy4jcHUholsuzs2AALnb/x/U2FM71HQ",
            "$argon2id$v=19$m=1024,t=0,p=1$c29tZXNhbHQxMjM0NTY3OA$DIUcSHpCiebLVy4jcHUholsuzs2AALnb/x/U2FM71HQ",
            "$argon2id$v=19$m=4,t=2,p=1$c29tZXNhbHQxMjM0NTY3OA$DIUcSHpCiebLVy4jcHUholsuzs2AALnb/x/U2FM71HQ",
            "$argon2id$v=19$m=1024,t=2,p=99$c29tZXNhbHQxMjM0NTY3OA$DIUcSHpCiebLVy4jcHUholsuzs2AALnb/x/U2FM71HQ",
            "$argon2id$v=19$m=1024,t=2,p=1$c29t$DIUcSHpCiebLVy4jcHUholsuzs2AALnb/x/U2FM71HQ",
        }) {
            assertFalse(verify(bad, "secret"), bad);
        }
    }

    @Test
    void eachHashHasItsOwnSalt() {
        Argon2Scheme scheme = new Argon2Scheme();
        SecureRandom random = new SecureRandom();
        String a = scheme.encode(utf8("same"), random, CHEAP);
        String b = scheme.encode(utf8("same"), random, CHEAP);
        assertFalse(a.equals(b));
        assertTrue(scheme.matches(a, utf8("same")) && scheme.matches(b, utf8("same")));
    }
}
