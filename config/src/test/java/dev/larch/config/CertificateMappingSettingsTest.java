package dev.larch.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tls.certificate-mapping.<N>.*}: rules in number order, and a clear error naming each bad key. */
class CertificateMappingSettingsTest {
    private static final String TLS = """
            tls.certificate = cert.pem
            tls.private-key = key.pem
            tls.ca-certificates = ca.pem
            """;

    @TempDir
    Path dir;

    @Test
    void noRulesByDefault() {
        assertTrue(LarchConfig.defaults().tls().certificateMappings().isEmpty());
    }

    @Test
    void rulesComeInNumberOrderWithTheirDefaults() throws Exception {
        List<CertificateMappingRule> rules = load(TLS + """
                index.userCertificate = equality
                tls.certificate-mapping.10.kind = certificate
                tls.certificate-mapping.2.issuer = CN=Example CA, O=Example
                tls.certificate-mapping.2.kind = Subject-Attribute
                tls.certificate-mapping.2.verify-certificate = true
                tls.certificate-mapping.3.kind = subject-dn
                tls.certificate-mapping.3.subject-pattern = CN=([^,]+),OU=Staff,O=Example
                tls.certificate-mapping.3.entry-filter = (&(objectClass=person)(uid=$1))
                tls.certificate-mapping.4.kind = subject-dn
                """).tls().certificateMappings();
        assertEquals(
                List.of(2, 3, 4, 10),
                rules.stream().map(CertificateMappingRule::number).toList());
        CertificateMappingRule byAttribute = rules.get(0);
        assertEquals("CN=Example CA, O=Example", byAttribute.issuer());
        assertEquals(CertificateMappingRule.Kind.SUBJECT_ATTRIBUTE, byAttribute.kind());
        assertEquals(List.of("uid", "cn"), byAttribute.subjectAttributes());
        assertEquals("uid", byAttribute.entryAttribute());
        assertTrue(byAttribute.verifyCertificate());
        assertEquals("(&(objectClass=person)(uid=$1))", rules.get(1).entryFilter());
        assertNull(rules.get(1).issuer());
        CertificateMappingRule subjectIsTheDn = rules.get(2);
        assertEquals(".*", subjectIsTheDn.subjectPattern());
        assertEquals("$0", subjectIsTheDn.entryDn());
        assertFalse(subjectIsTheDn.verifyCertificate());
        assertEquals(CertificateMappingRule.Kind.CERTIFICATE, rules.get(3).kind());
    }

    @Test
    void aRuleWithoutKindNamesTheKindKey() {
        assertProblem(TLS + "tls.certificate-mapping.1.issuer = CN=A\n", "tls.certificate-mapping.1.kind: must be set");
    }

    @Test
    void anUnknownKindOrFieldOrNumberIsNamed() {
        assertProblem(TLS + "tls.certificate-mapping.1.kind = cn\n", "tls.certificate-mapping.1.kind: expected");
        assertProblem(
                TLS + "tls.certificate-mapping.1.kinds = certificate\n",
                "tls.certificate-mapping.1.kinds: unknown key");
        assertProblem(
                TLS + "tls.certificate-mapping.0.kind = certificate\n", "tls.certificate-mapping.0.kind: unknown key");
        assertProblem(
                TLS + "tls.certificate-mapping.100.kind = certificate\n",
                "tls.certificate-mapping.100.kind: unknown key");
    }

    @Test
    void aMalformedIssuerIsNamed() {
        assertProblem(
                TLS + "tls.certificate-mapping.1.kind = subject-dn\ntls.certificate-mapping.1.issuer = not a dn\n",
                "tls.certificate-mapping.1.issuer: expected an issuer DN");
    }

    @Test
    void aFieldOfAnotherKindIsRefused() {
        assertProblem(
                TLS + "tls.certificate-mapping.1.kind = certificate\ntls.certificate-mapping.1.subject-pattern = .*\n",
                "tls.certificate-mapping.1.subject-pattern: does not apply to kind certificate");
    }

    @Test
    void aBadPatternOrTemplateIsNamed() {
        String rule = TLS + "tls.certificate-mapping.1.kind = subject-dn\n";
        assertProblem(
                rule + "tls.certificate-mapping.1.subject-pattern = CN=(\n",
                "subject-pattern: not a regular expression");
        assertProblem(
                rule
                        + "tls.certificate-mapping.1.subject-pattern = CN=(.*)\ntls.certificate-mapping.1.entry-dn = uid=$2,dc=x\n",
                "tls.certificate-mapping.1.entry-dn: refers to $2 but the subject-pattern has 1 group");
        assertProblem(
                rule + "tls.certificate-mapping.1.entry-filter = uid=$0)\n",
                "tls.certificate-mapping.1.entry-filter: not an LDAP filter");
        assertProblem(
                rule + "tls.certificate-mapping.1.entry-dn = $0\ntls.certificate-mapping.1.entry-filter = (uid=$0)\n",
                "set either entry-dn or entry-filter");
    }

    @Test
    void everyLookupNeedsAnEqualityIndex() {
        assertProblem(
                TLS + "tls.certificate-mapping.1.kind = certificate\n",
                "tls.certificate-mapping.1.kind: certificate needs an equality index on userCertificate");
        assertProblem(
                TLS
                        + "tls.certificate-mapping.1.kind = subject-attribute\ntls.certificate-mapping.1.entry-attribute = description\n",
                "tls.certificate-mapping.1.entry-attribute: description needs an equality index");
        assertProblem(
                TLS
                        + "tls.certificate-mapping.1.kind = subject-dn\ntls.certificate-mapping.1.entry-filter = (description=$0)\n",
                "tls.certificate-mapping.1.entry-filter: needs an equality item");
    }

    @Test
    void rulesNeedTheAuthoritiesTheyMap() {
        assertProblem(
                "tls.certificate = c.pem\ntls.private-key = k.pem\ntls.certificate-mapping.1.kind = subject-dn\n",
                "tls.certificate-mapping.1.kind: needs tls.ca-certificates");
    }

    private LarchConfig load(String text) throws IOException, ConfigException {
        Path file = dir.resolve("larch.conf");
        Files.writeString(file, text);
        return LarchConfig.load(file);
    }

    private void assertProblem(String text, String expected) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
