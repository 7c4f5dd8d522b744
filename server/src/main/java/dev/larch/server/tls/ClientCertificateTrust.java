package dev.larch.server.tls;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CRL;
import java.security.cert.CertPathBuilder;
import java.security.cert.CertStore;
import java.security.cert.CertificateFactory;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.PKIXRevocationChecker;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.CertPathTrustManagerParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * Which client certificates a TLS handshake accepts: those issued by the configured authorities
 * ({@code tls.ca-certificates}) and, when revocation lists are configured ({@code tls.crl-files}),
 * not revoked by them. Revocation is decided from those files only: no CRL distribution point or
 * OCSP responder is asked over the network, and a certificate whose status the files do not decide
 * is refused. Stateless.
 */
final class ClientCertificateTrust {
    private ClientCertificateTrust() {}

    /**
     * A trust manager factory for {@code authorities} checking {@code crlFiles}.
     *
     * @throws TlsSetupException naming {@code tls.crl-files} and the file when a CRL cannot be read
     */
    static TrustManagerFactory of(List<X509Certificate> authorities, List<Path> crlFiles) {
        List<CRL> crls = new ArrayList<>();
        for (Path file : crlFiles) {
            crls.addAll(read(file));
        }
        Set<TrustAnchor> anchors = new HashSet<>();
        for (X509Certificate authority : authorities) {
            anchors.add(new TrustAnchor(authority, null));
        }
        try {
            PKIXBuilderParameters parameters = new PKIXBuilderParameters(anchors, new X509CertSelector());
            parameters.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(crls)));
            PKIXRevocationChecker revocation =
                    (PKIXRevocationChecker) CertPathBuilder.getInstance("PKIX").getRevocationChecker();
            // CRLs only, from the configured files: never a network fetch, never a fallback to OCSP.
            revocation.setOptions(
                    EnumSet.of(PKIXRevocationChecker.Option.PREFER_CRLS, PKIXRevocationChecker.Option.NO_FALLBACK));
            parameters.addCertPathChecker(revocation);
            parameters.setRevocationEnabled(true);
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(new CertPathTrustManagerParameters(parameters));
            return factory;
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException(
                    "tls.crl-files", crlFiles, "cannot check client certificates (" + PemFiles.oneLine(e) + ")");
        }
    }

    private static List<CRL> read(Path file) {
        byte[] bytes = PemFiles.read("tls.crl-files", file);
        try {
            List<CRL> crls = new ArrayList<>(
                    CertificateFactory.getInstance("X.509").generateCRLs(new ByteArrayInputStream(bytes)));
            if (crls.isEmpty()) {
                throw new TlsSetupException("tls.crl-files", file, "holds no certificate revocation list");
            }
            return crls;
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException(
                    "tls.crl-files", file, "is not a certificate revocation list (" + PemFiles.oneLine(e) + ")");
        }
    }
}
