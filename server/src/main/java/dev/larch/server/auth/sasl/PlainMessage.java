package dev.larch.server.auth.sasl;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The message of SASL PLAIN (RFC 4616 §2): {@code [authzid] NUL authcid NUL passwd}, each part UTF-8
 * of at most 255 bytes. A malformed message is invalidCredentials (RFC 4513 §5.2.1.2 leaves the code to
 * the server; it says nothing about which part was wrong beyond the shape).
 *
 * @param authzid the identity to act as; empty means the authcid's own
 * @param authcid the identity whose password is given, {@code dn:<DN>} or {@code u:<user id>}
 * @param password the password bytes as sent
 */
record PlainMessage(String authzid, String authcid, byte[] password) {
    /** RFC 4616 bounds each part to 255 octets. */
    static final int MAX_PART_BYTES = 255;

    static PlainMessage parse(byte[] message) {
        if (message == null) {
            throw malformed("no credentials");
        }
        int first = indexOfNul(message, 0);
        int second = first < 0 ? -1 : indexOfNul(message, first + 1);
        if (second < 0 || indexOfNul(message, second + 1) >= 0) {
            throw malformed("expected authzid NUL authcid NUL password");
        }
        if (first > MAX_PART_BYTES
                || second - first - 1 > MAX_PART_BYTES
                || message.length - second - 1 > MAX_PART_BYTES) {
            throw malformed("a part is longer than 255 bytes");
        }
        String authcid = utf8(message, first + 1, second);
        byte[] password = new byte[message.length - second - 1];
        System.arraycopy(message, second + 1, password, 0, password.length);
        if (authcid.isEmpty() || password.length == 0) {
            throw malformed("empty authcid or password");
        }
        return new PlainMessage(utf8(message, 0, first), authcid, password);
    }

    private static int indexOfNul(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    private static String utf8(byte[] bytes, int from, int to) {
        try {
            return UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, from, to - from))
                    .toString();
        } catch (CharacterCodingException e) {
            throw malformed("not UTF-8");
        }
    }

    private static ResultCodeException malformed(String why) {
        return new ResultCodeException(ResultCodeEnum.INVALID_CREDENTIALS, "malformed SASL PLAIN credentials: " + why);
    }
}
