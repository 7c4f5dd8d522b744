package dev.larch.server.auth.sasl;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlainMessageTest {

    private static byte[] bytes(String message) {
        return message.getBytes(UTF_8);
    }

    @Test
    void emptyAuthzidAuthcidAndPassword() {
        PlainMessage m = PlainMessage.parse(bytes("\0u:alice\0s3cr\u00e9t"));
        assertEquals("", m.authzid());
        assertEquals("u:alice", m.authcid());
        assertArrayEquals(bytes("s3cr\u00e9t"), m.password());
    }

    @Test
    void authzidIsKept() {
        assertEquals(
                "dn:uid=a,dc=x",
                PlainMessage.parse(bytes("dn:uid=a,dc=x\0u:a\0pw")).authzid());
    }

    @Test
    void missingSeparatorIsInvalidCredentials() {
        assertMalformed(bytes("u:alice\0pw"), "authzid NUL authcid NUL password");
    }

    @Test
    void aThirdSeparatorIsRefused() {
        assertMalformed(bytes("\0u:alice\0pw\0more"), "authzid NUL authcid NUL password");
    }

    @Test
    void emptyPasswordIsRefused() {
        assertMalformed(bytes("\0u:alice\0"), "empty");
    }

    @Test
    void partsLongerThan255BytesAreRefused() {
        assertMalformed(bytes("\0u:" + "a".repeat(254) + "\0pw"), "longer than 255");
    }

    @Test
    void invalidUtf8InTheAuthcidIsRefused() {
        assertMalformed(new byte[] {0, (byte) 0xC3, 0, 'p'}, "UTF-8");
    }

    @Test
    void noCredentialsAtAll() {
        assertMalformed(null, "no credentials");
    }

    private static void assertMalformed(byte[] message, String expected) {
        ResultCodeException e = assertThrows(ResultCodeException.class, () -> PlainMessage.parse(message));
        assertEquals(ResultCodeEnum.INVALID_CREDENTIALS, e.code());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
