package dev.larch.server.auth.sasl;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * {@code kind = subject-attribute}: the value of the first listed attribute the subject has (its most
 * specific RDN holding it) names the one entry under the suffix whose {@code entryAttribute} equals it,
 * read through that attribute's equality index. Does not apply to a subject without any of the attributes.
 */
final class SubjectAttributeRule implements CertificateRule {
    private final EntryFinder finder;
    private final List<String> subjectAttributes;
    private final String entryAttribute;

    SubjectAttributeRule(EntryFinder finder, List<String> subjectAttributes, String entryAttribute) {
        this.finder = finder;
        this.subjectAttributes = List.copyOf(subjectAttributes);
        this.entryAttribute = entryAttribute;
    }

    @Override
    public Result map(X509Certificate certificate) {
        String subject = SubjectNames.subject(certificate);
        for (String attribute : subjectAttributes) {
            List<String> values = SubjectNames.values(subject, attribute);
            if (!values.isEmpty()) {
                return Result.of(finder.matchAttribute(entryAttribute, values.get(0)));
            }
        }
        return Result.NOT_APPLICABLE;
    }
}
