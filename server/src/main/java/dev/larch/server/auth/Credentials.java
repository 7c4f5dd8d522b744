package dev.larch.server.auth;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Checks passwords presented in simple binds.
 *
 * <p>Thread-safe. Checks may hash for tens of milliseconds: call them off the event loops.
 */
public interface Credentials {
    /** The administrator's DN (schema-aware). */
    Dn adminDn();

    /** Checks {@code presented} against the administrator's password. */
    PasswordCheck checkAdmin(byte[] presented);

    /** Checks {@code presented} against a stored {@code userPassword} value (hashed, or cleartext if allowed). */
    PasswordCheck check(byte[] storedUserPassword, byte[] presented);

    /**
     * Whether {@code presented} matches a stored {@code userPassword} value whose check costs no more
     * than one pass of a digest (a salted SHA, or cleartext if allowed): true only for such a match.
     * False for a mismatch and for every value that needs the full {@link #check}, which alone decides
     * them and pays a failure's cost. Cheap enough for an event loop.
     */
    default boolean matchesCheaply(byte[] storedUserPassword, byte[] presented) {
        return false;
    }

    /**
     * Spends what checking a password hashed with the configured scheme costs, and learns nothing:
     * for a DN with no password, so that its failure takes as long as a wrong password would.
     */
    void checkAgainstNothing(byte[] presented);

    /**
     * Whether a stored value is a hash of the configured scheme at the configured cost; if not, a
     * bind that matched it may store a new one ({@code security.rehash-on-bind}). Cheap: parses.
     */
    default boolean isCurrent(byte[] storedUserPassword) {
        return true;
    }
}
