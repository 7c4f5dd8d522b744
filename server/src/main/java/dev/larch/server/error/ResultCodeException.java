package dev.larch.server.error;

import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * An operation failure with the result code, matched DN and message the client will see.
 * Messages must be safe to show: they name the problem, never internals.
 */
public final class ResultCodeException extends RuntimeException {
    private final ResultCodeEnum code;
    private final Dn matchedDn;

    public ResultCodeException(ResultCodeEnum code, String message) {
        this(code, message, Dn.EMPTY_DN);
    }

    public ResultCodeException(ResultCodeEnum code, String message, Dn matchedDn) {
        super(message, null, false, false);
        this.code = code;
        this.matchedDn = matchedDn == null ? Dn.EMPTY_DN : matchedDn;
    }

    public ResultCodeEnum code() {
        return code;
    }

    public Dn matchedDn() {
        return matchedDn;
    }
}
