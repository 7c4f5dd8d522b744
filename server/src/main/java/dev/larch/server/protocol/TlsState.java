package dev.larch.server.protocol;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * The TLS layer of a connection once its handshake completed.
 *
 * @param protocol the negotiated protocol, for example {@code TLSv1.3}
 * @param cipherSuite the negotiated suite, for example {@code TLS_AES_256_GCM_SHA384}
 * @param clientCertificates the client's verified chain, its own certificate first; empty when the
 *     client sent none (or the server asked for none); unmodifiable
 */
public record TlsState(String protocol, String cipherSuite, List<X509Certificate> clientCertificates) {
    public TlsState {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(cipherSuite, "cipherSuite");
        clientCertificates = List.copyOf(clientCertificates);
    }

    /**
     * The key size in bits of the bulk cipher (the security strength factor of RFC 4422 that ACI
     * {@code ssf} compares); 0 for a suite not recognised. Only AES-GCM and ChaCha20 are offered.
     */
    public int keyBits() {
        if (cipherSuite.contains("AES_256") || cipherSuite.contains("CHACHA20")) {
            return 256;
        }
        if (cipherSuite.contains("AES_128")) {
            return 128;
        }
        return 0;
    }

    /** The client's own certificate, or null when it presented none. */
    public X509Certificate clientCertificate() {
        return clientCertificates.isEmpty() ? null : clientCertificates.get(0);
    }
}
