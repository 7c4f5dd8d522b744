package dev.larch.server.auth.sasl;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import com.unboundid.ldap.sdk.EXTERNALBindRequest;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import dev.larch.config.ConfigException;
import dev.larch.config.LarchConfig;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import dev.larch.server.tls.Certificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code tls.certificate-mapping.<N>.*} rules as a client with a certificate from a trusted authority
 * meets them over StartTLS and SASL EXTERNAL: a rule scoped to one issuer ignores the others' certificates,
 * a subject pattern names the entry through a DN or filter template, the certificate rule finds only the
 * entry holding the very certificate, and anything but exactly one entry is invalidCredentials.
 */
class CertificateMappingRulesIT {
    private static final Path DIR = directory();
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final String ALICE = "uid=alice," + PEOPLE;
    private static final String BOB = "uid=bob," + PEOPLE;
    private static final String CAROL = "uid=carol," + PEOPLE;

    private static final Certificates.Issued STAFF_CA = authority("CN=Staff CA,O=Example");
    private static final Certificates.Issued PARTNER_CA = authority("CN=Partner CA,O=Other");

    private static final Certificates.Issued ALICE_BY_STAFF = client("UID=alice,OU=Staff,O=Example", STAFF_CA);
    /** Same subject and issuer as {@link #ALICE_BY_STAFF}, another key: a certificate Alice does not hold. */
    private static final Certificates.Issued ALICE_TWIN = client("UID=alice,OU=Staff,O=Example", STAFF_CA);

    private static final Certificates.Issued ALICE_BY_PARTNER = client("UID=alice,O=Other", PARTNER_CA);
    private static final Certificates.Issued CN_ALICE = client("CN=alice,OU=Staff,O=Example", STAFF_CA);
    private static final Certificates.Issued CN_BOB = client("CN=bob,OU=Staff,O=Example", STAFF_CA);
    private static final Certificates.Issued CN_NOBODY = client("CN=nobody,OU=Staff,O=Example", STAFF_CA);
    private static final Certificates.Issued CONTRACTOR_ALICE =
            client("CN=Alice Example,OU=Contractors,O=Example", STAFF_CA);
    private static final Certificates.Issued CONTRACTOR_PAT = client("CN=Pat Smith,OU=Contractors,O=Example", STAFF_CA);
    private static final Certificates.Issued CONTRACTOR_STAR = client("CN=*,OU=Contractors,O=Example", STAFF_CA);
    private static final Certificates.Issued ELSEWHERE = client("CN=alice,OU=Elsewhere,O=Example", STAFF_CA);
    /** Held by both Pat entries. */
    private static final Certificates.Issued SHARED = client("CN=Shared,OU=Staff,O=Example", STAFF_CA);

    private static final Certificates.Issued CAROL_BY_PARTNER = client("UID=carol,O=Other", PARTNER_CA);
    private static final Certificates.Issued CAROL_TWIN = client("UID=carol,O=Other", PARTNER_CA);

    private static final String PEOPLE_LDIF = person("alice", "Alice Example", ALICE_BY_STAFF)
            + person("bob", "Bob Example", null)
            + person("carol", "Carol Partner", CAROL_BY_PARTNER)
            + person("pat1", "Pat Smith", SHARED)
            + person("pat2", "Pat Smith", SHARED);

    @RegisterExtension
    static final LarchServerExtension scopedToStaff = server("""
            tls.certificate-mapping.1.issuer = cn=staff ca, o=example
            tls.certificate-mapping.1.kind = subject-attribute
            tls.certificate-mapping.1.subject-attribute = uid
            tls.certificate-mapping.1.entry-attribute = uid
            """);

    @RegisterExtension
    static final LarchServerExtension bySubjectPattern = server("""
            tls.certificate-mapping.1.kind = subject-dn
            tls.certificate-mapping.1.subject-pattern = CN=([a-z]+),OU=Staff,O=Example
            tls.certificate-mapping.1.entry-dn = uid=$1,ou=people,dc=example,dc=com
            tls.certificate-mapping.2.kind = subject-dn
            tls.certificate-mapping.2.subject-pattern = CN=([^,]+),OU=Contractors,O=Example
            tls.certificate-mapping.2.entry-filter = (&(objectClass=person)(cn=$1))
            """);

    @RegisterExtension
    static final LarchServerExtension byCertificate = server("""
            index.userCertificate = equality
            tls.certificate-mapping.1.issuer = CN=Staff CA,O=Example
            tls.certificate-mapping.1.kind = certificate
            tls.certificate-mapping.2.issuer = CN=Partner CA,O=Other
            tls.certificate-mapping.2.kind = subject-attribute
            tls.certificate-mapping.2.verify-certificate = true
            """);

    /** No rules: the built-in mapping, which takes any trusted authority's word for a UID. */
    @RegisterExtension
    static final LarchServerExtension withoutRules = server("");

