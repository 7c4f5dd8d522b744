package dev.larch.server.error;

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

    public ResultCodeException(ResultCodeEnum code, String message) {
        this(code, message, Dn.EMPTY_DN);
    }

    public ResultCodeException(ResultCodeEnum code, String message, Dn matchedDn) {
        this(code, message, matchedDn, 0);
    }

    private ResultCodeException(ResultCodeEnum code, String message, Dn matchedDn, int wireCode) {
        super(message, null, false, false);
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
