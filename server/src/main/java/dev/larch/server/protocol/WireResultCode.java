package dev.larch.server.protocol;

import org.apache.directory.api.ldap.model.message.Message;

/**
 * A result code the Apache API's {@code ResultCodeEnum} cannot express (RFC 4528's assertionFailed,
 * 122), carried beside a response whose enum code is {@code other}; the encoder writes this code in
 * its place. Only one-octet codes (below 128) qualify: the encoded length does not change.
 */
public final class WireResultCode {
    /** RFC 4528: the assertion control's filter was not true for the target entry. */
    public static final int ASSERTION_FAILED = 122;
    /** RFC 4370: the requester may not act as the proxied identity. */
    public static final int AUTHORIZATION_DENIED = 123;

    private static final String KEY = "dev.larch.wireResultCode";

    private WireResultCode() {}

    /** Marks {@code response} to be written with {@code code} as its result code. */
    public static void set(Message response, int code) {
        if (code < 1 || code > 127) {
            throw new IllegalArgumentException("a wire result code must fit one octet: " + code);
        }
        response.put(KEY, code);
    }

    /** The code to write in place of the response's own, or 0 for none. */
    public static int of(Message response) {
        return response.get(KEY) instanceof Integer code ? code : 0;
    }
}