    @Test
    void theTestCertificatesCarryTheSubjectsTheRulesAreWrittenFor() {
        assertEquals(
                "UID=alice,OU=Staff,O=Example",
                ALICE_BY_STAFF.certificate().getSubjectX500Principal().getName());
        assertEquals(
                "CN=Staff CA,O=Example",
                ALICE_BY_STAFF.certificate().getIssuerX500Principal().getName());
    }

    @Test
    void aCertificateFromAnotherTrustedAuthorityCannotBindWhenTheRuleIsScopedToTheStaffAuthority() throws Exception {
        assertRefused(scopedToStaff, ALICE_BY_PARTNER);
        assertBindsAs(scopedToStaff, ALICE_BY_STAFF, ALICE);
    }

    @Test
    void withoutRulesAnyTrustedAuthoritysCertificateStillMapsByUidAsBefore() throws Exception {
        assertBindsAs(withoutRules, ALICE_BY_PARTNER, ALICE);
        assertBindsAs(withoutRules, ALICE_TWIN, ALICE);
    }

    @Test
    void aSubjectDnPatternMapsToTheEntryItsDnTemplateNames() throws Exception {
        assertBindsAs(bySubjectPattern, CN_ALICE, ALICE);
        assertBindsAs(bySubjectPattern, CN_BOB, BOB);
        assertRefused(bySubjectPattern, CN_NOBODY);
    }

    @Test
    void aSubjectThatNoRulesPatternMatchesIsRefusedEvenWhenItsCnNamesAUser() throws Exception {
        assertRefused(bySubjectPattern, ELSEWHERE);
        assertRefused(bySubjectPattern, ALICE_BY_STAFF);
    }

    @Test
    void aFilterTemplateMapsTheOneEntryItFindsAndRefusesTwo() throws Exception {
        assertBindsAs(bySubjectPattern, CONTRACTOR_ALICE, ALICE);
        assertRefused(bySubjectPattern, CONTRACTOR_PAT);
    }

    @Test
    void aCapturedValueIsEscapedInTheFilterSoAStarMatchesNobody() throws Exception {
        assertRefused(bySubjectPattern, CONTRACTOR_STAR);
    }

    @Test
    void theCertificateRuleMapsOnlyTheEntryHoldingThatExactCertificate() throws Exception {
        assertBindsAs(byCertificate, ALICE_BY_STAFF, ALICE);
        assertRefused(byCertificate, ALICE_TWIN);
        assertRefused(byCertificate, CN_BOB);
    }

    @Test
    void twoEntriesHoldingTheSameCertificateAreAmbiguousAndRefused() throws Exception {
        assertRefused(byCertificate, SHARED);
    }

    @Test
    void verifyCertificateRefusesAMappedEntryThatDoesNotHoldThePresentedCertificate() throws Exception {
        assertBindsAs(byCertificate, CAROL_BY_PARTNER, CAROL);
        assertRefused(byCertificate, CAROL_TWIN);
        assertRefused(byCertificate, ALICE_BY_PARTNER);
    }

    @Test
    void ldapwhoamiWithSaslExternalBindsWithTheHeldCertificateAndIsRefusedTheTwin() throws Exception {
        assumeTrue(onPath("ldapwhoami"), "ldap-utils not installed");
        String url = "ldap://127.0.0.1:" + byCertificate.server().port();
        Run held = ldapwhoami(url, ALICE_BY_STAFF, "held");
        assertEquals(0, held.exitCode, held.output);
        assertTrue(held.output.contains("dn:" + ALICE), held.output);
        Run twin = ldapwhoami(url, ALICE_TWIN, "twin");
        assertEquals(49, twin.exitCode, twin.output);
    }

    private static void assertBindsAs(LarchServerExtension server, Certificates.Issued identity, String dn)
            throws Exception {
        try (LDAPConnection connection = startTls(server, identity)) {
            assertEquals(
                    ResultCode.SUCCESS,
                    connection.bind(new EXTERNALBindRequest()).getResultCode());
            WhoAmIExtendedResult who =
                    (WhoAmIExtendedResult) connection.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals("dn:" + dn, who.getAuthorizationID());
        }
    }

    private static void assertRefused(LarchServerExtension server, Certificates.Issued identity) throws Exception {
        try (LDAPConnection connection = startTls(server, identity)) {
            LDAPException refused;
            try {
                connection.bind(new EXTERNALBindRequest());
                throw new AssertionError("bound with "
                        + identity.certificate().getSubjectX500Principal().getName());
            } catch (LDAPException e) {
                refused = e;
            }
            assertEquals(ResultCode.INVALID_CREDENTIALS, refused.getResultCode(), refused.getMessage());
            assertEquals("the client certificate maps to no entry", refused.getDiagnosticMessage());
        }
    }

