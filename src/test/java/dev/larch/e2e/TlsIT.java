package dev.larch.e2e;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.naming.Context;
import javax.naming.directory.Attributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import javax.naming.ldap.InitialLdapContext;
import javax.naming.ldap.LdapContext;
import javax.naming.ldap.StartTlsRequest;
import javax.naming.ldap.StartTlsResponse;
import javax.net.SocketFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import com.unboundid.ldif.LDIFException;
import dev.larch.server.tls.Certificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS end to end with the clients identity teams use: ldap-utils (GnuTLS) with StartTLS, LDAPS and
 * SASL EXTERNAL, OpenSSL's s_client, JNDI and the UnboundID SDK. One server with a certificate from a
 * test authority, LDAPS on a second port, client certificates requested; listening on every address so
 * that a non-loopback client can be tried for {@code security.require-tls-for-binds}.
 */
class TlsIT {
    static final String ADMIN_PASSWORD = "tls-admin-secret";
    static final String ALICE = "uid=alice,ou=people," + TestData.SUFFIX;
    static final String BOB = "uid=bob,ou=people," + TestData.SUFFIX;
    static final String ALICE_PASSWORD = "alice-secret";
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    static LarchProcess server;
    static int port;
    static int ldapsPort;
    static Path caFile;
    static SSLContext trustingTheCa;
    static Certificates.Issued ca;

    @BeforeAll
    static void startServerWithTls() throws Exception {
        RequiredTool.check(LdapUtils.installed(), "ldap-utils", "apt-get install -y ldap-utils");
        RequiredTool.check(RequiredTool.onPath("openssl"), "openssl", "apt-get install -y openssl");
        ca = Certificates.authority("CN=Larch Test CA,O=Example", Duration.ofDays(2));
        Certificates.Issued serverCert =
                Certificates.server(InetAddress.getLocalHost().getHostName(), ca, Duration.ofDays(2));
        caFile = write("ca.pem", ca.certificatePem());
        write("server.pem", serverCert.certificatePem());
        write("server.key", serverCert.privateKeyPem());
        // Alice's certificate names her by UID (the tls.certificate-mapping rule); Bob's subject is his DN.
        issueClient("alice", "CN=Alice Example,UID=alice,O=Example");
        issueClient("bob", BOB);
        issueClient("nobody", "CN=Nobody,UID=nobody,O=Example");
        trustingTheCa = sslContextTrusting(ca.certificate());
        port = freePortInOurRange(47150);
        ldapsPort = freePortInOurRange(port + 1);
        Path config = write(
                "larch.conf",
                "listen.host = 0.0.0.0\n"
                        + "listen.ldaps-port = " + ldapsPort + "\n"
                        + "tls.certificate = server.pem\n"
                        + "tls.private-key = server.key\n"
                        + "tls.ca-certificates = ca.pem\n"
                        // Alice's password is added as written; hashing on add is another part of issue 9.
                        + "security.allow-cleartext-passwords = true\n"
                        + "server.warm-up-seconds = 0\n");
        server = LarchProcess.serve(dir.resolve("data"))
                .adminPassword(ADMIN_PASSWORD)
                .config(config)
                .port(port)
                .start();
        try (LDAPConnection admin = new LDAPConnection("127.0.0.1", port, TestData.ADMIN_DN, ADMIN_PASSWORD)) {
            addLdif(admin, TestData.PEOPLE_LDIF);
            addLdif(
                    admin,
                    TestData.person("alice", "ou=people," + TestData.SUFFIX) + "userPassword: " + ALICE_PASSWORD
                            + "\n");
            addLdif(admin, TestData.person("bob", "ou=people," + TestData.SUFFIX));
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            assertEquals(0, server.stop(), server.output());
        }
    }

