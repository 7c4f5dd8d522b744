package dev.larch.server.tls;

import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSessionContext;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolNegotiator;
import io.netty.handler.ssl.SslContext;

/**
 * A server TLS context whose certificate and key a reload can replace: every new engine (a new
 * LDAPS connection or StartTLS) comes from the context in place at that moment; connections already
 * encrypted keep the one they started with.
 *
 * <p>Thread-safe: the current context is one volatile reference.
 */
public final class ReloadableSslContext extends SslContext {
    private volatile SslContext current;

    public ReloadableSslContext(SslContext initial) {
        this.current = Objects.requireNonNull(initial, "initial");
    }

    /** New connections use {@code replacement} from now on. */
    public void replace(SslContext replacement) {
        current = Objects.requireNonNull(replacement, "replacement");
    }

    @Override
    public boolean isClient() {
        return current.isClient();
    }

    @Override
    public List<String> cipherSuites() {
        return current.cipherSuites();
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation") // abstract in SslContext: must be implemented, delegated as it is
    public ApplicationProtocolNegotiator applicationProtocolNegotiator() {
        return current.applicationProtocolNegotiator();
    }

    @Override
    public SSLEngine newEngine(ByteBufAllocator alloc) {
        return current.newEngine(alloc);
    }

    @Override
    public SSLEngine newEngine(ByteBufAllocator alloc, String peerHost, int peerPort) {
        return current.newEngine(alloc, peerHost, peerPort);
    }

    @Override
    public SSLSessionContext sessionContext() {
        return current.sessionContext();
    }
}
