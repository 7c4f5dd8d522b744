package dev.larch.server.auth;

import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.entry.Entry;

/**
 * A rule a new password must pass before it is hashed and stored: the seam for password policy
 * (quality, history, whether a user may change their own password, must-change after a reset).
 * Called from Add, Modify and Password Modify for every cleartext {@code userPassword} value a
 * client sends; prehashed values written by the administrator are not cleartext and skip it.
 *
 * <p>Called on a worker thread, never on an event loop, so it may read the store. Implementations
 * must be thread-safe.
 */
@FunctionalInterface
public interface PasswordChangeCheck {
    /** Accepts every password. */
    PasswordChangeCheck NONE = (session, target, password, adminReset) -> {};

    /**
     * @param session the client changing the password
     * @param target the entry as it is before the change, or the new entry of an Add (schema-aware;
     *     do not modify)
     * @param password the new password in cleartext; do not keep it
     * @param adminReset true when the administrator sets someone's password (Add, Modify or Password
     *     Modify by the administrator of an entry other than its own)
     * @throws dev.larch.server.error.ResultCodeException to refuse, for example constraintViolation
     *     with a message saying which rule the password breaks
     */
    void check(Session session, Entry target, byte[] password, boolean adminReset);
}
