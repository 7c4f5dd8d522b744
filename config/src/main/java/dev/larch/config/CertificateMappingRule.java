package dev.larch.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One SASL EXTERNAL mapping rule, {@code tls.certificate-mapping.<number>.*}: which client
 * certificates it applies to and how it finds the one entry such a certificate binds as. Rules are
 * tried in the order of their numbers; the first that applies decides (see {@link Kind}).
 *
 * @param number the {@code <number>} of its keys, 1..{@value #MAX_NUMBER}; names the rule in messages
 * @param issuer the issuer DN a certificate must have for the rule to apply (RFC 4514, compared as
 *     {@code javax.security.auth.x500.X500Principal} does: case and spacing aside); null for any issuer
 * @param kind how the rule maps
 * @param subjectAttributes {@link Kind#SUBJECT_ATTRIBUTE}: the subject attributes looked for, in
 *     order, each a {@link #SUBJECT_ATTRIBUTE_OIDS} name; empty for the other kinds
 * @param entryAttribute {@link Kind#SUBJECT_ATTRIBUTE}: the entry attribute the value is looked up in
 *     (needs an equality index); null for the other kinds
 * @param subjectPattern {@link Kind#SUBJECT_DN}: a {@code java.util.regex} that must match the whole
 *     subject DN as RFC 4514 prints it; null for the other kinds
 * @param entryDn {@link Kind#SUBJECT_DN}: the entry DN, with {@code $0}..{@code $9} for the pattern's
 *     groups; null when {@code entryFilter} is used
 * @param entryFilter {@link Kind#SUBJECT_DN}: an LDAP filter with {@code $0}..{@code $9}, each group's
 *     value escaped as a filter value; null when {@code entryDn} is used
 * @param verifyCertificate whether the mapped entry must also hold the presented certificate in
 *     {@code userCertificate}
 */
public record CertificateMappingRule(
        int number,
        String issuer,
        Kind kind,
        List<String> subjectAttributes,
        String entryAttribute,
        String subjectPattern,
        String entryDn,
        String entryFilter,
        boolean verifyCertificate) {

    /** The highest rule number. */
    public static final int MAX_NUMBER = 99;

    /**
     * The subject attribute names a rule may use (lower case) and their OIDs; a dotted OID may be given
     * for any other. Subject DNs are printed with these in upper case ({@code EMAILADDRESS=...}).
     */
    public static final Map<String, String> SUBJECT_ATTRIBUTE_OIDS = Map.ofEntries(
            Map.entry("cn", "2.5.4.3"),
            Map.entry("uid", "0.9.2342.19200300.100.1.1"),
            Map.entry("emailaddress", "1.2.840.113549.1.9.1"),
            Map.entry("serialnumber", "2.5.4.5"),
            Map.entry("ou", "2.5.4.11"),
            Map.entry("o", "2.5.4.10"),
            Map.entry("dc", "0.9.2342.19200300.100.1.25"),
            Map.entry("c", "2.5.4.6"),
            Map.entry("l", "2.5.4.7"),
            Map.entry("st", "2.5.4.8"),
            Map.entry("street", "2.5.4.9"));

    /** How a rule finds the entry. */
    public enum Kind {
        /**
         * The value of the first subject attribute the subject has (its most specific RDN holding it)
         * looked up in {@code entryAttribute}. Applies when the subject has one of the attributes.
         */
        SUBJECT_ATTRIBUTE,
        /** The subject DN rewritten through a pattern into a DN or a filter. Applies when the pattern matches. */
        SUBJECT_DN,
        /** The entry whose {@code userCertificate} equals the presented certificate. Always applies. */
        CERTIFICATE;

        /** How the config file spells this kind. */
        public String configWord() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The kind spelled as in the config file, ignoring case. */
        public static Optional<Kind> fromConfigWord(String word) {
            for (Kind kind : values()) {
                if (kind.configWord().equalsIgnoreCase(word.strip())) {
                    return Optional.of(kind);
                }
            }
            return Optional.empty();
        }
    }

    public CertificateMappingRule {
        Objects.requireNonNull(kind, "kind");
        subjectAttributes = List.copyOf(subjectAttributes);
        if (number < 1 || number > MAX_NUMBER) {
            throw new IllegalArgumentException("number must be 1.." + MAX_NUMBER);
        }
        if ((kind == Kind.SUBJECT_ATTRIBUTE) != (entryAttribute != null && !subjectAttributes.isEmpty())) {
            throw new IllegalArgumentException("subject and entry attributes are set for subject-attribute rules only");
        }
        if ((kind == Kind.SUBJECT_DN) != (subjectPattern != null)) {
            throw new IllegalArgumentException("a subject pattern is set for subject-dn rules only");
        }
        if (kind == Kind.SUBJECT_DN && (entryDn == null) == (entryFilter == null)) {
            throw new IllegalArgumentException("a subject-dn rule has either an entry DN or an entry filter");
        }
        if (kind != Kind.SUBJECT_DN && (entryDn != null || entryFilter != null)) {
            throw new IllegalArgumentException("entry DN and filter templates are for subject-dn rules only");
        }
    }

    /** The prefix of this rule's keys, {@code tls.certificate-mapping.<number>.}. */
    public String keyPrefix() {
        return CertificateMappingSettings.PREFIX + number + ".";
    }
}
