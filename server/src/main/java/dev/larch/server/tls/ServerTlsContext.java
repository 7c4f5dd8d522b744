package dev.larch.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.net.ssl.TrustManagerFactory;

import dev.larch.config.Tls;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;

/**
 * The server's TLS context, built once at start from the {@link Tls} settings: the key and chain
 * (PEM pair or PKCS#12), the client-certificate authorities if any (asked for or required, checked
 * against the configured revocation lists), TLS 1.2 and 1.3 only, forward
 * secret AEAD suites only, no renegotiation. BoringSSL (netty-tcnative) when it loads, the JDK
 * otherwise. Immutable and thread-safe; one context serves every connection.
 */
public final class ServerTlsContext {
    public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    /**
     * TLS 1.3's AEAD suites, then TLS 1.2's ECDHE suites with AES-GCM or ChaCha20-Poly1305: no RSA key
     * exchange, no CBC, no SHA-1 MACs, nothing export-grade or anonymous.
     */
    static final List<String> CIPHER_SUITES = List.of(
            "TLS_AES_256_GCM_SHA384",
            "TLS_AES_128_GCM_SHA256",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    private final SslContext context;
    private final String provider;

    private ServerTlsContext(SslContext context, String provider) {
        this.context = context;
        this.provider = provider;
    }

    /**
     * Reads the configured files and builds the context.
     *
     * @throws TlsSetupException naming the key and the file when a file is missing, unreadable or wrong
     * @throws IllegalArgumentException when TLS is not configured
     */
    public static ServerTlsContext load(Tls config) {
        if (!config.configured()) {
            throw new IllegalArgumentException("TLS is not configured");
        }
        // The JDK provider would otherwise accept a client's renegotiation of TLS 1.2; BoringSSL never does.
        System.setProperty("jdk.tls.rejectClientInitiatedRenegotiation", "true");
        KeyAndChain identity = config.keystore() != null
                ? fromKeystore(config.keystore(), config.keystorePassword())
                : fromPem(config.certificate(), config.privateKey());
        List<X509Certificate> authorities = config.caCertificates() == null
                ? List.of()
                : PemFiles.certificates("tls.ca-certificates", config.caCertificates());
        TrustManagerFactory revocationChecking =
                authorities.isEmpty() || config.crlFiles().isEmpty()
                        ? null
                        : ClientCertificateTrust.of(authorities, config.crlFiles());
        boolean boringSsl = OpenSsl.isAvailable();
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(
                            identity.key(), identity.chain().toArray(X509Certificate[]::new))
                    .sslProvider(boringSsl ? SslProvider.OPENSSL : SslProvider.JDK)
                    .protocols(PROTOCOLS)
                    .ciphers(CIPHER_SUITES, SupportedCipherSuiteFilter.INSTANCE);
            if (!authorities.isEmpty()) {
                if (revocationChecking == null) {
                    builder.trustManager(authorities.toArray(X509Certificate[]::new));
                } else {
                    builder.trustManager(revocationChecking);
                }
                builder.clientAuth(config.requireClientCertificate() ? ClientAuth.REQUIRE : ClientAuth.OPTIONAL);
            }
            String provider = boringSsl
                    ? "BoringSSL (" + OpenSsl.versionString() + ", netty-tcnative)"
                    : "JDK " + System.getProperty("java.version");
            return new ServerTlsContext(builder.build(), provider);
        } catch (IOException | RuntimeException e) {
            String key = config.keystore() != null ? "tls.keystore" : "tls.certificate";
            Path file = config.keystore() != null ? config.keystore() : config.certificate();
            throw new TlsSetupException(key, file, "cannot be used for TLS (" + PemFiles.oneLine(e) + ")");
        }
    }

    public SslContext context() {
        return context;
    }

    /** Which TLS implementation serves connections, for the start-up summary. */
    public String provider() {
        return provider;
    }

    private record KeyAndChain(PrivateKey key, List<X509Certificate> chain) {}

    private static KeyAndChain fromPem(Path certificateFile, Path keyFile) {
        List<X509Certificate> chain = PemFiles.certificates("tls.certificate", certificateFile);
        PrivateKey key = PemFiles.privateKey("tls.private-key", keyFile);
        if (!belongTogether(key, chain.get(0))) {
            throw new TlsSetupException(
                    "tls.private-key", keyFile, "is not the key of the certificate in " + certificateFile);
        }
        return new KeyAndChain(key, chain);
    }

    private static KeyAndChain fromKeystore(Path file, String password) {
        byte[] bytes = PemFiles.read("tls.keystore", file);
        char[] secret = password.toCharArray();
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(new ByteArrayInputStream(bytes), secret);
            for (String alias : Collections.list(store.aliases())) {
                if (!store.isKeyEntry(alias)) {
                    continue;
                }
                Key key = store.getKey(alias, secret);
                Certificate[] chain = store.getCertificateChain(alias);
                if (key instanceof PrivateKey privateKey && chain != null && chain.length > 0) {
                    List<X509Certificate> certificates = new ArrayList<>();
                    for (Certificate certificate : chain) {
                        certificates.add((X509Certificate) certificate);
                    }
                    return new KeyAndChain(privateKey, certificates);
                }
            }
            throw new TlsSetupException("tls.keystore", file, "holds no private key with a certificate chain");
        } catch (IOException e) {
            throw new TlsSetupException(
                    "tls.keystore",
                    file,
                    "cannot open it as PKCS#12 (wrong tls.keystore-password, or not a PKCS#12 file)");
        } catch (GeneralSecurityException e) {
            throw new TlsSetupException("tls.keystore", file, "cannot read its key (" + PemFiles.oneLine(e) + ")");
        }
    }

    /** Signs a probe with the key and verifies it with the certificate's public key. */
    private static boolean belongTogether(PrivateKey key, X509Certificate certificate) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null) {
            return true; // an unusual key type: the TLS library will say if it does not fit
        }
        try {
            byte[] probe = "larch key check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
