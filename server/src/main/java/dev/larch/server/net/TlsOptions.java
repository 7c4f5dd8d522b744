package dev.larch.server.net;

import java.util.Objects;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

/**
 * TLS for a listener: the server context that StartTLS and LDAPS connections use, how long their
 * handshake may take, and the LDAPS port. Immutable and thread-safe.
 *
 * @param context the server's TLS context, or null when TLS is not configured (StartTLS answers
 *     unavailable and there is no LDAPS port)
 * @param handshakeTimeoutMillis a handshake not complete by then closes the connection
 * @param ldapsPort the port that speaks TLS from the first byte, on the listener's host; 0 = none
 */
public record TlsOptions(SslContext context, long handshakeTimeoutMillis, int ldapsPort) {

    /** No TLS: StartTLS is refused and only the plain port listens. */
    public static final TlsOptions NONE = new TlsOptions(null, 10_000, 0);

    public TlsOptions {
        if (handshakeTimeoutMillis < 1) {
            throw new IllegalArgumentException("handshakeTimeoutMillis must be positive");
        }
        if (ldapsPort < 0 || ldapsPort > 65_535 || (ldapsPort != 0 && context == null)) {
            throw new IllegalArgumentException("an LDAPS port (0..65535) needs a context");
        }
    }

    public boolean enabled() {
        return context != null;
    }

    /**
     * A fresh server-side handler for one connection; with {@code startTls} the first message written
     * (the StartTLS response) still goes out in clear.
     */
    SslHandler newHandler(ByteBufAllocator allocator, boolean startTls) {
        Objects.requireNonNull(context, "TLS is not configured");
        SslHandler handler = new SslHandler(context.newEngine(allocator), startTls);
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        return handler;
    }
}