    @Test
    void ldapsearchWithStartTlsSeesTheMechanismsTheServerOffers() {
        ProcessResult r = ldap(
                Map.of(),
                "ldapsearch",
                "-x",
                "-ZZ",
                "-H",
                plainUrl(),
                "-LLL",
                "-b",
                "",
                "-s",
                "base",
                "supportedSASLMechanisms",
                "supportedExtension");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("supportedSASLMechanisms: EXTERNAL"), r.out());
        assertTrue(r.out().contains("supportedSASLMechanisms: PLAIN"), r.out());
        assertTrue(r.out().contains("supportedExtension: 1.3.6.1.4.1.1466.20037"), r.out());
    }

    @Test
    void ldapsearchOverLdapsBindsAsAlice() {
        ProcessResult r = ldap(
                Map.of(),
                "ldapsearch",
                "-x",
                "-H",
                ldapsUrl(),
                "-D",
                ALICE,
                "-w",
                ALICE_PASSWORD,
                "-LLL",
                "-b",
                TestData.SUFFIX,
                "(uid=alice)",
                "mail");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("mail: alice@example.com"), r.out());
    }

    @Test
    void ldapwhoamiWithSaslExternalMapsTheCertificateByUid() {
        ProcessResult r = ldap(clientCertificate("alice"), "ldapwhoami", "-Y", "EXTERNAL", "-H", ldapsUrl());
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals("dn:" + ALICE, r.out().strip().lines().reduce((a, b) -> b).orElse(""));
    }

    @Test
    void ldapwhoamiWithSaslExternalOverStartTlsMapsASubjectThatIsTheEntryDn() {
        ProcessResult r = ldap(clientCertificate("bob"), "ldapwhoami", "-ZZ", "-Y", "EXTERNAL", "-H", plainUrl());
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals("dn:" + BOB, r.out().strip().lines().reduce((a, b) -> b).orElse(""));
    }

    @Test
    void saslExternalWithACertificateNamingNoEntryIsInvalidCredentials() {
        ProcessResult r = ldap(clientCertificate("nobody"), "ldapwhoami", "-Y", "EXTERNAL", "-H", ldapsUrl());
        assertEquals(49, r.exitCode(), r.describe());
    }

    @Test
    void opensslStartTlsNegotiatesTls13AndRefusesTls11() {
        ProcessResult ok = openssl("-starttls", "ldap", "-connect", "127.0.0.1:" + port, "-CAfile", caFile.toString());
        assertEquals(0, ok.exitCode(), ok.describe());
        assertTrue(ok.out().contains("Verify return code: 0 (ok)"), ok.out());
        assertTrue(ok.out().contains("TLSv1.3"), ok.out());
        ProcessResult old = openssl("-starttls", "ldap", "-connect", "127.0.0.1:" + port, "-tls1_1");
        assertNotEquals(0, old.exitCode(), old.describe());
        ProcessResult weak = openssl("-connect", "127.0.0.1:" + ldapsPort, "-tls1_2", "-cipher", "AES128-SHA");
        assertNotEquals(0, weak.exitCode(), weak.describe());
    }

    @Test
    void accessLogShowsProtocolAndSuiteOfEachTlsConnection() {
        ProcessResult r = ldap(Map.of(), "ldapsearch", "-x", "-H", ldapsUrl(), "-b", "", "-s", "base", "1.1");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(
                server.stdoutLines().stream()
                        .anyMatch(line -> line.matches(".*conn=\\d+ TLS protocol=TLSv1\\.[23] cipher=TLS_\\w+.*")),
                server.output());
    }

    @Test
    void jndiOverLdapsAndStartTls() throws Exception {
        Hashtable<String, Object> env = jndiEnv(ldapsUrl());
        env.put(Context.SECURITY_PRINCIPAL, ALICE);
        env.put(Context.SECURITY_CREDENTIALS, ALICE_PASSWORD);
        env.put("java.naming.ldap.factory.socket", TestCaSocketFactory.class.getName());
        TestCaSocketFactory.context = trustingTheCa;
        DirContext ldaps = new InitialDirContext(env);
        Attributes alice = ldaps.getAttributes(ALICE, new String[] {"mail"});
        assertEquals("alice@example.com", alice.get("mail").get());
        ldaps.close();

        LdapContext plain = new InitialLdapContext(jndiEnv(plainUrl()), null);
        StartTlsResponse tls = (StartTlsResponse) plain.extendedOperation(new StartTlsRequest());
        SSLSession session = tls.negotiate(trustingTheCa.getSocketFactory());
        assertTrue(session.getProtocol().startsWith("TLSv1."), session.getProtocol());
        plain.addToEnvironment(Context.SECURITY_AUTHENTICATION, "simple");
        plain.addToEnvironment(Context.SECURITY_PRINCIPAL, ALICE);
        plain.addToEnvironment(Context.SECURITY_CREDENTIALS, ALICE_PASSWORD);
        plain.reconnect(null);
        assertEquals(
                "alice@example.com",
                plain.getAttributes(ALICE, new String[] {"mail"}).get("mail").get());
        tls.close();
        plain.close();
    }

    @Test
    void unboundIdStartTlsThenSaslPlainByUserId() throws LDAPException {
        try (LDAPConnection connection = new LDAPConnection("127.0.0.1", port)) {
            ExtendedResult started = connection.processExtendedOperation(new StartTLSExtendedRequest(trustingTheCa));
            assertEquals(ResultCode.SUCCESS, started.getResultCode());
            BindResult bound = connection.bind(new PLAINBindRequest("u:alice", ALICE_PASSWORD));
            assertEquals(ResultCode.SUCCESS, bound.getResultCode());
            WhoAmIExtendedResult who =
                    (WhoAmIExtendedResult) connection.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals("dn:" + ALICE, who.getAuthorizationID());
            LDAPException wrong = assertThrows(
                    LDAPException.class,
                    () -> connection.bind(new PLAINBindRequest("dn:" + ALICE, "not-her-password")));
            assertEquals(ResultCode.INVALID_CREDENTIALS, wrong.getResultCode());
            LDAPException proxy = assertThrows(
                    LDAPException.class,
                    () -> connection.bind(new PLAINBindRequest("u:alice", "u:bob", ALICE_PASSWORD)));
            assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, proxy.getResultCode());
        }
    }

    @Test
    void saslPlainOnAClearConnectionIsConfidentialityRequired() throws LDAPException {
        try (LDAPConnection connection = new LDAPConnection("127.0.0.1", port)) {
            LDAPException e = assertThrows(
                    LDAPException.class, () -> connection.bind(new PLAINBindRequest("u:alice", ALICE_PASSWORD)));
            assertEquals(ResultCode.CONFIDENTIALITY_REQUIRED, e.getResultCode());
            assertTrue(e.getDiagnosticMessage().contains("TLS"), e.getDiagnosticMessage());
        }
    }

    @Test
    void secondStartTlsAndStartTlsOverLdapsAreOperationsErrors() throws Exception {
        try (LDAPConnection connection = new LDAPConnection("127.0.0.1", port)) {
            assertEquals(
                    ResultCode.SUCCESS,
                    connection
                            .processExtendedOperation(new StartTLSExtendedRequest(trustingTheCa))
                            .getResultCode());
            LDAPException again = assertThrows(
                    LDAPException.class,
                    () -> connection.processExtendedOperation(new StartTLSExtendedRequest(trustingTheCa)));
            assertEquals(ResultCode.OPERATIONS_ERROR, again.getResultCode());
            assertTrue(again.getDiagnosticMessage().contains("already"), again.getDiagnosticMessage());
        }
        try (LDAPConnection ldaps = new LDAPConnection(trustingTheCa.getSocketFactory(), "127.0.0.1", ldapsPort)) {
            LDAPException overLdaps = assertThrows(
                    LDAPException.class,
                    () -> ldaps.processExtendedOperation(new StartTLSExtendedRequest(trustingTheCa)));
            assertEquals(ResultCode.OPERATIONS_ERROR, overLdaps.getResultCode());
            // The connection still works under its TLS.
            assertEquals(ResultCode.SUCCESS, ldaps.bind(ALICE, ALICE_PASSWORD).getResultCode());
        }
    }

    @Test
    void passwordBindFromAnotherHostNeedsTls() throws Exception {
        InetAddress remote = nonLoopbackAddress();
        assumeTrue(remote != null, "this machine has no non-loopback IPv4 address");
        try (LDAPConnection clear = new LDAPConnection(remote.getHostAddress(), port)) {
            LDAPException e =
                    assertThrows(LDAPException.class, () -> clear.bind(new SimpleBindRequest(ALICE, ALICE_PASSWORD)));
            assertEquals(ResultCode.CONFIDENTIALITY_REQUIRED, e.getResultCode());
            assertTrue(e.getDiagnosticMessage().contains("security.require-tls-for-binds"), e.getDiagnosticMessage());
            assertEquals(
                    ResultCode.SUCCESS,
                    clear.processExtendedOperation(new StartTLSExtendedRequest(trustingTheCa))
                            .getResultCode());
            assertEquals(ResultCode.SUCCESS, clear.bind(ALICE, ALICE_PASSWORD).getResultCode());
        }
        // Loopback is exempt, so the embedded default keeps working on 127.0.0.1.
        try (LDAPConnection local = new LDAPConnection("127.0.0.1", port)) {
            assertEquals(ResultCode.SUCCESS, local.bind(ALICE, ALICE_PASSWORD).getResultCode());
        }
    }

    @Test
    void certCommandWritesAPrivateKeyOnlyItsOwnerCanRead() throws IOException {
        Path out = dir.resolve("cert-out");
        ProcessResult r = LarchProcess.run("cert", "--host", "ldap.example.test", "--out", out.toString());
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(
                Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                Files.getPosixFilePermissions(out.resolve("key.pem")));
        ProcessResult text = ProcessResult.run(
                List.of(
                        "openssl",
                        "x509",
                        "-in",
                        out.resolve("cert.pem").toString(),
                        "-noout",
                        "-ext",
                        "subjectAltName"),
                Map.of(),
                null,
                TIMEOUT);
        assertTrue(text.out().contains("DNS:ldap.example.test"), text.describe());
        assertTrue(text.out().contains("IP Address:127.0.0.1"), text.describe());
        ProcessResult again = LarchProcess.run("cert", "--host", "ldap.example.test", "--out", out.toString());
        assertEquals(1, again.exitCode(), again.describe());
    }

    @Test
    void aMissingCertificateFileStopsTheServerWithOneLineNamingKeyAndFile() throws IOException {
        Path config = write("broken.conf", "tls.certificate = missing.pem\ntls.private-key = server.key\n");
        ProcessResult r = LarchProcess.run(
                Map.of("LARCH_ADMIN_PASSWORD", "x"),
                "serve",
                "--config",
                config.toString(),
                "--data",
                dir.resolve("broken-data").toString(),
                "--port",
                "0");
        assertEquals(1, r.exitCode(), r.describe());
        List<String> lines =
                r.err().strip().lines().filter(l -> l.startsWith("larch:")).toList();
        assertEquals(
                List.of("larch: tls.certificate = " + dir.resolve("missing.pem") + ": no such file"),
                lines,
                r.describe());
        assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.describe());
    }

    // ---- helpers -------------------------------------------------------------------------------

    static String plainUrl() {
        return "ldap://127.0.0.1:" + port;
    }

    static String ldapsUrl() {
        return "ldaps://127.0.0.1:" + ldapsPort;
    }

    /** ldap-utils trusting the test authority; without LDAPNOINIT, which would make them ignore LDAPTLS_*. */
    static ProcessResult ldap(Map<String, String> extraEnv, String... command) {
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("LDAPTLS_CACERT", caFile.toString());
        env.put("LDAPTLS_REQCERT", "demand");
        return ProcessResult.run(List.of(command), env, null, TIMEOUT);
    }

    static Map<String, String> clientCertificate(String name) {
        return Map.of(
                "LDAPTLS_CERT", dir.resolve(name + ".pem").toString(),
                "LDAPTLS_KEY", dir.resolve(name + ".key").toString());
    }

    static ProcessResult openssl(String... args) {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client"));
        command.addAll(List.of(args));
        // s_client reads stdin until EOF; the harness gives it none, so it ends after the handshake.
        return ProcessResult.run(command, Map.of(), null, TIMEOUT);
    }

    static Hashtable<String, Object> jndiEnv(String url) {
        @SuppressWarnings("JdkObsolete") // JNDI takes a Hashtable
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, url);
        env.put("com.sun.jndi.ldap.connect.timeout", "10000");
        env.put("com.sun.jndi.ldap.read.timeout", "30000");
        return env;
    }

    static void issueClient(String name, String subject) throws IOException {
        Certificates.Issued client = Certificates.client(subject, ca, Duration.ofDays(2));
        write(name + ".pem", client.certificatePem());
        Path key = write(name + ".key", client.privateKeyPem());
        Files.setPosixFilePermissions(key, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    }

    static Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    static SSLContext sslContextTrusting(X509Certificate authority) throws GeneralSecurityException, IOException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", authority);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    static void addLdif(LDAPConnection connection, String ldif) throws LDAPException, LDIFException {
        for (String record : ldif.strip().split("\n\n")) {
            connection.add(record.strip().split("\n"));
        }
    }

    /** The first port from {@code from} up to 47199 that nobody listens on, on any address. */
    static int freePortInOurRange(int from) throws IOException {
        for (int candidate = from; candidate < 47_200; candidate++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(candidate));
                return candidate;
            } catch (IOException busy) {
                // taken: try the next one
            }
        }
        throw new IOException("no free port in " + from + "..47199");
    }

    static InetAddress nonLoopbackAddress() throws SocketException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                    return address;
                }
            }
        }
        return null;
    }

    /** What JNDI's {@code java.naming.ldap.factory.socket} names: sockets trusting the test authority. */
    public static final class TestCaSocketFactory extends SSLSocketFactory {
        static volatile SSLContext context;

        private final SSLSocketFactory delegate = context.getSocketFactory();

        public static SocketFactory getDefault() {
            return new TestCaSocketFactory();
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return delegate.getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return delegate.getSupportedCipherSuites();
        }

        @Override
        public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
            return delegate.createSocket(s, host, port, autoClose);
        }

        @Override
        public Socket createSocket() throws IOException {
            return delegate.createSocket();
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return delegate.createSocket(host, port);
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
            return delegate.createSocket(host, port, local, localPort);
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return delegate.createSocket(host, port);
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress local, int localPort) throws IOException {
            return delegate.createSocket(address, port, local, localPort);
        }
    }
}
