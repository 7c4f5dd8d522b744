package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import dev.larch.bench.mix.Expectation;
import dev.larch.bench.mix.OperationSpec;

/**
 * Judges whether an answer is the right one: the entry count the mix expects, the entry asked
 * for (DN), the attributes asked for, wildcard hits that match their prefix, every member of a
 * group, and noSuchObject only where the base is absent by design.
 *
 * <p>sizeLimitExceeded is a partial success when the entries received already satisfy the
 * expectation (a wildcard search that hit the server's size limit still answered); for an exact
 * lookup it means more than one entry matched, which is a wrong answer. Stateless and thread-safe.
 */
public final class AnswerCheck {
    /** Members shown in a wrong answer's problem text. */
    private static final int SHOWN = 2;

    private AnswerCheck() {}

    /** Judges a search that ended in success or sizeLimitExceeded. */
    public static Answer judge(
            OperationSpec op, Expected expected, int entryCount, List<SearchResultEntry> entries, boolean sizeLimited) {
        Expectation expect = op.expect();
        if (expected.baseAbsent()) {
            return Answer.wrong(
                    entryCount,
                    sizeLimited ? ResultCode.SIZE_LIMIT_EXCEEDED_INT_VALUE : 0,
                    "base does not exist, yet the server answered " + (sizeLimited ? "sizeLimitExceeded" : "success")
                            + " with " + entryCount + " entries instead of noSuchObject");
        }
        if (sizeLimited && (expect == Expectation.ONE || expect == Expectation.NONE)) {
            return Answer.wrong(entryCount, 4, "sizeLimitExceeded where " + expect.label() + " entry was expected");
        }
        if (!expect.accepts(entryCount)) {
            return Answer.wrong(entryCount, 0, entryCount + " entries where " + expect.label() + " was expected");
        }
        String problem = problem(expected, entries);
        if (problem != null) {
            return Answer.wrong(entryCount, sizeLimited ? ResultCode.SIZE_LIMIT_EXCEEDED_INT_VALUE : 0, problem);
        }
        return sizeLimited ? Answer.partial(entryCount, 4) : Answer.success(entryCount);
    }

    /** Judges a search the server answered with noSuchObject. */
    static Answer noSuchObject(OperationSpec op, Expected expected, String base) {
        if (expected.baseAbsent() && op.expect().accepts(0)) {
            return Answer.success(0); // reading a DN that does not exist: "not found" is the right answer
        }
        return Answer.wrong(
                0,
                ResultCode.NO_SUCH_OBJECT_INT_VALUE,
                expected.baseAbsent()
                        ? "noSuchObject where " + op.expect().label() + " entry was expected"
                        : "noSuchObject for base " + base + ", which the data file holds");
    }

    /** Judges an operation whose answer is only a result code (modify, add, delete, modrdn, compare, bind). */
    static Answer result(OperationSpec op, ResultCode rc, String target) {
        int code = rc.intValue();
        if (code == op.expectedResultCode()) {
            return Answer.success(0);
        }
        if (code == ResultCode.NO_SUCH_OBJECT_INT_VALUE) {
            return Answer.wrong(0, code, "noSuchObject for " + target + ", which exists");
        }
        if (isVerdict(code) && isVerdict(op.expectedResultCode())) {
            return Answer.wrong(
                    0,
                    code,
                    op.type().label() + " " + target + ": "
                            + ResultCode.valueOf(code).getName() + " where "
                            + ResultCode.valueOf(op.expectedResultCode()).getName() + " was expected");
        }
        return Answer.error(code, rc.isConnectionUsable());
    }

    /** Codes that are an answer to the question rather than a failure to answer it. */
    private static boolean isVerdict(int code) {
        return code == ResultCode.COMPARE_TRUE_INT_VALUE
                || code == ResultCode.COMPARE_FALSE_INT_VALUE
                || code == ResultCode.INVALID_CREDENTIALS_INT_VALUE
                || code == ResultCode.SUCCESS_INT_VALUE;
    }

