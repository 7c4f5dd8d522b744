package dev.larch.server.auth;

import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

class Pbkdf2Test {
    /** RFC 7914 section 11, the PBKDF2-HMAC-SHA256 vectors. */
    @Test
    void matchesRfc7914Vectors() {
        Pbkdf2 prf = new Pbkdf2("HmacSHA256");
        assertEquals(
                "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                        + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783",
                hex(prf.derive("passwd".getBytes(US_ASCII), "salt".getBytes(US_ASCII), 1, 64)));
        assertEquals(
                "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
                        + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d",
                hex(prf.derive("Password".getBytes(US_ASCII), "NaCl".getBytes(US_ASCII), 80_000, 64)));
    }

    /** RFC 6070, PBKDF2-HMAC-SHA1. */
    @Test
    void matchesRfc6070Vector() {
        assertEquals(
                "4b007901b765489abead49d926f721d065a429c1",
                hex(new Pbkdf2("HmacSHA1").derive("password".getBytes(US_ASCII), "salt".getBytes(US_ASCII), 4096, 20)));
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
