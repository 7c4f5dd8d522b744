package dev.larch.e2e;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.RootDSE;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import dev.larch.server.tls.Certificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code security.min-ssf} and {@code security.allow-anonymous} as OpenLDAP's client tools meet them:
 * a server requiring strength 128 and authentication answers clear-text operations with
 * confidentialityRequired (13), an anonymous bind with inappropriateAuthentication (48), operations of
 * an unbound session over TLS with strongerAuthRequired (8), and still shows its root DSE to anyone.
 */
class ConnectionRequirementsIT {
    static final String ADMIN_PASSWORD = "requirements-admin";
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;

    static LarchProcess server;
    static Path caFile;
    static Certificates.Issued ca;

    @BeforeAll
    static void startAServerThatWantsTlsAndABind() throws Exception {
        RequiredTool.check(LdapUtils.installed(), "ldap-utils", "apt-get install -y ldap-utils");
        ca = Certificates.authority("CN=Requirements CA,O=Example", Duration.ofDays(2));
        Certificates.Issued serverCert =
                Certificates.server(InetAddress.getLocalHost().getHostName(), ca, Duration.ofDays(2));
        caFile = Files.writeString(dir.resolve("ca.pem"), ca.certificatePem());
        Files.writeString(dir.resolve("server.pem"), serverCert.certificatePem());
        Files.writeString(dir.resolve("server.key"), serverCert.privateKeyPem());
        Path config = Files.writeString(
                dir.resolve("larch.conf"),
                "tls.certificate = server.pem\n"
                        + "tls.private-key = server.key\n"
                        + "security.min-ssf = 128\n"
                        + "security.allow-anonymous = false\n"
                        + "server.warm-up-seconds = 0\n");
        server = LarchProcess.serve(dir.resolve("data"))
                .adminPassword(ADMIN_PASSWORD)
                .config(config)
                .start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            assertEquals(0, server.stop(), server.output());
        }
    }

    @Test
    void clearTextOperationsAreRefusedWithConfidentialityRequired() throws LDAPException {
        // Binding in clear from loopback is allowed (security.require-tls-for-binds); using it is not.
        ProcessResult admin = ldap(
                "ldapsearch",
                "-o",
                "ldif-wrap=no",
                "-x",
                "-D",
                TestData.ADMIN_DN,
                "-w",
                ADMIN_PASSWORD,
                "-b",
                TestData.SUFFIX,
                "-s",
                "base");
        assertEquals(13, admin.exitCode(), admin.describe());
        assertTrue((admin.out() + admin.err()).contains("security.min-ssf"), admin.describe());
        try (LDAPConnection unbound = new LDAPConnection("127.0.0.1", server.port())) {
            LDAPException e = assertThrows(LDAPException.class, () -> unbound.getEntry(TestData.SUFFIX));
            assertEquals(ResultCode.CONFIDENTIALITY_REQUIRED, e.getResultCode(), e.getMessage());
        }
    }

    /** As slapd with olcDisallows bind_anon: ldapsearch -x binds anonymously first, and that is refused. */
    @Test
    void anAnonymousBindIsRefusedInClearAndOverTls() {
        for (String tls : List.of("-x", "-ZZ")) {
            ProcessResult r = ldap("ldapsearch", "-x", tls, "-b", "", "-s", "base");
            assertEquals(48, r.exitCode(), r.describe());
            assertTrue(r.err().contains("anonymous binds are disabled"), r.describe());
        }
    }

    @Test
    void theRootDseIsReadableWithoutABindSoClientsLearnAboutStartTls() throws LDAPException {
        try (LDAPConnection unbound = new LDAPConnection("127.0.0.1", server.port())) {
            RootDSE root = unbound.getRootDSE();
            assertTrue(root.supportsExtendedOperation("1.3.6.1.4.1.1466.20037"), root.toLDIFString());
        }
    }

    @Test
    void overTlsAnUnboundSessionMustBindFirst() throws Exception {
        try (LDAPConnection unbound = new LDAPConnection("127.0.0.1", server.port())) {
            ExtendedResult started = unbound.processExtendedOperation(new StartTLSExtendedRequest(trustingTheCa()));
            assertEquals(ResultCode.SUCCESS, started.getResultCode(), started.toString());
            LDAPException e = assertThrows(LDAPException.class, () -> unbound.getEntry(TestData.SUFFIX));
            assertEquals(ResultCode.STRONG_AUTH_REQUIRED, e.getResultCode(), e.getMessage());
            assertTrue(e.getMessage().contains("authentication required"), e.getMessage());
        }
    }

    @Test
    void overTlsTheAdministratorIsServed() {
        ProcessResult r = ldap(
                "ldapsearch",
                "-x",
                "-ZZ",
                "-D",
                TestData.ADMIN_DN,
                "-w",
                ADMIN_PASSWORD,
                "-LLL",
                "-b",
                TestData.SUFFIX,
                "-s",
                "base",
                "dn");
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.out().contains("dn: " + TestData.SUFFIX), r.out());
    }

    private static SSLContext trustingTheCa() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ca.certificate());
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    private static ProcessResult ldap(String tool, String... args) {
        List<String> command = new ArrayList<>(List.of(tool, "-H", "ldap://127.0.0.1:" + server.port()));
        command.addAll(List.of(args));
        Map<String, String> env = new HashMap<>();
        env.put("LDAPTLS_CACERT", caFile.toString());
        env.put("LDAPTLS_REQCERT", "demand");
        return ProcessResult.run(command, env, null, TIMEOUT);
    }
}
