package dev.larch.config;

import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import javax.security.auth.x500.X500Principal;

import org.apache.directory.api.ldap.model.filter.AndNode;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Reads the {@code tls.certificate-mapping.<number>.<field>} keys into {@link CertificateMappingRule}s,
 * ordered by number, and checks that each lookup they make has an equality index. Stateless.
 */
final class CertificateMappingSettings {
    static final String PREFIX = "tls.certificate-mapping.";

    /** A group reference in a template: {@code $0}..{@code $9}; {@code $$} is a literal dollar sign. */
    static final Pattern GROUP_REFERENCE = Pattern.compile("\\$(\\$|[0-9])");

    static final int MAX_PATTERN_LENGTH = 1_000;

    private static final Set<String> FIELDS = Set.of(
            "issuer",
            "kind",
            "subject-attribute",
            "entry-attribute",
            "subject-pattern",
            "entry-dn",
            "entry-filter",
            "verify-certificate");
    /** The fields that belong to one kind or another. */
    private static final List<String> KIND_FIELDS =
            List.of("subject-attribute", "entry-attribute", "subject-pattern", "entry-dn", "entry-filter");

    private static final Pattern KEY = Pattern.compile("([1-9][0-9]?)\\.([a-z-]+)");
    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9-]*");
    private static final Pattern OID = Pattern.compile("[0-9]+(\\.[0-9]+)+");

    private CertificateMappingSettings() {}

    /** The rules the file sets, in number order; none when it sets none. */
    static List<CertificateMappingRule> read(Settings s) throws ConfigException {
        TreeMap<Integer, List<String>> keysByRule = new TreeMap<>();
        for (String key : s.keysWithPrefix(PREFIX)) {
            Matcher m = KEY.matcher(key.substring(PREFIX.length()));
            if (!m.matches() || !FIELDS.contains(m.group(2))) {
                throw s.error(
                        key,
                        "unknown key; expected " + PREFIX + "<1.." + CertificateMappingRule.MAX_NUMBER + ">.<"
                                + String.join("|", FIELDS.stream().sorted().toList()) + ">");
            }
            keysByRule
                    .computeIfAbsent(Integer.parseInt(m.group(1)), n -> new ArrayList<>())
                    .add(m.group(2));
        }
        List<CertificateMappingRule> rules = new ArrayList<>();
        for (int number : keysByRule.keySet()) {
            rules.add(rule(s, number));
        }
        return List.copyOf(rules);
    }

    private static CertificateMappingRule rule(Settings s, int number) throws ConfigException {
        String prefix = PREFIX + number + ".";
        String kindWord = s.take(prefix + "kind")
                .orElseThrow(
                        () -> s.error(prefix + "kind", "must be set: subject-attribute, subject-dn or certificate"));
        CertificateMappingRule.Kind kind = CertificateMappingRule.Kind.fromConfigWord(kindWord)
                .orElseThrow(() -> s.error(
                        prefix + "kind",
                        "expected subject-attribute, subject-dn or certificate, got '" + kindWord + "'"));
        String issuer = issuer(s, prefix + "issuer");
        boolean verify = s.bool(prefix + "verify-certificate");
        Set<String> own = switch (kind) {
            case SUBJECT_ATTRIBUTE -> Set.of("subject-attribute", "entry-attribute");
            case SUBJECT_DN -> Set.of("subject-pattern", "entry-dn", "entry-filter");
            case CERTIFICATE -> Set.of();
        };
        for (String field : KIND_FIELDS) {
            if (!own.contains(field) && s.take(prefix + field).isPresent()) {
                throw s.error(prefix + field, "does not apply to kind " + kind.configWord());
            }
        }
        return switch (kind) {
            case SUBJECT_ATTRIBUTE ->
                new CertificateMappingRule(
                        number,
                        issuer,
                        kind,
                        subjectAttributes(s, prefix + "subject-attribute"),
                        entryAttribute(s, prefix + "entry-attribute"),
                        null,
                        null,
                        null,
                        verify);
            case SUBJECT_DN -> subjectDnRule(s, number, issuer, verify);
            case CERTIFICATE ->
                new CertificateMappingRule(number, issuer, kind, List.of(), null, null, null, null, verify);
        };
    }

    private static CertificateMappingRule subjectDnRule(Settings s, int number, String issuer, boolean verify)
            throws ConfigException {
        String prefix = PREFIX + number + ".";
        String patternKey = prefix + "subject-pattern";
        String pattern = s.string(patternKey);
        if (pattern.length() > MAX_PATTERN_LENGTH) {
            throw s.error(patternKey, "longer than " + MAX_PATTERN_LENGTH + " characters");
        }
        int groups;
        try {
            groups = Pattern.compile(pattern).matcher("").groupCount();
        } catch (PatternSyntaxException e) {
            throw s.error(
                    patternKey, "not a regular expression: " + e.getDescription() + " near index " + e.getIndex());
        }
        Optional<String> dn = s.take(prefix + "entry-dn");
        Optional<String> filter = s.take(prefix + "entry-filter");
        if (dn.isPresent() && filter.isPresent()) {
            throw s.error(prefix + "entry-filter", "set either entry-dn or entry-filter, not both");
        }
        String entryDn = null;
        String entryFilter = null;
        if (filter.isPresent()) {
            entryFilter = template(s, prefix + "entry-filter", filter.get(), groups);
            try {
                FilterParser.parse(fill(entryFilter, "x"));
            } catch (ParseException e) {
                throw s.error(prefix + "entry-filter", "not an LDAP filter such as (uid=$1): '" + entryFilter + "'");
            }
        } else {
            entryDn = template(s, prefix + "entry-dn", dn.orElse("$0"), groups);
            // A group may stand for a value (uid=$1,...) or for whole RDNs ($0, the subject itself).
            if (!Dn.isValid(fill(entryDn, "x")) && !Dn.isValid(fill(entryDn, "cn=x"))) {
                throw s.error(prefix + "entry-dn", "not a DN template such as uid=$1,ou=people,dc=example,dc=com");
            }
        }
        return new CertificateMappingRule(
                number,
                issuer,
                CertificateMappingRule.Kind.SUBJECT_DN,
                List.of(),
                null,
                pattern,
                entryDn,
                entryFilter,
                verify);
    }

    /** {@code template} with each group reference replaced by {@code value}; {@code $$} becomes {@code $}. */
    static String fill(String template, String value) {
        return GROUP_REFERENCE
                .matcher(template)
                .replaceAll(m -> Matcher.quoteReplacement(m.group(1).equals("$") ? "$" : value));
    }

    private static String template(Settings s, String key, String template, int groups) throws ConfigException {
        if (template.isEmpty()) {
            throw s.error(key, "expected a value, got nothing");
        }
        Matcher m = GROUP_REFERENCE.matcher(template);
        while (m.find()) {
            if (!m.group(1).equals("$") && Integer.parseInt(m.group(1)) > groups) {
                throw s.error(
                        key,
                        "refers to $" + m.group(1) + " but the subject-pattern has " + groups + " group"
                                + (groups == 1 ? "" : "s"));
            }
        }
        return template;
    }

    private static String issuer(Settings s, String key) throws ConfigException {
        String issuer = s.string(key);
        if (issuer.equalsIgnoreCase("any")) {
            return null;
        }
        try {
            new X500Principal(issuer);
        } catch (IllegalArgumentException e) {
            throw s.error(key, "expected an issuer DN such as CN=Example CA,O=Example, or any; got '" + issuer + "'");
        }
        return issuer;
    }

    private static List<String> subjectAttributes(Settings s, String key) throws ConfigException {
        List<String> names = s.list(key);
        if (names.isEmpty()) {
            throw s.error(key, "expected one or more subject attributes such as uid, cn");
        }
        for (String name : names) {
            if (!CertificateMappingRule.SUBJECT_ATTRIBUTE_OIDS.containsKey(name.toLowerCase(Locale.ROOT))
                    && !OID.matcher(name).matches()) {
                throw s.error(
                        key,
                        "'" + name + "' is no subject attribute; expected "
                                + String.join(
                                        ", ",
                                        CertificateMappingRule.SUBJECT_ATTRIBUTE_OIDS.keySet().stream()
                                                .sorted()
                                                .toList())
                                + " or a dotted OID");
            }
        }
        return names;
    }

    private static String entryAttribute(Settings s, String key) throws ConfigException {
        String name = s.string(key);
        if (!ATTRIBUTE_NAME.matcher(name).matches()) {
            throw s.error(key, "expected an attribute name such as uid, got '" + name + "'");
        }
        return name;
    }

    /**
     * Fails unless every lookup a rule makes reads an equality index: the entry attribute, {@code
     * userCertificate} for the certificate kind, and for a filter at least one equality item (alone or
     * in a top-level AND) on an indexed attribute. Without one a lookup would find nobody, always.
     */
    static void requireIndexes(Settings s, LarchConfig config) throws ConfigException {
        for (CertificateMappingRule rule : config.tls().certificateMappings()) {
            String prefix = rule.keyPrefix();
            switch (rule.kind()) {
                case SUBJECT_ATTRIBUTE -> {
                    if (!indexed(config, rule.entryAttribute())) {
                        throw s.error(
                                prefix + "entry-attribute",
                                rule.entryAttribute() + " needs an equality index: add index." + rule.entryAttribute()
                                        + " = equality");
                    }
                }
                case CERTIFICATE -> {
                    if (!indexed(config, "userCertificate")) {
                        throw s.error(
                                prefix + "kind",
                                "certificate needs an equality index on userCertificate: add"
                                        + " index.userCertificate = equality");
                    }
                }
                case SUBJECT_DN -> {
                    if (rule.entryFilter() != null && !filterIndexed(config, rule.entryFilter())) {
                        throw s.error(
                                prefix + "entry-filter",
                                "needs an equality item on an attribute with an equality index, alone or in a"
                                        + " top-level (&...), such as (uid=$1); add index.<attribute> = equality");
                    }
                }
            }
        }
        if (!config.tls().certificateMappings().isEmpty() && config.tls().caCertificates() == null) {
            throw s.error(
                    config.tls().certificateMappings().get(0).keyPrefix() + "kind",
                    "needs tls.ca-certificates (the authorities whose client certificates are mapped)");
        }
    }

    private static boolean filterIndexed(LarchConfig config, String template) {
        ExprNode node;
        try {
            node = FilterParser.parse(fill(template, "x"));
        } catch (ParseException e) {
            return false;
        }
        List<ExprNode> items = node instanceof AndNode and ? and.getChildren() : List.of(node);
        for (ExprNode item : items) {
            if (item instanceof EqualityNode<?> eq && indexed(config, eq.getAttribute())) {
                return true;
            }
        }
        return false;
    }

    private static boolean indexed(LarchConfig config, String attribute) {
        for (Map.Entry<String, Set<IndexKind>> index : config.indexes().entrySet()) {
            if (index.getKey().equalsIgnoreCase(attribute) && index.getValue().contains(IndexKind.EQUALITY)) {
                return true;
            }
        }
        return false;
    }
}
