package dev.larch.server.auth.sasl;

import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;

/**
 * {@code kind = certificate}: the one entry under the suffix whose {@code userCertificate} holds the
 * presented certificate, DER byte for byte, read through the equality index on {@code userCertificate}.
 * Another certificate with the same subject, even from the same authority, names nobody. Applies to
 * every certificate.
 */
final class HeldCertificateRule implements CertificateRule {
    private final EntryFinder finder;

    HeldCertificateRule(EntryFinder finder) {
        this.finder = finder;
    }

    @Override
    public Result map(X509Certificate certificate) {
        byte[] der = der(certificate);
        return der == null ? Result.nobody("the certificate cannot be encoded") : Result.of(finder.byCertificate(der));
    }

    /** The certificate's DER encoding; null when it has none (never for one a TLS handshake verified). */
    static byte[] der(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (CertificateEncodingException e) {
            return null;
        }
    }
}
