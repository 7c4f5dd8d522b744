package dev.larch.server.sync;

import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * A Sync Request control the server will not act on, with the result code to answer the search with
 * and a message safe to send to the client.
 */
public final class SyncControlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ResultCodeEnum resultCode;

    public SyncControlException(ResultCodeEnum resultCode, String message) {
        super(message);
        this.resultCode = resultCode;
    }

    public ResultCodeEnum resultCode() {
        return resultCode;
    }
}
