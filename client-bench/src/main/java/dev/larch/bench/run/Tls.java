package dev.larch.bench.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.X509TrustManager;

import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLSocketVerifier;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import com.unboundid.util.ssl.TrustStoreTrustManager;

/**
 * How connections are secured: not at all, LDAPS (TLS from the first byte) or StartTLS (RFC 4511
 * section 4.14, upgraded before the bind), and which server certificates are trusted. The SSL
 * context is built once, when the options are read, so a bad trust store fails before any load and
 * connections do not each pay for it. Immutable and thread-safe.
 */
public final class Tls {
    /** Where TLS starts. */
    public enum Mode {
        NONE,
        LDAPS,
        STARTTLS
    }

    /** Plain LDAP. */
    public static final Tls NONE = new Tls(Mode.NONE, null, false, null);

    private final Mode mode;
    private final Path trustStore;
    private final boolean trustAll;
    private final SSLContext context;

    private Tls(Mode mode, Path trustStore, boolean trustAll, SSLContext context) {
        this.mode = mode;
        this.trustStore = trustStore;
        this.trustAll = trustAll;
        this.context = context;
    }

    /**
     * TLS trusting the certificates in {@code trustStore} (PEM, JKS or PKCS#12), or every certificate
     * when {@code trustAll}.
     *
     * @param password the trust store's password, or null (a trust store needs none to read certificates)
     * @throws IllegalArgumentException naming the file and the problem when the trust store cannot be read
     */
    public static Tls of(Mode mode, Path trustStore, String password, boolean trustAll) {
        if (mode == Mode.NONE) {
            return NONE;
        }
        if (trustAll == (trustStore != null)) {
            throw new IllegalArgumentException("TLS needs exactly one of a trust store and trust-all");
        }
        X509TrustManager trust = trustAll ? new TrustAllTrustManager() : trustManager(trustStore, password);
        try {
            return new Tls(mode, trustStore, trustAll, new SSLUtil(trust).createSSLContext());
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot set up TLS: " + e.getMessage(), e);
        }
    }

    private static X509TrustManager trustManager(Path file, String password) {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("trust store not found or not readable: " + file);
        }
        try {
            if (isPem(file)) {
                return new PEMFileTrustManager(file.toFile());
            }
            // Loaded here only to check it and learn its type; the trust manager reads it itself.
            char[] pin = password == null ? null : password.toCharArray();
            KeyStore store = KeyStore.getInstance(file.toFile(), pin);
            if (store.size() == 0) {
                throw new IllegalArgumentException("trust store " + file + " holds no certificates");
            }
            return new TrustStoreTrustManager(file.toFile(), pin, store.getType(), true);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "cannot read trust store " + file + " (PEM, JKS or PKCS#12; wrong --trust-store-password?): "
                            + e.getMessage(),
                    e);
        }
    }

    private static boolean isPem(Path file) throws IOException {
        byte[] head = new byte[64];
        int n;
        try (var in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        return new String(head, 0, n, StandardCharsets.US_ASCII).contains("-----BEGIN");
    }

    public Mode mode() {
        return mode;
    }

    /** "none", "ldaps" or "starttls", as result.json records it. */
    public String label() {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    /** What is trusted, for messages: the trust store's path, or "any certificate (--trust-all)". */
    public String trustDescription() {
        return trustAll ? "any certificate (--trust-all)" : "the certificates in " + trustStore;
    }

    boolean trustAll() {
        return trustAll;
    }

    SSLContext context() {
        return context;
    }

    SSLSocketFactory socketFactory() {
        return context.getSocketFactory();
    }

    /**
     * Checks the server's name against its certificate (subject alternative names or CN), unless
     * every certificate is trusted anyway.
     */
    SSLSocketVerifier verifier() {
        return new HostNameSSLSocketVerifier(true);
    }
}
