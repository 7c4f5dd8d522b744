package dev.larch.server.auth;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * {@code security.require-tls-for-binds}: whether a password may cross this connection. A password
 * needs TLS (StartTLS or LDAPS) unless the client is local (loopback, or an in-process channel), so
 * that the embedded default on 127.0.0.1 works without a certificate (RFC 4513 §5.1.2 lets a server
 * refuse with confidentialityRequired). Immutable and thread-safe.
 */
public final class TransportRule {
    private final boolean requireTls;

    /** @param requireTls false lets passwords travel in clear from anywhere */
    public TransportRule(boolean requireTls) {
        this.requireTls = requireTls;
    }

    /** @throws ResultCodeException confidentialityRequired when the rule forbids a password here */
    public void checkPasswordMayTravel(Session session) {
        if (requireTls && session.tls() == null && !session.isLocal()) {
            throw new ResultCodeException(
                    ResultCodeEnum.CONFIDENTIALITY_REQUIRED,
                    "a bind with a password needs TLS from a remote client: use StartTLS or LDAPS"
                            + " (security.require-tls-for-binds)");
        }
    }
}
