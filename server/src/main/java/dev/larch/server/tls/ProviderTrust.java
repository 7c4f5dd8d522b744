package dev.larch.server.tls;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLException;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

/**
 * The client-side TLS context a replication consumer connects to its providers with: the provider's
 * certificate must chain to an authority of {@code tls.ca-certificates}, and its engines (made with the
 * provider's host and port) check the certificate's name against that host (RFC 6125, as HTTPS does).
 * Stateless and thread-safe.
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
}
