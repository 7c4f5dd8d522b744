package dev.larch.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * TLS and the transport rules that depend on it ({@code tls.*}, {@code listen.ldaps-port},
 * {@code security.require-tls-for-binds}).
 *
 * <p>TLS is configured when either a PEM certificate and key or a PKCS#12 keystore is given; the files
 * are read when the server starts, not here.
 *
 * @param certificate PEM certificate chain, the server's own certificate first; null when not set
 * @param privateKey PEM private key (PKCS#8, or PKCS#1 RSA/SEC1 EC as OpenSSL writes them) of
 *     {@code certificate}; null when not set; set together with {@code certificate}
 * @param caCertificates PEM bundle of the authorities whose client certificates are accepted; null
 *     when the server does not ask for client certificates (then SASL EXTERNAL is not offered)
 * @param keystore PKCS#12 keystore holding one key and its chain, instead of the two PEM files; null
 *     when not set
 * @param keystorePassword the keystore's password; empty when it has none; never null
 * @param ldapsPort port of the LDAPS listener (TLS from the first byte); 0 means no LDAPS listener
 * @param requireTlsForBinds refuse simple binds carrying a password on clear connections from
 *     anything but a loopback address (confidentialityRequired)
 * @param handshakeTimeoutSeconds how long a TLS handshake may take before the connection closes
 * @param certificateMapping the attribute that SASL EXTERNAL looks up (by equality, under the suffix)
 *     with the certificate subject's UID or else CN value, when no entry has the subject DN itself;
 *     {@link #NO_MAPPING} turns the lookup off
 * @param requireClientCertificate whether a TLS client must present a certificate from
 *     {@code caCertificates} ({@code tls.require-client-certificate}); false asks without requiring
 * @param crlFiles revocation lists of the authorities in {@code caCertificates} ({@code tls.crl-files});
 *     empty for no revocation checking
 * @param certificateMappings the SASL EXTERNAL mapping rules ({@code tls.certificate-mapping.<N>.*}) in
 *     the order they are tried; empty for the built-in mapping by subject DN, then by {@code
 *     certificateMapping}
 */
public record Tls(
        Path certificate,
        Path privateKey,
        Path caCertificates,
        Path keystore,
        String keystorePassword,
        int ldapsPort,
        boolean requireTlsForBinds,
        int handshakeTimeoutSeconds,
        String certificateMapping,
        boolean requireClientCertificate,
        List<Path> crlFiles,
        List<CertificateMappingRule> certificateMappings) {

    /** {@code tls.certificate-mapping} value that maps only by the subject DN itself. */
    public static final String NO_MAPPING = "none";

    public Tls {
        Objects.requireNonNull(keystorePassword, "keystorePassword");
        Objects.requireNonNull(certificateMapping, "certificateMapping");
        crlFiles = List.copyOf(crlFiles);
        certificateMappings = List.copyOf(certificateMappings);
        if ((requireClientCertificate || !crlFiles.isEmpty()) && caCertificates == null) {
            throw new IllegalArgumentException("requiring client certificates or checking CRLs needs caCertificates");
        }
        if ((certificate == null) != (privateKey == null)) {
            throw new IllegalArgumentException("certificate and privateKey are set together");
        }
        if (certificate != null && keystore != null) {
            throw new IllegalArgumentException("either PEM files or a keystore, not both");
        }
        if (ldapsPort < 0 || ldapsPort > 65_535) {
            throw new IllegalArgumentException("ldapsPort must be 0..65535");
        }
        if (ldapsPort != 0 && certificate == null && keystore == null) {
            throw new IllegalArgumentException("an LDAPS port needs a certificate or a keystore");
        }
        if (handshakeTimeoutSeconds < 1) {
            throw new IllegalArgumentException("handshakeTimeoutSeconds must be at least 1");
        }
    }

    /** Whether the server has a certificate: StartTLS is offered and LDAPS may listen. */
    public boolean configured() {
        return certificate != null || keystore != null;
    }

    /** Whether the server asks TLS clients for a certificate (and so offers SASL EXTERNAL). */
    public boolean requestsClientCertificates() {
        return configured() && caCertificates != null;
    }

    /** Whether SASL EXTERNAL may look an entry up by attribute after the subject DN found none. */
    public boolean mapsByAttribute() {
        return !NO_MAPPING.equals(certificateMapping.toLowerCase(Locale.ROOT));
    }

    /** Keeps the keystore password out of logs and exception messages. */
    @Override
    public String toString() {
        return "Tls[certificate=" + certificate + ", privateKey=" + privateKey + ", caCertificates=" + caCertificates
                + ", keystore=" + keystore + ", keystorePassword=" + (keystorePassword.isEmpty() ? "" : "(set)")
                + ", ldapsPort=" + ldapsPort + ", requireTlsForBinds=" + requireTlsForBinds
                + ", handshakeTimeoutSeconds=" + handshakeTimeoutSeconds
                + ", certificateMapping=" + certificateMapping
                + ", requireClientCertificate=" + requireClientCertificate + ", crlFiles=" + crlFiles
                + ", certificateMappings=" + certificateMappings + "]";
    }
}
