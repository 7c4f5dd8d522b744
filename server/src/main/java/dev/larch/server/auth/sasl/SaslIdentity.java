package dev.larch.server.auth.sasl;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Who a SASL bind claims to be, for the bind handler to finish like a simple bind.
 *
 * @param dn the entry to bind as, normalized; for PLAIN a DN that may not exist (the password check
 *     then fails after the same work as a wrong password); for EXTERNAL null when no entry maps
 * @param password the password to check (PLAIN); null when the TLS layer already proved the identity
 *     (EXTERNAL)
 */
public record SaslIdentity(Dn dn, byte[] password) {
    public boolean provenByCertificate() {
        return password == null;
    }
}
