package dev.larch.server.auth;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Checks passwords presented in simple binds.
 *
 * <p>Thread-safe.
 */
public interface Credentials {
    /** The administrator's DN (schema-aware). */
    Dn adminDn();

    /** Whether {@code presented} is the administrator's password. */
    boolean isAdminPassword(byte[] presented);

    /** Whether {@code presented} matches a stored {@code userPassword} value (hashed, or cleartext if allowed). */
    boolean matches(byte[] storedUserPassword, byte[] presented);
}
