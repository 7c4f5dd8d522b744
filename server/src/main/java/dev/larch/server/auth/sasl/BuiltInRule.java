package dev.larch.server.auth.sasl;

import java.security.cert.X509Certificate;
import java.util.List;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * The mapping used when no {@code tls.certificate-mapping.<N>} rule is configured, for a certificate
 * from any authority in {@code tls.ca-certificates}:
 *
 * <ol>
 *   <li>the entry whose DN equals the certificate's subject DN (compared as DNs: case and spacing of
 *       attribute types and values do not matter, as the schema says);
 *   <li>else, unless {@code tls.certificate-mapping = none}, the one entry under the suffix whose
 *       mapping attribute (default {@code uid}) equals the subject's UID value, or its CN value when it
 *       has no UID, looked up through that attribute's equality index (see {@link EntryFinder}).
 * </ol>
 *
 * Always applies. Thread-safe.
 */
final class BuiltInRule implements CertificateRule {
    private final EntryFinder finder;
    /** The attribute looked up; null when only the subject DN maps. */
    private final String attribute;

    BuiltInRule(EntryFinder finder, String attribute) {
        this.finder = finder;
        this.attribute = attribute;
    }

    @Override
    public Result map(X509Certificate certificate) {
        // RFC 4514 as the JDK prints it by default (other types as OIDs), as this mapping always read it.
        String subject = certificate.getSubjectX500Principal().getName();
        Dn byDn = finder.byDn(subject);
        if (byDn != null) {
            return Result.found(byDn);
        }
        if (attribute == null) {
            return Result.nobody("no entry has the subject DN");
        }
        String value = subjectValue(subject);
        return value == null
                ? Result.nobody("no entry has the subject DN, which has no UID or CN")
                : Result.of(finder.matchAttribute(attribute, value));
    }

    /** The subject's UID value, else its CN value (the most specific one); null when it has neither. */
    static String subjectValue(String subjectRfc2253) {
        for (String type : List.of("uid", "cn")) {
            List<String> values = SubjectNames.values(subjectRfc2253, type);
            if (!values.isEmpty()) {
                return values.get(0);
            }
        }
        return null;
    }
}
