package dev.larch.server.protocol;

import java.net.SocketAddress;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * What the server knows about one client connection, shared by the protocol layer and the
 * operation handlers.
 *
 * <p>Thread-safety: the bound identity may be read from any thread and is changed only by the
 * bind handler; a connection's operations otherwise run on its event loop.
 */
public final class Session {
    /** {@link #authMethod()} of an anonymous session. */
    public static final String AUTH_NONE = "none";
    /** {@link #authMethod()} after a successful simple bind. */
    public static final String AUTH_SIMPLE = "simple";

    private final long id;
    private final SocketAddress remoteAddress;
    private volatile Dn boundDn = Dn.EMPTY_DN;
    private volatile boolean admin;
    private volatile String authMethod = AUTH_NONE;
    private volatile int ssf;

    public Session(long id, SocketAddress remoteAddress) {
        this.id = id;
        this.remoteAddress = remoteAddress;
    }

    /** The connection number shown in the access log; unique for the life of the process. */
    public long id() {
        return id;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** The DN of the bound identity, {@link Dn#EMPTY_DN} when anonymous; never null. */
    public Dn boundDn() {
        return boundDn;
    }

    public boolean isAnonymous() {
        return boundDn.isEmpty();
    }

    /** True when the bound identity is the directory administrator. */
    public boolean isAdmin() {
        return admin;
    }

    /**
     * Records a successful bind; {@code dn} empty means anonymous. The authentication method becomes
     * {@value #AUTH_SIMPLE} for a named identity and {@value #AUTH_NONE} for anonymous; a SASL or TLS
     * bind sets its own with {@link #authMethod(String)} afterwards.
     */
    public void bound(Dn dn, boolean isAdmin) {
        this.boundDn = dn == null ? Dn.EMPTY_DN : dn;
        this.admin = isAdmin;
        this.authMethod = boundDn.isEmpty() ? AUTH_NONE : AUTH_SIMPLE;
    }

    /**
     * How the bound identity authenticated, as ACI {@code authmethod} names it: {@code none},
     * {@code simple}, {@code ssl} (a client certificate) or {@code sasl}.
     */
    public String authMethod() {
        return authMethod;
    }

    /** Sets the authentication method, for binds other than simple ones (SASL, client certificates). */
    public void authMethod(String method) {
        this.authMethod = method;
    }

    /**
     * The connection's security strength factor: 0 in clear text, else the key size in bits of its
     * cipher (TLS), as ACI {@code ssf} compares it.
     */
    public int ssf() {
        return ssf;
    }

    /** Sets the security strength factor, when TLS (or a SASL security layer) starts. */
    public void ssf(int strength) {
        this.ssf = strength;
    }
}