    /** What is wrong with entries of the right count, or null. */
    static String problem(Expected expected, List<SearchResultEntry> entries) {
        for (SearchResultEntry e : entries) {
            for (String attribute : expected.required()) {
                Attribute a = e.getAttribute(attribute);
                if (a == null || a.size() == 0) {
                    return e.getDN() + " lacks " + attribute;
                }
            }
            for (Map.Entry<String, String> p : expected.prefixes().entrySet()) {
                if (!startsWith(e.getAttribute(p.getKey()), p.getValue())) {
                    Attribute a = e.getAttribute(p.getKey());
                    return "hit " + e.getDN() + " has " + p.getKey() + " "
                            + (a == null ? "(none returned)" : String.join("|", a.getValues()))
                            + ", which does not start with " + p.getValue();
                }
            }
        }
        if (expected.dn() == null || entries.size() != 1) {
            return null;
        }
        SearchResultEntry e = entries.get(0);
        if (!sameDn(e.getDN(), expected.dn())) {
            return "asked for " + expected.dn() + ", got " + e.getDN();
        }
        for (Map.Entry<String, String> v : expected.values().entrySet()) {
            Attribute a = e.getAttribute(v.getKey());
            if (a == null || a.size() == 0) {
                return e.getDN() + " lacks requested " + v.getKey();
            }
            if (!a.hasValue(v.getValue())) {
                return e.getDN() + " has " + v.getKey() + " " + String.join("|", a.getValues()) + ", the data file "
                        + v.getValue();
            }
        }
        return expected.members() == null ? null : membersProblem(e, expected.members());
    }

    private static boolean startsWith(Attribute a, String prefix) {
        if (a == null) {
            return false;
        }
        for (String value : a.getValues()) {
            if (value.regionMatches(true, 0, prefix, 0, prefix.length())) {
                return true;
            }
        }
        return false;
    }

    /** DN equality per RFC 4514 (case, spacing and escaping ignored), cheap when the strings already match. */
    static boolean sameDn(String a, String b) {
        if (a.equalsIgnoreCase(b)) {
            return true;
        }
        try {
            return new DN(a).equals(new DN(b));
        } catch (LDAPException e) {
            return false;
        }
    }

    /** The group must list exactly the members of the data file (member and uniqueMember together). */
    private static String membersProblem(SearchResultEntry group, List<String> expected) {
        List<String> returned = new ArrayList<>();
        for (String name : List.of("member", "uniqueMember")) {
            Attribute a = group.getAttribute(name);
            if (a != null) {
                returned.addAll(List.of(a.getValues()));
            }
        }
        // Most servers return member values as loaded, so a case-insensitive string match settles
        // nearly all; only the rest are compared as parsed DNs.
        Set<String> missing = new HashSet<>();
        for (String m : expected) {
            missing.add(m.toLowerCase(Locale.ROOT));
        }
        List<String> extra = new ArrayList<>();
        for (String r : returned) {
            if (!missing.remove(r.toLowerCase(Locale.ROOT))) {
                extra.add(r);
            }
        }
        if (!missing.isEmpty() && !extra.isEmpty()) {
            Set<String> normalizedMissing = new HashSet<>();
            missing.forEach(m -> normalizedMissing.add(normalize(m)));
            extra.removeIf(r -> normalizedMissing.remove(normalize(r)));
            missing = normalizedMissing;
        }
        if (missing.isEmpty() && extra.isEmpty()) {
            return null;
        }
        if (!missing.isEmpty()) {
            return group.getDN() + " lists " + returned.size() + " of its " + expected.size()
                    + " members; missing e.g. " + sample(missing);
        }
        return group.getDN() + " lists " + extra.size() + " members the data file does not, e.g. " + sample(extra);
    }

    private static String normalize(String dn) {
        try {
            return new DN(dn).toNormalizedString();
        } catch (LDAPException e) {
            return dn.toLowerCase(Locale.ROOT);
        }
    }

    private static String sample(Iterable<String> values) {
        List<String> shown = new ArrayList<>();
        for (String v : values) {
            if (shown.size() == SHOWN) {
                break;
            }
            shown.add(v);
        }
        return String.join("; ", shown);
    }
}
