package dev.larch.server.tls;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

/**
 * The client-side TLS context a replication consumer connects to its providers with: the provider's
 * certificate must chain to an authority of {@code tls.ca-certificates}, and its engines (made with the
 * provider's host and port) check the certificate's name against that host (RFC 6125, as HTTPS does);
 * and the same trust as JDK sockets, for the command line's JNDI reads ({@code ./larch replication
 * status}). Stateless and thread-safe.
 */
public final class ProviderTrust {
    private ProviderTrust() {}

    /**
     * A client context trusting the authorities in {@code caCertificates}.
     *
     * @throws TlsSetupException naming {@code tls.ca-certificates} when the file is missing, unreadable or
     *     holds no certificate, or the context cannot be built
     */
    public static SslContext context(Path caCertificates) {
        List<X509Certificate> authorities = PemFiles.certificates("tls.ca-certificates", caCertificates);
        try {
            return SslContextBuilder.forClient()
                    .trustManager(authorities)
                    .endpointIdentificationAlgorithm("HTTPS")
                    .build();
        } catch (SSLException e) {
            throw new TlsSetupException(
                    "tls.ca-certificates", caCertificates, "no client TLS context (" + PemFiles.oneLine(e) + ")");
        }
    }

    /**
     * JDK TLS sockets trusting only the authorities in {@code caCertificates} (the caller checks the
     * host name: JNDI does for LDAPS and StartTLS).
     *
     * @throws TlsSetupException naming {@code tls.ca-certificates} when the file is missing, unreadable or
     *     holds no certificate, or the sockets cannot be made
     */
    public static SSLSocketFactory sockets(Path caCertificates) {
        List<X509Certificate> authorities = PemFiles.certificates("tls.ca-certificates", caCertificates);
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            for (int i = 0; i < authorities.size(); i++) {
                trusted.setCertificateEntry("authority-" + i, authorities.get(i));
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context.getSocketFactory();
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsSetupException(
                    "tls.ca-certificates", caCertificates, "no client TLS sockets (" + PemFiles.oneLine(e) + ")");
        }
    }
}
