package dev.larch.server.error;

import java.util.List;

import dev.larch.server.protocol.WireResultCode;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * An operation failure with the result code, matched DN and message the client will see.
 * Messages must be safe to show: they name the problem, never internals.
 */
public final class ResultCodeException extends RuntimeException {
    private final ResultCodeEnum code;
    private final Dn matchedDn;
    /** A result code the Apache API's enumeration lacks (assertionFailed...), or 0. */
    private final int wireCode;
    /** The referral URLs of a {@code referral} result (RFC 4511 section 4.1.10); empty otherwise. */
    private final List<String> referrals;

    public ResultCodeException(ResultCodeEnum code, String message) {
        this(code, message, Dn.EMPTY_DN);
    }

    public ResultCodeException(ResultCodeEnum code, String message, Dn matchedDn) {
        this(code, message, matchedDn, 0);
    }

    private ResultCodeException(ResultCodeEnum code, String message, Dn matchedDn, int wireCode) {
        this(code, message, matchedDn, wireCode, List.of());
    }

    private ResultCodeException(
            ResultCodeEnum code, String message, Dn matchedDn, int wireCode, List<String> referrals) {
        super(message, null, false, false);
        this.referrals = List.copyOf(referrals);
        this.code = code;
        this.matchedDn = matchedDn == null ? Dn.EMPTY_DN : matchedDn;
        this.wireCode = wireCode;
    }

    /**
     * A failure whose result code the Apache API's {@link ResultCodeEnum} does not list (RFC 4528's
     * assertionFailed, 122): carried as {@code other} and written with {@code wireCode} by the
     * encoder ({@code protocol.WireResultCode}).
     */
    public static ResultCodeException withWireCode(int wireCode, String message) {
        return new ResultCodeException(WireResultCode.placeholder(wireCode), message, Dn.EMPTY_DN, wireCode);
    }

    /**
     * A {@code referral} result (RFC 4511 section 4.1.10) sending the client to {@code urls}.
     *
     * @param urls at least one
     */
    public static ResultCodeException referral(String message, Dn matchedDn, List<String> urls) {
        if (urls.isEmpty()) {
            throw new IllegalArgumentException("a referral needs at least one URL");
        }
        return new ResultCodeException(ResultCodeEnum.REFERRAL, message, matchedDn, 0, urls);
    }

    /** The URLs of a referral result; empty for any other. */
    public List<String> referrals() {
        return referrals;
    }

    /** The result code to write in place of {@link #code}, or 0 for {@link #code} itself. */
    public int wireCode() {
        return wireCode;
    }

    public ResultCodeEnum code() {
        return code;
    }

    public Dn matchedDn() {
        return matchedDn;
    }
}
