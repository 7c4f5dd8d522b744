package dev.larch.server.protocol;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

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
    /** {@link #authMethod()} after SASL EXTERNAL with a client certificate (389-DS calls it "ssl"). */
    public static final String AUTH_SSL = "ssl";
    /** {@link #authMethod()} after a SASL bind with a password (PLAIN). */
    public static final String AUTH_SASL = "sasl";

    private final long id;
    private final SocketAddress remoteAddress;
    /** {@link #remoteAddressText()}, null until asked for. */
    private String remoteText;
    /** The connection's own session when this is an admitted copy ({@link #admitted}); null otherwise. */
    private final Session origin;
    /** Successful binds so far (for a copy: at the time it was made); guarded by the connection's session. */
    private long binds;
    /** Orders every successful bind of the process: a bind with a smaller number happened before. */
    private static final AtomicLong BIND_SEQUENCE = new AtomicLong();
    /** This session's place in {@link #BIND_SEQUENCE}; 0 before its first bind. */
    private volatile long bindSequence;

    private volatile Dn boundDn = Dn.EMPTY_DN;
    private volatile boolean admin;
    private volatile TlsState tls;
    private volatile boolean mustChangePassword;
    private volatile String authMethod = AUTH_NONE;
    /** Per-connection state of handlers, by its class; created on first use. */
    private Map<Class<?>, Object> attachments;

    public Session(long id, SocketAddress remoteAddress) {
        this(id, remoteAddress, null);
    }

    private Session(long id, SocketAddress remoteAddress, Session origin) {
        this.id = id;
        this.remoteAddress = remoteAddress;
        this.origin = origin;
    }

    /**
     * This session as it is now, for an operation admitted now that runs later (a write waits in the
     * write queue): a bind on the connection meanwhile does not change who performs it. Clearing
     * {@link #mustChangePassword} on the copy (its identity changed its own password) reaches this
     * session only while it is still bound as that identity.
     */
    public Session admitted() {
        Session copy = new Session(id, remoteAddress, this);
        synchronized (this) {
            copy.binds = binds;
            copy.boundDn = boundDn;
            copy.admin = admin;
            copy.mustChangePassword = mustChangePassword;
        }
        copy.tls = tls;
        copy.authMethod = authMethod;
        return copy;
    }

    /**
     * The connection's instance of {@code type}, created by {@code create} on first use: state a
     * handler keeps for the life of the connection (open paged searches), dropped with the session.
     * Thread-safe.
     */
    public synchronized <T> T attachment(Class<T> type, Supplier<? extends T> create) {
        if (attachments == null) {
            attachments = new HashMap<>(4);
        }
        return type.cast(attachments.computeIfAbsent(type, k -> create.get()));
    }

    /**
     * The session an operation with proxied authorization (RFC 4370) runs as: this connection's
     * transport (address, TLS) with another identity, for that one operation. Changing it never
     * changes this session. The identity acted as is never the administrator, whatever its DN (see
     * {@link #isAdmin}).
     *
     * @param dn the stored entry acted as; the empty DN for anonymous
     */
    public Session actingAs(Dn dn) {
        Session acting = new Session(id, remoteAddress);
        acting.tls = tls;
        acting.authMethod = authMethod;
        acting.boundDn = dn;
        return acting;
    }

    /** The connection number shown in the access log; unique for the life of the process. */
    public long id() {
        return id;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /**
     * The client's address as the logs write it ({@code host:port}), formatted on first use and then
     * kept: a JSON access line names it on every operation. Racing threads at worst format it twice.
     */
    public String remoteAddressText() {
        String text = remoteText;
        if (text == null) {
            text = remoteAddress instanceof InetSocketAddress inet
                    ? inet.getHostString() + ":" + inet.getPort()
                    : String.valueOf(remoteAddress);
            remoteText = text;
        }
        return text;
    }

    /**
     * Whether the client is on this host: a loopback address, or no IP address at all (an in-process
     * channel). Such clients may send passwords without TLS ({@code security.require-tls-for-binds}).
     */
    public boolean isLocal() {
        return !(remoteAddress instanceof InetSocketAddress inet)
                || (inet.getAddress() != null && inet.getAddress().isLoopbackAddress());
    }

    /** The connection's TLS layer once its handshake completed; null while the connection is clear. */
    public TlsState tls() {
        return tls;
    }

    /** Records the completed TLS handshake (LDAPS, or after StartTLS); set at most once per connection. */
    public void secured(TlsState state) {
        this.tls = state;
    }

    /** The DN of the bound identity, {@link Dn#EMPTY_DN} when anonymous; never null. */
    public Dn boundDn() {
        return boundDn;
    }

    public boolean isAnonymous() {
        return boundDn.isEmpty();
    }

    /** The number of the latest successful bind of the whole process, for {@link #forgetIdentityBoundBy}. */
    public static long bindsSoFar() {
        return BIND_SEQUENCE.get();
    }

    /**
     * Makes the session anonymous when its named, non-administrator identity was bound by bind number
     * {@code sequence} or earlier (see {@link #bindsSoFar}); a later bind keeps its identity.
     *
     * @return whether the identity was forgotten
     */
    public synchronized boolean forgetIdentityBoundBy(long sequence) {
        if (isAnonymous() || admin || bindSequence > sequence) {
            return false;
        }
        bound(Dn.EMPTY_DN, false);
        return true;
    }

    /** This session's bind number ({@link #bindsSoFar} just after its latest bind); 0 before any. */
    public long bindSequence() {
        return bindSequence;
    }

    /**
     * True when the bound identity is the directory administrator: set only by a bind that proved the
     * configured administrator credentials ({@code security.admin-password}), never derived from a DN.
     * A stored entry whose DN equals the administrator's, reached by a client certificate or by proxied
     * authorization, is that entry and has its rights only.
     */
    public boolean isAdmin() {
        return admin;
    }

    /**
     * Records a successful bind; {@code dn} empty means anonymous. Clears {@link #mustChangePassword}.
     * {@code isAdmin} must be true only after the administrator's credentials were checked.
     * The authentication method becomes {@value #AUTH_SIMPLE} for a named identity and
     * {@value #AUTH_NONE} for anonymous; a SASL bind sets its own with {@link #authMethod(String)}
     * afterwards.
     */
    public synchronized void bound(Dn dn, boolean isAdmin) {
        binds++;
        bindSequence = BIND_SEQUENCE.incrementAndGet();
        this.boundDn = dn == null ? Dn.EMPTY_DN : dn;
        this.admin = isAdmin;
        this.mustChangePassword = false;
        this.authMethod = boundDn.isEmpty() ? AUTH_NONE : AUTH_SIMPLE;
    }

    /**
     * True when the bound identity's password was reset by an administrator and its password policy
     * says it must be changed first (draft-behera {@code pwdMustChange}): until then the session may
     * only change that password.
     */
    public boolean mustChangePassword() {
        return mustChangePassword;
    }

    /**
     * Sets or clears the must-change state; set by the bind handler, cleared by a password change. On an
     * {@link #admitted} copy, also the connection's, unless it was bound again since the copy was made.
     */
    public void mustChangePassword(boolean value) {
        this.mustChangePassword = value;
        if (origin != null) {
            synchronized (origin) {
                if (origin.binds == binds) {
                    origin.mustChangePassword = value;
                }
            }
        }
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
     * The connection's security strength factor, as ACI {@code ssf} compares it: 0 in clear text, else
     * the key size in bits of its TLS cipher.
     */
    public int ssf() {
        TlsState state = tls;
        return state == null ? 0 : state.keyBits();
    }
}
