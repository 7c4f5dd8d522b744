package dev.larch.server.auth;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

import dev.larch.config.Security;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasswordSchemesTest {

    /**
     * Values from outside this code: the SSHA family written by OpenLDAP 2.5's slappasswd
     * ({@code slappasswd -o module-load=pw-sha2.la -h '{SSHA256}' -s secret}); the PBKDF2 family by
     * Python's hashlib.pbkdf2_hmac in pw-pbkdf2's layout (Debian's slapd does not ship pw-pbkdf2, so
     * slappasswd could not write those).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            secret   | {SSHA}TbEHpU4o2xUfTa6Uxv803HTSUVRy4+vF
            pässwörd | {SSHA}Mz9dUNU3aSq5dxCtzSbdwmj9JKqpuPNn
            secret   | {SSHA256}LK+9BtO6zuX6LPATjzwz6Z9gD8rC19WQV5u2foNLwcwzZQN/fTZUzA==
            pässwörd | {SSHA256}pZPQcGUyly1LhoJwwAR/dX9PRDA6NkZcOAtqdmKZ/yfILDDUo4r86g==
            secret   | {SSHA512}Fk9A4so3mjj+EmW/sgZ7LfvDnJ5so/dk8CiNY3U6X4XVQuTbieMsCqhvO0drgH0bol3N8HP11rmNECIRsCd2ApxkwufNMpAE
            pässwörd | {SSHA512}R9KREt09ZclsP2cTHokLkHVCAs45B6iGSIBUw+3u1a0nGiA4VkoFfWRXsc1F4tvNuJi9wMt9Y9yNJQV9ixJl6tIIEkcCZWuy
            secret   | {PBKDF2-SHA256}10000$AAECAwQFBgcICQoLDA0ODw$OImOyGKQvA8WMIN8WwuclUZFDykpCY/RxWOLBTOe8fg
            pässwörd | {PBKDF2-SHA256}10000$gDWnLv4.KdyoFGWxbG16Og$RvL6QQ/eTDvTEs1W.0FgFDDNGNBXayPcIhYpprPrM.k
            secret   | {PBKDF2-SHA512}10000$AAECAwQFBgcICQoLDA0ODw$s1qOkFay1DbcR0sablkjBgtOqf1IcoQVkkK1uzR9LdXA0A7SkKhkz0j9Li48.pDMKueSh3UUQNkgDDksLeAu.Q
            pässwörd | {PBKDF2-SHA512}10000$nZDv0OTBHFtrS7tU2vzy.A$64/B3IHzQqgGfUPlySzBfW.Mv8ARGDFvPcIJ4lQiOGVKky7HoiM7vsgqKb54FoLCgIt7U6bzEECnVZ04U6fGvA
            secret   | {PBKDF2}10000$AAECAwQFBgcICQoLDA0ODw$w7tX5nEMoIv2c5pL4bh51Yovf50
            pässwörd | {PBKDF2}10000$wSUF4iGyum92AMMgy8m7pQ$cUqcboow4PMoyRonRsYy4LAnSK4
            """)
    void acceptsValuesWrittenByOtherTools(String password, String stored) {
        assertTrue(PasswordSchemes.verify(bytes(stored), bytes(password), false));
        assertFalse(PasswordSchemes.verify(bytes(stored), bytes(password + "x"), false));
        assertFalse(PasswordSchemes.verify(bytes(stored), bytes("Secret"), false));
    }

    @Test
    void schemeNamesIgnoreCase() {
        assertTrue(PasswordSchemes.verify(bytes("{ssha}TbEHpU4o2xUfTa6Uxv803HTSUVRy4+vF"), bytes("secret"), false));
        assertTrue(PasswordSchemes.verify(
                bytes("{pbkdf2-sha256}10000$AAECAwQFBgcICQoLDA0ODw$OImOyGKQvA8WMIN8WwuclUZFDykpCY/RxWOLBTOe8fg"),
                bytes("secret"),
                false));
    }

    @Test
    void cleartextOnlyWhenAllowed() {
        assertTrue(PasswordSchemes.verify(bytes("secret"), bytes("secret"), true));
        assertFalse(PasswordSchemes.verify(bytes("secret"), bytes("secret"), false));
        assertFalse(PasswordSchemes.verify(bytes("secret"), bytes("secret2"), true));
        assertFalse(PasswordSchemes.verify(bytes("secret"), bytes("secre"), true));
    }

    @Test
    void hashedValueIsNeverComparedAsCleartext() {
        String stored = "{SSHA}TbEHpU4o2xUfTa6Uxv803HTSUVRy4+vF";
        assertFalse(PasswordSchemes.verify(bytes(stored), bytes(stored), true));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{CRYPT}aa12345678901",
                "{MD5}Xr4ilOzQ4PCOq3aQ0qbuaQ==",
                "{ARGON2}$argon2i$x",
                "{CLEARTEXT}secret",
                "{NOPE}secret"
            })
    void unknownSchemeNeverMatches(String stored) {
        assertFalse(PasswordSchemes.verify(bytes(stored), bytes("secret"), true));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{SSHA}",
                "{SSHA}not base64!",
                "{SSHA}TbEHpU4o2xUfTa6Uxv803HTSUVQ=",
                "{SSHA256}AAAA",
                "{PBKDF2-SHA256}",
                "{PBKDF2-SHA256}10000$AAECAwQFBgcICQoLDA0ODw",
                "{PBKDF2-SHA256}x$AAECAwQFBgcICQoLDA0ODw$OImOyGKQvA8WMIN8WwuclUZFDykpCY/RxWOLBTOe8fg",
                "{PBKDF2-SHA256}0$AAECAwQFBgcICQoLDA0ODw$OImOyGKQvA8WMIN8WwuclUZFDykpCY/RxWOLBTOe8fg",
                "{PBKDF2-SHA256}999999999$AAECAwQFBgcICQoLDA0ODw$OImOyGKQvA8WMIN8WwuclUZFDykpCY/RxWOLBTOe8fg",
                "{PBKDF2-SHA256}10000$AAECAwQFBgcICQoLDA0ODw$",
                "{PBKDF2-SHA256}10000$!!$OImOyGKQvA8WMIN8WwuclUZFDykpCY/RxWOLBTOe8fg"
            })
    void malformedValueNeverMatches(String stored) {
        assertFalse(PasswordSchemes.verify(bytes(stored), bytes("secret"), false));
    }

    @Test
    void emptyPasswordNeverMatches() {
        assertFalse(PasswordSchemes.verify(new byte[0], new byte[0], true));
        assertFalse(PasswordSchemes.verify(bytes("{SSHA}TbEHpU4o2xUfTa6Uxv803HTSUVRy4+vF"), new byte[0], false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SSHA", "SSHA256", "SSHA512", "PBKDF2", "PBKDF2-SHA1", "PBKDF2-SHA256", "PBKDF2-SHA512"})
    void hashThenVerifyRoundTrips(String scheme) {
        byte[] password = bytes("correct horse \u00e9");
        byte[] stored = PasswordSchemes.hash(scheme, password);
        String text = new String(stored, US_ASCII);
        assertTrue(text.startsWith("{" + scheme + "}"), text);
        assertTrue(PasswordSchemes.verify(stored, password, false));
        assertFalse(PasswordSchemes.verify(stored, bytes("correct horse e"), false));
        assertTrue(PasswordSchemes.isHashed(stored));
        assertFalse(Arrays.equals(stored, PasswordSchemes.hash(scheme, password)), "salt must differ per hash");
    }

    /** Recomputes a new {SSHA256} value by hand from its own salt, so the layout is pinned independently. */
    @Test
    void hashWritesDigestThenSalt() throws Exception {
        byte[] stored = PasswordSchemes.hash("ssha256", bytes("secret"));
        byte[] decoded = Base64.getDecoder().decode(new String(stored, US_ASCII).substring("{SSHA256}".length()));
        assertEquals(32 + 8, decoded.length);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(bytes("secret"));
        sha.update(Arrays.copyOfRange(decoded, 32, decoded.length));
        assertArrayEquals(sha.digest(), Arrays.copyOf(decoded, 32));
    }

    @Test
    void pbkdf2HashUsesAdaptedBase64WithoutPadding() {
        String text = new String(PasswordSchemes.hash("PBKDF2-SHA256", bytes("secret")), US_ASCII);
        String[] parts = text.substring("{PBKDF2-SHA256}".length()).split("\\$");
        assertEquals(String.valueOf(Pbkdf2Scheme.NEW_HASH_ITERATIONS), parts[0]);
        assertEquals(22, parts[1].length(), "16-byte salt");
        assertEquals(43, parts[2].length(), "32-byte key");
        assertFalse(text.contains("+") || text.contains("="), text);
    }

    @Test
    void hashRejectsUnknownSchemeAndEmptyPassword() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> PasswordSchemes.hash("MD5", bytes("x")));
        assertTrue(e.getMessage().contains("MD5") && e.getMessage().contains("SSHA256"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PasswordSchemes.hash("SSHA", new byte[0]));
    }

    @Test
    void everySchemeTheConfigAcceptsCanBeHashed() {
        for (String scheme : Security.SUPPORTED_SCHEMES) {
            assertTrue(PasswordSchemes.supportedSchemes().contains(scheme), scheme);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "'{SSHA}abc', true",
        "'{ssha256}abc', true",
        "'{SSHA}', false",
        "'{MD5}abc', false",
        "'secret', false",
        "'{', false",
        "'{}x', false"
    })
    void recognizesHashedValues(String value, boolean hashed) {
        assertEquals(hashed, PasswordSchemes.isHashed(bytes(value)));
    }

    @Test
    void differentPasswordsGiveDifferentVerdicts() {
        byte[] stored = PasswordSchemes.hash("SSHA512", bytes("one"));
        assertNotEquals(
                PasswordSchemes.verify(stored, bytes("one"), false),
                PasswordSchemes.verify(stored, bytes("two"), false));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void iterationCountAboveTheBoundIsRefusedWithoutHashing() {
        byte[] stored = bytes("{PBKDF2-SHA256}"
                + new Pbkdf2Scheme("PBKDF2-SHA256", "HmacSHA256").encode(bytes("secret"), new SecureRandom(), 2_000));
        assertEquals(PasswordCheck.TOO_COSTLY, PasswordSchemes.check(stored, bytes("secret"), false, 1_999));
        assertEquals(PasswordCheck.MATCH, PasswordSchemes.check(stored, bytes("secret"), false, 2_000));
        assertEquals(PasswordCheck.MISMATCH, PasswordSchemes.check(stored, bytes("secreT"), false, 2_000));
    }

    @Test
    void singlePassSchemesAreNeverTooCostly() {
        byte[] stored = PasswordSchemes.hash("SSHA256", bytes("secret"));
        assertEquals(PasswordCheck.MATCH, PasswordSchemes.check(stored, bytes("secret"), false, 1));
    }

    @Test
    void aStoredHashCheaperThanTheConfiguredOneIsPaddedAndOneOfTheSameCostIsCurrent() {
        byte[] pw = "pw".getBytes(US_ASCII);
        byte[] reference = PasswordSchemes.hash("PBKDF2-SHA256", pw);
        byte[] fewer = "{PBKDF2-SHA256}1000$c2FsdHNhbHRzYWx0c2FsdA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                .getBytes(US_ASCII);
        assertTrue(PasswordSchemes.cheaper(PasswordSchemes.hash("SSHA", pw), reference));
        assertTrue(PasswordSchemes.cheaper("cleartext".getBytes(US_ASCII), reference));
        assertTrue(PasswordSchemes.cheaper(fewer, reference));
        assertFalse(PasswordSchemes.cheaper(PasswordSchemes.hash("PBKDF2-SHA256", pw), reference));
        assertFalse(PasswordSchemes.cheaper(PasswordSchemes.hash("SSHA", pw), PasswordSchemes.hash("SSHA512", pw)));

        assertTrue(PasswordSchemes.sameSchemeAndCost(PasswordSchemes.hash("PBKDF2-SHA256", pw), reference));
        assertFalse(PasswordSchemes.sameSchemeAndCost(fewer, reference));
        assertFalse(PasswordSchemes.sameSchemeAndCost(PasswordSchemes.hash("SSHA", pw), reference));
    }

    @Test
    void onlyARightPasswordStoredAsOneDigestOrCleartextMatchesCheaply() {
        byte[] pw = "s3cret".getBytes(UTF_8);
        for (String scheme : new String[] {"SSHA", "SSHA256", "SSHA512"}) {
            byte[] stored = PasswordSchemes.hash(scheme, pw);
            assertTrue(PasswordSchemes.matchesCheaply(stored, pw, false), scheme);
            assertFalse(PasswordSchemes.matchesCheaply(stored, "s3creT".getBytes(UTF_8), false), scheme);
            assertFalse(PasswordSchemes.matchesCheaply(stored, new byte[0], false), scheme);
        }
        // an iterating scheme is never decided cheaply, even for the right password
        assertFalse(PasswordSchemes.matchesCheaply(PasswordSchemes.hash("PBKDF2-SHA256", pw), pw, false));
        assertTrue(PasswordSchemes.matchesCheaply(pw, pw, true));
        assertFalse(PasswordSchemes.matchesCheaply(pw, pw, false), "cleartext only where allowed");
        assertFalse(PasswordSchemes.matchesCheaply("{SSHA}not base64!".getBytes(US_ASCII), pw, false));
    }
}
