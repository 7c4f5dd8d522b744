package dev.larch.server.auth.sasl;

import java.security.cert.X509Certificate;
import java.text.ParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import org.apache.directory.api.ldap.model.filter.FilterEncoder;
import org.apache.directory.api.ldap.model.filter.FilterParser;

/**
 * {@code kind = subject-dn}: the subject DN ({@link SubjectNames#subject}) must match the whole pattern;
 * its groups fill a template naming the entry: a DN, where each group goes in as the subject spells it
 * (RFC 4514, escapes kept), or a filter, where each group's value is unescaped and then escaped as a
 * filter value, so that a subject cannot change the filter's shape. A filter is answered from indexes
 * only ({@link EntryFinder#match}). Applies only when the pattern matches.
 *
 * <p>Bounded: a subject longer than {@link SubjectNames#MAX_SUBJECT_LENGTH} or a match that reads more
 * than {@link #MATCH_BUDGET} characters (a backtracking pattern) maps nobody.
 */
final class SubjectDnRule implements CertificateRule {
    /** Characters one match may read: thousands of passes over the longest subject. */
    static final long MATCH_BUDGET = 1_000_000;

    private static final Pattern GROUP_REFERENCE = Pattern.compile("\\$(\\$|[0-9])");

    private final EntryFinder finder;
    private final FilterCompiler filters;
    private final Pattern pattern;
    private final String entryDn;
    private final String entryFilter;

    /** Exactly one of {@code entryDn} and {@code entryFilter} is non-null. */
    SubjectDnRule(EntryFinder finder, FilterCompiler filters, String pattern, String entryDn, String entryFilter) {
        this.finder = finder;
        this.filters = filters;
        this.pattern = Pattern.compile(pattern);
        this.entryDn = entryDn;
        this.entryFilter = entryFilter;
    }

    @Override
    public Result map(X509Certificate certificate) {
        String subject = SubjectNames.subject(certificate);
        if (subject.length() > SubjectNames.MAX_SUBJECT_LENGTH) {
            return Result.nobody("the subject DN is longer than " + SubjectNames.MAX_SUBJECT_LENGTH + " characters");
        }
        Matcher m = pattern.matcher(new BoundedText(subject, MATCH_BUDGET));
        try {
            if (!m.matches()) {
                return Result.NOT_APPLICABLE;
            }
        } catch (BoundedText.BudgetExceeded e) {
            return Result.nobody("the subject-pattern took more than " + MATCH_BUDGET + " steps on this subject");
        }
        return entryDn != null ? byDn(m) : byFilter(m);
    }

    private Result byDn(Matcher m) {
        String dn = fill(entryDn, m, false);
        if (dn == null) {
            return Result.nobody("a group of the subject-pattern holds no usable value");
        }
        var found = finder.byDn(dn);
        return found != null ? Result.found(found) : Result.nobody("no entry has the DN the entry-dn template gives");
    }

    private Result byFilter(Matcher m) {
        String text = fill(entryFilter, m, true);
        if (text == null) {
            return Result.nobody("a group of the subject-pattern holds no usable value");
        }
        Filter filter;
        try {
            filter = filters.compile(FilterParser.parse(text));
        } catch (ParseException | RuntimeException e) {
            return Result.nobody("the entry-filter template gives no valid filter");
        }
        return Result.of(finder.match(filter, "the entry-filter's attributes"));
    }

    /**
     * {@code template} with {@code $0}..{@code $9} replaced by the groups and {@code $$} by {@code $};
     * null when a group is unset or, for a filter, holds no text value.
     */
    private static String fill(String template, Matcher groups, boolean asFilterValue) {
        Matcher ref = GROUP_REFERENCE.matcher(template);
        StringBuilder out = new StringBuilder();
        while (ref.find()) {
            String replacement;
            if (ref.group(1).equals("$")) {
                replacement = "$";
            } else {
                String group = groups.group(Integer.parseInt(ref.group(1)));
                if (group == null) {
                    return null;
                }
                if (asFilterValue) {
                    String value = SubjectNames.unescape(group);
                    if (value == null) {
                        return null;
                    }
                    replacement = FilterEncoder.encodeFilterValue(value);
                } else {
                    replacement = group;
                }
            }
            ref.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        ref.appendTail(out);
        return out.toString();
    }
}
