package dev.larch.bench.cli;

import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.listener.SelfSignedCertificateGenerator;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedSearchRequest;
import com.unboundid.ldap.listener.interceptor.InMemoryOperationInterceptor;
import com.unboundid.util.ssl.KeyStoreKeyManager;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;

/**
 * An in-memory server for the load-model tests: plain, LDAPS or StartTLS with a self-signed
 * certificate made for the test, and able to slow down: a fixed delay per search, one search at a
 * time server-wide (a server of fixed capacity), or a stall window every second.
 */
final class LoadTestServer implements AutoCloseable {
    static final String PIN = "changeit";

    /** How the server slows down. */
    record Behaviour(long delayMillis, boolean oneAtATime, long stallMillisPerSecond) {
        static final Behaviour FAST = new Behaviour(0, false, 0);
    }

    /** Plain LDAP, LDAPS, or LDAP offering StartTLS. */
    enum Listener {
        PLAIN,
        LDAPS,
        STARTTLS
    }

    private final InMemoryDirectoryServer server;
    private final ReentrantLock oneAtATime = new ReentrantLock(true);
    private final long startNanos = System.nanoTime();
    private final AtomicLong searches = new AtomicLong();
    private final CountingSslSocketFactory startTls; // null without TLS
    final Path keyStore;

    LoadTestServer(Path ldif, Path dir, Listener listener, Behaviour behaviour) throws Exception {
        InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig("dc=example,dc=com");
        // Indexed like a real server, so the test measures the harness rather than the in-memory scan.
        config.setEqualityIndexAttributes("mail", "cn", "uid", "sn", "givenName");
        InetAddress loopback = InetAddress.getLoopbackAddress();
        keyStore = dir.resolve("server-" + listener + "-" + System.nanoTime() + ".p12");
        if (listener == Listener.PLAIN) {
            startTls = null;
            config.setListenerConfigs(InMemoryListenerConfig.createLDAPConfig("ldap", loopback, 0, null));
        } else {
            SelfSignedCertificateGenerator.generateSelfSignedCertificate(
                    "load-test", keyStore.toFile(), PIN, "PKCS12", "server");
            SSLUtil ssl = new SSLUtil(
                    new KeyStoreKeyManager(keyStore.toFile(), PIN.toCharArray(), "PKCS12", "server"),
                    new TrustAllTrustManager());
            startTls = new CountingSslSocketFactory(ssl.createSSLSocketFactory());
            config.setListenerConfigs(
                    listener == Listener.LDAPS
                            ? InMemoryListenerConfig.createLDAPSConfig(
                                    "ldaps", loopback, 0, ssl.createSSLServerSocketFactory(), null)
                            : InMemoryListenerConfig.createLDAPConfig("ldap", loopback, 0, startTls));
        }
        config.setPasswordEncoders(null, new SshaPasswords()); // the data's {SSHA} passwords, for binds
        config.addInMemoryOperationInterceptor(new InMemoryOperationInterceptor() {
            @Override
            public void processSearchRequest(InMemoryInterceptedSearchRequest request) {
                searches.incrementAndGet();
                slowDown(behaviour);
            }
        });
        server = new InMemoryDirectoryServer(config);
        server.importFromLDIF(true, ldif.toFile());
        server.startListening();
    }

    private void slowDown(Behaviour b) {
        try {
            if (b.stallMillisPerSecond() > 0) {
                long inSecond = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos) % 1000;
                if (inSecond < b.stallMillisPerSecond()) {
                    Thread.sleep(b.stallMillisPerSecond() - inSecond);
                }
            }
            if (b.oneAtATime()) {
                oneAtATime.lock();
                try {
                    Thread.sleep(b.delayMillis());
                } finally {
                    oneAtATime.unlock();
                }
            } else if (b.delayMillis() > 0) {
                Thread.sleep(b.delayMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    int port() {
        return server.getListenPort();
    }

    long searches() {
        return searches.get();
    }

    /** Connections secured: for a StartTLS listener, one per successful StartTLS. */
    long startTlsRequests() {
        return startTls == null ? 0 : startTls.secured();
    }

    /** The server's certificate as a PEM file, for {@code --trust-store}. */
    Path certificatePem(Path file) throws Exception {
        Certificate cert = certificate();
        String pem = "-----BEGIN CERTIFICATE-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(cert.getEncoded())
                + "\n-----END CERTIFICATE-----\n";
        Files.writeString(file, pem, StandardCharsets.US_ASCII);
        return file;
    }

    /** The server's certificate in a PKCS#12 trust store with password {@link #PIN}. */
    Path certificateStore(Path file) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate());
        try (OutputStream out = Files.newOutputStream(file)) {
            trust.store(out, PIN.toCharArray());
        }
        return file;
    }

    private Certificate certificate() throws Exception {
        return KeyStore.getInstance(keyStore.toFile(), PIN.toCharArray()).getCertificate("server");
    }

    @Override
    public void close() {
        server.shutDown(true);
    }
}
