package dev.larch.server.auth;

import java.util.Set;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * Who may do what, until access control lists arrive: anyone may read and search, only the
 * administrator may write (users may change their own password, see the modify handler), and
 * password values, current and former ({@link PasswordAttributes}), are shown to the administrator alone.
 */
public final class AccessPolicy {
    /** OID of userPassword. */
    public static final String USER_PASSWORD_OID = PasswordAttributes.USER_PASSWORD_OID;

    private final PasswordAttributes passwords;

    /** A policy protecting the standard password attributes. */
    public AccessPolicy() {
        this(PasswordAttributes.STANDARD);
    }

    public AccessPolicy(PasswordAttributes passwords) {
        this.passwords = passwords;
    }

    public void requireWrite(Session session, String operation) {
        if (!session.isAdmin()) {
            throw new ResultCodeException(
                    ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS, "only the directory administrator may " + operation);
        }
    }

    /** OIDs of the attributes whose values this session may not see, nor test in a search filter. */
    public Set<String> unreadable(Session session) {
        return session.isAdmin() ? Set.of() : passwords.protectedOids();
    }

    /** Whether this session may see (or compare) the values of the attribute {@code oid}. */
    public boolean canRead(Session session, String oid) {
        return !passwords.isProtected(oid) || session.isAdmin();
    }
}
