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
    private final long id;
    private final SocketAddress remoteAddress;
    private volatile Dn boundDn = Dn.EMPTY_DN;
    private volatile boolean admin;
    private volatile boolean mustChangePassword;

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

    /** Records a successful bind; {@code dn} empty means anonymous. Clears {@link #mustChangePassword}. */
    public void bound(Dn dn, boolean isAdmin) {
        this.boundDn = dn == null ? Dn.EMPTY_DN : dn;
        this.admin = isAdmin;
        this.mustChangePassword = false;
    }

    /**
     * True when the bound identity's password was reset by an administrator and its password policy
     * says it must be changed first (draft-behera {@code pwdMustChange}): until then the session may
     * only change that password.
     */
    public boolean mustChangePassword() {
        return mustChangePassword;
    }

    /** Sets or clears the must-change state; set by the bind handler, cleared by a password change. */
    public void mustChangePassword(boolean value) {
        this.mustChangePassword = value;
    }
}
