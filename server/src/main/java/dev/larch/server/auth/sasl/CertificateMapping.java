package dev.larch.server.auth.sasl;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.security.auth.x500.X500Principal;

import dev.larch.config.CertificateMappingRule;
import dev.larch.config.Tls;
import dev.larch.server.search.FilterCompiler;
import org.apache.directory.api.ldap.model.name.Dn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps a verified client certificate to an entry, for SASL EXTERNAL, by the ordered rules of
 * {@code tls.certificate-mapping.<N>.*}: the first rule whose issuer scope covers the certificate and
 * that applies to it ({@link CertificateRule.Result#applies}) decides; later rules are not asked, so
 * a rule cannot be bypassed by falling through to a looser one. With {@code verify-certificate} the
 * entry found must also hold the certificate in {@code userCertificate}. No rule applying, no entry,
 * several, or an entry without the certificate maps nobody; the reason goes to the server's log only.
 * Without configured rules, {@link BuiltInRule} maps certificates from every trusted authority.
 *
 * <p>Thread-safe.
 */
final class CertificateMapping {
    private static final Logger LOG = LoggerFactory.getLogger(CertificateMapping.class);

    /** One rule with its scope. {@code issuer} null covers every issuer. */
    private record Scoped(String name, X500Principal issuer, CertificateRule rule, boolean verify) {
        boolean covers(X509Certificate certificate) {
            // X500Principal compares canonical forms: case and spacing of types and values aside.
            return issuer == null || issuer.equals(certificate.getIssuerX500Principal());
        }
    }

    private final EntryFinder finder;
    private final List<Scoped> rules;

    private CertificateMapping(EntryFinder finder, List<Scoped> rules) {
        this.finder = finder;
        this.rules = List.copyOf(rules);
    }

    /** The mapping {@code tls} configures; logs at start which one it is. */
    static CertificateMapping of(EntryFinder finder, FilterCompiler filters, Tls tls) {
        List<Scoped> rules = new ArrayList<>();
        for (CertificateMappingRule r : tls.certificateMappings()) {
            CertificateRule rule = switch (r.kind()) {
                case SUBJECT_ATTRIBUTE -> new SubjectAttributeRule(finder, r.subjectAttributes(), r.entryAttribute());
                case SUBJECT_DN -> new SubjectDnRule(finder, filters, r.subjectPattern(), r.entryDn(), r.entryFilter());
                case CERTIFICATE -> new HeldCertificateRule(finder);
            };
            String name = r.keyPrefix().substring(0, r.keyPrefix().length() - 1);
            rules.add(new Scoped(
                    name, r.issuer() == null ? null : new X500Principal(r.issuer()), rule, r.verifyCertificate()));
            if (tls.requestsClientCertificates()) {
                LOG.info(
                        "SASL EXTERNAL rule {}: {} from {}{}",
                        name,
                        r.kind().configWord(),
                        r.issuer() == null ? "any authority in tls.ca-certificates" : "issuer " + r.issuer(),
                        r.verifyCertificate() ? ", the entry must hold the certificate" : "");
            }
        }
        if (rules.isEmpty()) {
            String attribute = tls.mapsByAttribute() ? tls.certificateMapping() : null;
            rules.add(new Scoped("the built-in mapping", null, new BuiltInRule(finder, attribute), false));
            if (tls.requestsClientCertificates()) {
                LOG.warn(
                        "SASL EXTERNAL maps a certificate from any authority in tls.ca-certificates to the entry"
                                + " named by its subject DN{}; no tls.certificate-mapping.<N> rule scopes this by"
                                + " issuer or checks the entry's userCertificate (see config/larch.conf)",
                        attribute == null ? "" : ", else by its UID or CN value in " + attribute);
            }
        }
        return new CertificateMapping(finder, rules);
    }

    /** The entry the certificate names, or null. */
    Dn map(X509Certificate certificate) {
        for (Scoped scoped : rules) {
            if (!scoped.covers(certificate)) {
                continue;
            }
            CertificateRule.Result result = scoped.rule().map(certificate);
            if (!result.applies()) {
                continue;
            }
            if (result.dn() == null) {
                return refuse(certificate, scoped, result.failure());
            }
            if (scoped.verify()) {
                byte[] der = HeldCertificateRule.der(certificate);
                if (der == null || !finder.holdsCertificate(result.dn(), der)) {
                    return refuse(certificate, scoped, result.dn() + " does not hold it in userCertificate");
                }
            }
            return result.dn();
        }
        return refuse(certificate, null, "no tls.certificate-mapping rule applies");
    }

    private static Dn refuse(X509Certificate certificate, Scoped scoped, String why) {
        LOG.info(
                "SASL EXTERNAL: the certificate of subject '{}' issued by '{}' maps to no entry{}: {}",
                printable(SubjectNames.subject(certificate)),
                printable(certificate.getIssuerX500Principal().getName()),
                scoped == null ? "" : " by " + scoped.name(),
                why);
        return null;
    }

    /** Certificate names are the client's text: control characters never reach the log as such. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), 512));
        for (int i = 0; i < text.length() && i < 512; i++) {
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) ? '?' : c);
        }
        return out.toString();
    }
}
