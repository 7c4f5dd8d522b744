package dev.larch.server.protocol;

import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * A result code the Apache API's {@code ResultCodeEnum} cannot express (RFC 4528's assertionFailed,
 * 122, the no-op control's noOperation, 16654), carried beside a response whose enum code is the
 * {@linkplain #placeholder placeholder} of the same encoded size; the encoder writes this code over
 * the placeholder's octets, so no length in the PDU changes. Codes of one octet (1 to 127) and of two
 * (128 to 32767) qualify.
 */
public final class WireResultCode {
    /** RFC 4528: the assertion control's filter was not true for the target entry. */
    public static final int ASSERTION_FAILED = 122;
    /** RFC 4370: the requester may not act as the proxied identity. */
    public static final int AUTHORIZATION_DENIED = 123;
    /** draft-zeilenga-ldap-noop: the update would have succeeded; nothing was changed. */
    public static final int NO_OPERATION = 0x410E;

    private static final String KEY = "dev.larch.wireResultCode";

    private WireResultCode() {}

    /**
     * Marks {@code response} to be written with {@code code} as its result code; the response's own
     * code must be {@link #placeholder(int)} of {@code code}.
     */
    public static void set(Message response, int code) {
        octets(code);
        response.put(KEY, code);
    }

    /** Forgets a wire code {@link #set} on {@code response}: it is written with its own code again. */
    public static void clear(Message response) {
        response.put(KEY, null);
    }

    /**
     * The enum code a response carries in place of {@code code}: {@code other} (80) for a one-octet
     * code, {@code e-syncRefreshRequired} (4096, encoded {@code 0A 02 10 00}) for a two-octet one.
     */
    public static ResultCodeEnum placeholder(int code) {
        return octets(code) == 1 ? ResultCodeEnum.OTHER : ResultCodeEnum.E_SYNC_REFRESH_REQUIRED;
    }

    /** How many value octets {@code code} takes as a BER INTEGER/ENUMERATED: 1 or 2. */
    public static int octets(int code) {
        if (code >= 1 && code <= 0x7F) {
            return 1;
        }
        if (code > 0x7F && code <= 0x7FFF) {
            return 2;
        }
        throw new IllegalArgumentException("a wire result code must fit one or two octets: " + code);
    }

    /** The code to write in place of the response's own, or 0 for none. */
    public static int of(Message response) {
        return response.get(KEY) instanceof Integer code ? code : 0;
    }

    /**
     * The result code the client sees for {@code response}: the wire code written over the enum's
     * placeholder, if any, else the enum's own (what the access log, the metrics and the traces report).
     */
    public static int seen(ResultResponse response) {
        int wire = of(response);
        return wire != 0 ? wire : response.getLdapResult().getResultCode().getResultCode();
    }
}