    private static LDAPConnection startTls(LarchServerExtension server, Certificates.Issued identity) throws Exception {
        LDAPConnection connection =
                new LDAPConnection("127.0.0.1", server.server().port());
        ExtendedResult started = connection.processExtendedOperation(new StartTLSExtendedRequest(context(identity)));
        assertEquals(ResultCode.SUCCESS, started.getResultCode());
        return connection;
    }

    /** A server trusting both authorities, with the base tree, the people and {@code rules} loaded as a file. */
    private static LarchServerExtension server(String rules) {
        return LarchServerExtension.withBaseTree()
                .configured(c -> withRules(c, rules))
                .adding(PEOPLE_LDIF);
    }

    private static LarchConfig.Builder withRules(LarchConfig.Builder base, String rules) {
        Certificates.Issued server = Certificates.server("localhost", STAFF_CA, days());
        String name = "server-" + Integer.toHexString(rules.hashCode());
        Path file = write(
                name + ".conf",
                "tls.certificate = " + write(name + ".pem", server.certificatePem()) + "\n"
                        + "tls.private-key = " + write(name + ".key", server.privateKeyPem()) + "\n"
                        + "tls.ca-certificates = "
                        + write("cas.pem", STAFF_CA.certificatePem() + PARTNER_CA.certificatePem()) + "\n"
                        + rules);
        try {
            // Checked as a file first: a rule the file format refuses fails here, naming the file.
            LarchConfig.loadWithSettings(file).settings().forEach(base::set);
        } catch (ConfigException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return base;
    }

    private static String person(String uid, String cn, Certificates.Issued certificate) {
        String ldif = "dn: uid=" + uid + "," + PEOPLE + "\n"
                + "objectClass: inetOrgPerson\n"
                + "uid: " + uid + "\n"
                + "cn: " + cn + "\n"
                + "sn: " + cn.substring(cn.indexOf(' ') + 1) + "\n";
        if (certificate != null) {
            ldif += "userCertificate:: " + Base64.getEncoder().encodeToString(der(certificate.certificate())) + "\n";
        }
        return ldif + "\n";
    }

    /**
     * A client certificate whose subject prints as {@code subject}: the test helper writes a DN's RDNs
     * in the order given, which is the reverse of how RFC 4514 prints them, so they are reversed here.
     */
    private static Certificates.Issued client(String subject, Certificates.Issued issuer) {
        return printingAs(subject, Certificates.client(reversed(subject), issuer, days()));
    }

    /** An authority whose subject prints as {@code subject}, as {@link #client}. */
    private static Certificates.Issued authority(String subject) {
        return printingAs(subject, Certificates.authority(reversed(subject), days()));
    }

    private static String reversed(String dn) {
        List<String> rdns = new ArrayList<>(List.of(dn.split(",")));
        Collections.reverse(rdns);
        return String.join(",", rdns);
    }

    private static Certificates.Issued printingAs(String subject, Certificates.Issued issued) {
        if (!issued.certificate().getSubjectX500Principal().getName().equals(subject)) {
            throw new IllegalStateException("issued " + issued.certificate().getSubjectX500Principal());
        }
        return issued;
    }

    /** A client context trusting the staff authority (the server's), presenting {@code identity}. */
    private static SSLContext context(Certificates.Issued identity) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", STAFF_CA.certificate());
        TrustManagerFactory trusting = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trusting.init(trust);
        KeyStore own = KeyStore.getInstance("PKCS12");
        own.load(null, null);
        own.setKeyEntry(
                "me", identity.keys().getPrivate(), "pw".toCharArray(), new X509Certificate[] {identity.certificate()});
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(own, "pw".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), trusting.getTrustManagers(), null);
        return context;
    }

    private record Run(int exitCode, String output) {}

    private static Run ldapwhoami(String url, Certificates.Issued identity, String name) throws Exception {
        Path certificate = write(name + "-client.pem", identity.certificatePem());
        Path key = write(name + "-client.key", identity.privateKeyPem());
        Files.setPosixFilePermissions(key, Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
        ProcessBuilder builder = new ProcessBuilder("ldapwhoami", "-ZZ", "-Y", "EXTERNAL", "-H", url);
        builder.redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.remove("LDAPNOINIT"); // it would make ldap-utils ignore the LDAPTLS_* variables
        env.put(
                "LDAPTLS_CACERT",
                write("staff-ca.pem", STAFF_CA.certificatePem()).toString());
        env.put("LDAPTLS_REQCERT", "demand");
        env.put("LDAPTLS_CERT", certificate.toString());
        env.put("LDAPTLS_KEY", key.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("ldapwhoami did not finish: " + output);
        }
        return new Run(process.exitValue(), output);
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static byte[] der(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Duration days() {
        return Duration.ofDays(2);
    }

    private static Path directory() {
        try {
            Path dir = Files.createTempDirectory("larch-certificate-mapping");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(String name, String text) {
        try {
            return Files.writeString(DIR.resolve(name), text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
