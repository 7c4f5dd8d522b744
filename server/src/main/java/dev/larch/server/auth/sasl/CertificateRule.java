package dev.larch.server.auth.sasl;

import java.security.cert.X509Certificate;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * One way of finding the entry a verified client certificate names (a {@code tls.certificate-mapping.<N>}
 * rule without its issuer scope, which {@link CertificateMapping} applies). Implementations are
 * thread-safe, read the store only through {@link EntryFinder}'s bounded lookups, and never throw for
 * a certificate they cannot map.
 */
interface CertificateRule {
    /** What this rule makes of {@code certificate}. */
    Result map(X509Certificate certificate);

    /**
     * A rule's answer.
     *
     * @param applies whether the rule speaks for the certificate; when false the next rule is asked
     * @param dn the one entry the certificate names, normalized; null when nobody
     * @param failure why nobody, for the server's log only (never sent to the client); null when {@code dn}
     *     is set or the rule does not apply
     */
    record Result(boolean applies, Dn dn, String failure) {
        static final Result NOT_APPLICABLE = new Result(false, null, null);

        static Result found(Dn dn) {
            return new Result(true, dn, null);
        }

        static Result nobody(String failure) {
            return new Result(true, null, failure);
        }

        static Result of(EntryFinder.Match match) {
            return match.dn() != null ? found(match.dn()) : nobody(match.failure());
        }
    }
}
