package dev.larch.server.access;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.larch.config.IpNetwork;
import dev.larch.server.search.Filter;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * A recursive-descent parser for the subset of the 389-DS / OpenDJ ACI language Larch implements:
 *
 * <pre>
 * aci      = *target "(" "version" "3.0" ";" "acl" QUOTED ";" 1*(rule ";") ")"
 * target   = "(" ("target" "=" | "targetattr" ("=" | "!=") | "targetfilter" "=" | "targetscope" "=") QUOTED ")"
 * rule     = ("allow" | "deny") "(" right *("," right) ")" subject
 * right    = "read" | "search" | "compare" | "write" | "selfwrite" | "add" | "delete" | "proxy" | "all"
 * subject  = and *("or" and)
 * and      = unary *("and" unary)
 * unary    = "not" unary | "(" subject ")" | bindrule
 * bindrule = ("userdn" | "groupdn" | "ip" | "authmethod") ("=" | "!=") QUOTED
 *          | "userattr" "=" QUOTED | "ssf" ("=" | "!=" | ">=" | ">" | "&lt;=" | "&lt;") (QUOTED | DIGITS)
 * </pre>
 *
 * Keywords are case-insensitive and white space may separate any two tokens. Quoted strings take
 * {@code \"} and {@code \\}. {@code userdn} and {@code groupdn} list {@code ldap:///...} URLs joined by
 * {@code ||}; {@code ip} lists addresses or CIDR networks joined by {@code ,} or {@code ||}.
 *
 * <p>Bounds: a value longer than {@value #MAX_LENGTH} characters or subjects nested deeper than
 * {@value #MAX_NESTING} are refused, so a hostile value costs linear time and bounded stack.
 *
 * <p>Stateless and thread-safe: each {@link #parse} call uses its own cursor.
 */
public final class AciParser {
    static final int MAX_LENGTH = 16_384;
    static final int MAX_NESTING = 32;
    private static final String LDAP_URL = "ldap:///";

    /**
     * Deepest {@code targetfilter} accepted ({@code (cn=x)} is 1): an ACI's filter is judged on every
     * entry it may reach, and a deeper one is no access rule anyone writes.
     */
    static final int MAX_TARGETFILTER_DEPTH = 32;

    /** Most elements (each parenthesized filter) one {@code targetfilter} may have. */
    static final int MAX_TARGETFILTER_ELEMENTS = 256;

    private final AciSchema schema;

    public AciParser(AciSchema schema) {
        this.schema = schema;
    }

    /**
     * Parses and compiles one {@code aci} value.
     *
     * @throws AciSyntaxException naming the 1-based position of the first problem and what was expected
     */
    Aci parse(String text) throws AciSyntaxException {
        return parse(text, true);
    }

    /**
     * Like {@link #parse(String)}, but a {@code targetattr} name the schema does not know is skipped
     * (it covers nothing) instead of refused: for the global rules and values already stored, which
     * may name attributes a schema file defines on some servers only ({@code authPassword}).
     */
    Aci parseLenient(String text) throws AciSyntaxException {
        return parse(text, false);
    }

    private Aci parse(String text, boolean strict) throws AciSyntaxException {
        if (text.length() > MAX_LENGTH) {
            throw new AciSyntaxException(MAX_LENGTH + 1, "an ACI may hold at most " + MAX_LENGTH + " characters");
        }
        return new Cursor(text, strict).aci();
    }

    /** Checks one value, for add and modify. */
    public void validate(String text) throws AciSyntaxException {
        parse(text);
    }

    private final class Cursor {
        private final String text;
        private final boolean strict;
        private int pos;

        Cursor(String text, boolean strict) {
            this.text = text;
            this.strict = strict;
        }

        Aci aci() throws AciSyntaxException {
            DnPattern targetDn = null;
            AttributeScope attributes = null;
            Filter filter = null;
            TargetScope scope = null;
            skipSpace();
            while (peekTarget()) {
                int start = pos;
                expect('(', "'(' to open a target");
                String keyword = word("a target keyword (target, targetattr, targetfilter, targetscope)");
                boolean negated = operatorEqualsOrNot();
                int valueAt = here();
                String value = quoted();
                expect(')', "')' to close the " + keyword);
                switch (keyword) {
                    case "target" -> {
                        refuseNegation(negated, keyword, start);
                        refuseRepeat(targetDn, keyword, start);
                        targetDn = ldapDn(value, valueAt);
                    }
                    case "targetattr" -> {
                        refuseRepeat(attributes, keyword, start);
                        attributes = attributes(value, negated, valueAt);
                    }
                    case "targetfilter" -> {
                        refuseNegation(negated, keyword, start);
                        refuseRepeat(filter, keyword, start);
                        filter = compile(value, valueAt);
                    }
                    case "targetscope" -> {
                        refuseNegation(negated, keyword, start);
                        refuseRepeat(scope, keyword, start);
                        scope = scope(value, valueAt);
                    }
                    default ->
                        throw error(
                                start + 1,
                                "expected a target keyword (target, targetattr, targetfilter, targetscope), found '"
                                        + keyword + "'");
                }
            }
            expect('(', "'(' to open the ACL body \"(version 3.0; acl ...\"");
            keyword("version");
            int versionAt = here();
            String version = token();
            if (!version.equals("3.0")) {
                throw error(versionAt, "expected version 3.0, found '" + version + "'");
            }
            expect(';', "';' after version 3.0");
            keyword("acl");
            String name = quoted();
            expect(';', "';' after the ACL name");
            List<Aci.Rule> rules = new ArrayList<>();
            do {
                rules.add(rule());
                expect(';', "';' after the subject of a rule");
            } while (!peek(')') && pos < text.length());
            expect(')', "')' to close the ACL body");
            skipSpace();
            if (pos < text.length()) {
                throw error(pos + 1, "expected the end of the ACI, found '" + snippet() + "'");
            }
            Aci.Target target = new Aci.Target(
                    targetDn,
                    attributes == null ? AttributeScope.ALL : attributes,
                    filter,
                    scope == null ? TargetScope.SUBTREE : scope);
            return new Aci(name, target, rules, text);
        }

        private Aci.Rule rule() throws AciSyntaxException {
            int at = here();
            String kind = word("'allow' or 'deny'");
            if (!kind.equals("allow") && !kind.equals("deny")) {
                throw error(at, "expected 'allow' or 'deny', found '" + kind + "'");
            }
            expect('(', "'(' to open the rights of " + kind);
            int rights = 0;
            do {
                int rightAt = here();
                String right = word("a right (read, search, compare, write, selfwrite, add, delete, proxy, all)");
                int bit = Rights.named(right);
                if (bit == 0) {
                    throw error(
                            rightAt,
                            "expected a right (read, search, compare, write, selfwrite, add, delete, proxy, all), found '"
                                    + right + "'");
                }
                rights |= bit;
            } while (accept(','));
            expect(')', "')' or ',' in the rights of " + kind);
            Subject subject = subject(0);
            return new Aci.Rule(kind.equals("allow"), rights, subject);
        }

        private Subject subject(int depth) throws AciSyntaxException {
            Subject left = and(depth);
            while (acceptWord("or")) {
                left = new Subject.Or(left, and(depth));
            }
            return left;
        }

        private Subject and(int depth) throws AciSyntaxException {
            Subject left = unary(depth);
            while (acceptWord("and")) {
                left = new Subject.And(left, unary(depth));
            }
            return left;
        }

        private Subject unary(int depth) throws AciSyntaxException {
            if (depth >= MAX_NESTING) {
                throw error(pos + 1, "subjects may nest at most " + MAX_NESTING + " deep");
            }
            if (acceptWord("not")) {
                return new Subject.Not(unary(depth + 1));
            }
            if (accept('(')) {
                Subject inner = subject(depth + 1);
                expect(')', "')' to close a parenthesized subject");
                return inner;
            }
            return bindRule();
        }

        private Subject bindRule() throws AciSyntaxException {
            int at = here();
            String keyword = word("a subject (userdn, groupdn, userattr, ip, authmethod, ssf)");
            return switch (keyword) {
                case "userdn" -> userDnRule();
                case "groupdn" -> groupDnRule();
                case "userattr" -> userAttrRule(at);
                case "ip" -> ipRule();
                case "authmethod" -> authMethodRule();
                case "ssf" -> ssfRule();
                default ->
                    throw error(
                            at,
                            "expected a subject (userdn, groupdn, userattr, ip, authmethod, ssf), found '" + keyword
                                    + "'");
            };
        }

        private Subject userDnRule() throws AciSyntaxException {
            boolean negated = operatorEqualsOrNot();
            int valueAt = here();
            return userDn(quoted(), negated, valueAt);
        }

        private Subject groupDnRule() throws AciSyntaxException {
            boolean negated = operatorEqualsOrNot();
            int valueAt = here();
            List<Dn> groups = new ArrayList<>();
            for (String url : split(quoted(), "||")) {
                groups.add(schemaDn(stripUrl(url, valueAt), valueAt));
            }
            return new Subject.GroupDn(groups, negated);
        }

        private Subject userAttrRule(int at) throws AciSyntaxException {
            if (operatorEqualsOrNot()) {
                throw error(at, "userattr takes '=', not '!='");
            }
            int valueAt = here();
            return userAttr(quoted(), valueAt);
        }

        private Subject ipRule() throws AciSyntaxException {
            boolean negated = operatorEqualsOrNot();
            int valueAt = here();
            List<IpNetwork> networks = new ArrayList<>();
            for (String item : split(quoted().replace("||", ","), ",")) {
                try {
                    networks.add(IpNetwork.parse(item));
                } catch (IllegalArgumentException e) {
                    throw error(valueAt, "ip: " + e.getMessage());
                }
            }
            return new Subject.Ip(networks, negated);
        }

        private Subject authMethodRule() throws AciSyntaxException {
            boolean negated = operatorEqualsOrNot();
            int valueAt = here();
            Set<String> methods = new LinkedHashSet<>();
            for (String item : split(quoted(), "||")) {
                String method = item.split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
                if (!Set.of("none", "simple", "ssl", "sasl").contains(method)) {
                    throw error(valueAt, "expected authmethod none, simple, ssl or sasl, found '" + item + "'");
                }
                methods.add(method);
            }
            return new Subject.AuthMethod(methods, negated);
        }

        private Subject ssfRule() throws AciSyntaxException {
            skipSpace();
            String op = comparison();
            skipSpace();
            int valueAt = here();
            String digits = peek('"') ? quoted() : token();
            if (digits.isEmpty() || digits.length() > 4 || !digits.chars().allMatch(Character::isDigit)) {
                throw error(valueAt, "expected a security strength (0 to 9999), found '" + digits + "'");
            }
            return new Subject.Ssf(op, Integer.parseInt(digits));
        }

        private Subject userDn(String value, boolean negated, int valueAt) throws AciSyntaxException {
            List<DnPattern> dns = new ArrayList<>();
            boolean anyone = false;
            boolean all = false;
            boolean self = false;
            for (String url : split(value, "||")) {
                String dn = stripUrl(url, valueAt);
                switch (dn.toLowerCase(Locale.ROOT)) {
                    case "anyone" -> anyone = true;
                    case "all" -> all = true;
                    case "self" -> self = true;
                    default -> dns.add(pattern(dn, valueAt));
                }
            }
            return new Subject.UserDn(dns, anyone, all, self, negated);
        }

        private Subject userAttr(String value, int valueAt) throws AciSyntaxException {
            int hash = value.indexOf('#');
            if (hash <= 0 || hash == value.length() - 1) {
                throw error(
                        valueAt,
                        "expected userattr \"attribute#USERDN\", \"attribute#GROUPDN\" or \"attribute#value\", found '"
                                + value + "'");
            }
            String oid = attribute(value.substring(0, hash).strip(), valueAt);
            String rest = value.substring(hash + 1).strip();
            return switch (rest.toUpperCase(Locale.ROOT)) {
                case "USERDN" -> new Subject.UserAttr(oid, Subject.UserAttr.Kind.USERDN, null);
                case "GROUPDN" -> new Subject.UserAttr(oid, Subject.UserAttr.Kind.GROUPDN, null);
                default -> new Subject.UserAttr(oid, Subject.UserAttr.Kind.VALUE, rest);
            };
        }

        private AttributeScope attributes(String value, boolean negated, int valueAt) throws AciSyntaxException {
            if (value.strip().equals("*")) {
                if (negated) {
                    throw error(valueAt, "targetattr != \"*\" would cover no attribute");
                }
                return AttributeScope.ALL;
            }
            Set<String> oids = new LinkedHashSet<>();
            for (String name : split(value, "||")) {
                String oid = schema.oid(name);
                if (oid != null) {
                    oids.add(oid);
                } else if (strict) {
                    throw error(valueAt, "unknown attribute type '" + name + "' in targetattr");
                }
            }
            return new AttributeScope(oids, negated, false);
        }

        private String attribute(String name, int valueAt) throws AciSyntaxException {
            String oid = schema.oid(name);
            if (oid == null) {
                throw error(valueAt, "unknown attribute type '" + name + "'");
            }
            return oid;
        }

        private TargetScope scope(String value, int valueAt) throws AciSyntaxException {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "base" -> TargetScope.BASE;
                case "onelevel" -> TargetScope.ONELEVEL;
                case "subtree" -> TargetScope.SUBTREE;
                case "subordinate" -> TargetScope.SUBORDINATE;
                default ->
                    throw error(
                            valueAt,
                            "expected targetscope base, onelevel, subtree or subordinate, found '" + value + "'");
            };
        }

        private Filter compile(String value, int valueAt) throws AciSyntaxException {
            // Bounded before the filter parser, which recurses per level and allocates per element.
            int depth = 0;
            int elements = 0;
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '(') {
                    if (++depth > MAX_TARGETFILTER_DEPTH) {
                        throw error(valueAt, "targetfilter nests deeper than " + MAX_TARGETFILTER_DEPTH + " levels");
                    }
                    if (++elements > MAX_TARGETFILTER_ELEMENTS) {
                        throw error(valueAt, "targetfilter has more than " + MAX_TARGETFILTER_ELEMENTS + " elements");
                    }
                } else if (c == ')') {
                    depth--;
                }
            }
            try {
                return schema.filter(value.strip());
            } catch (IllegalArgumentException e) {
                throw error(valueAt, "targetfilter: " + e.getMessage());
            }
        }

        private DnPattern ldapDn(String url, int valueAt) throws AciSyntaxException {
            return pattern(stripUrl(url, valueAt), valueAt);
        }

        private DnPattern pattern(String dn, int valueAt) throws AciSyntaxException {
            try {
                return schema.pattern(dn);
            } catch (IllegalArgumentException e) {
                throw error(valueAt, e.getMessage());
            }
        }

        private Dn schemaDn(String dn, int valueAt) throws AciSyntaxException {
            if (dn.indexOf('*') >= 0) {
                throw error(valueAt, "groupdn takes a DN, not a pattern: '" + dn + "'");
            }
            try {
                return schema.parse(dn);
            } catch (IllegalArgumentException e) {
                throw error(valueAt, e.getMessage());
            }
        }

        private String stripUrl(String url, int valueAt) throws AciSyntaxException {
            String u = url.strip();
            if (!u.regionMatches(true, 0, LDAP_URL, 0, LDAP_URL.length())) {
                throw error(valueAt, "expected an LDAP URL \"ldap:///DN\", found '" + u + "'");
            }
            return u.substring(LDAP_URL.length());
        }

        private List<String> split(String value, String separator) throws AciSyntaxException {
            List<String> items = new ArrayList<>();
            int from = 0;
            while (true) {
                int at = value.indexOf(separator, from);
                String item = (at < 0 ? value.substring(from) : value.substring(from, at)).strip();
                if (item.isEmpty()) {
                    throw error(pos, "empty item in '" + value + "'");
                }
                items.add(item);
                if (at < 0) {
                    return items;
                }
                from = at + separator.length();
            }
        }

        // ---- tokens ---------------------------------------------------------------------------

        private boolean peekTarget() {
            if (!peek('(')) {
                return false;
            }
            int save = pos;
            pos++;
            skipSpace();
            int start = pos;
            while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
                pos++;
            }
            boolean target = text.substring(start, pos).toLowerCase(Locale.ROOT).startsWith("target");
            pos = save;
            return target;
        }

        /** Reads {@code =} or {@code !=}; true for {@code !=}. */
        private boolean operatorEqualsOrNot() throws AciSyntaxException {
            skipSpace();
            if (accept('=')) {
                return false;
            }
            if (pos + 1 < text.length() && text.charAt(pos) == '!' && text.charAt(pos + 1) == '=') {
                pos += 2;
                return true;
            }
            throw error(pos + 1, "expected '=' or '!=', found '" + snippet() + "'");
        }

        private String comparison() throws AciSyntaxException {
            for (String op : List.of(">=", "<=", "!=", "=", ">", "<")) {
                if (text.startsWith(op, pos)) {
                    pos += op.length();
                    return op;
                }
            }
            throw error(pos + 1, "expected a comparison (=, !=, >=, >, <=, <), found '" + snippet() + "'");
        }

        private String quoted() throws AciSyntaxException {
            skipSpace();
            if (!peek('"')) {
                throw error(pos + 1, "expected a quoted string, found '" + snippet() + "'");
            }
            int open = pos + 1;
            pos++;
            StringBuilder out = new StringBuilder();
            while (pos < text.length()) {
                char c = text.charAt(pos++);
                if (c == '"') {
                    return out.toString();
                }
                if (c == '\\' && pos < text.length() && (text.charAt(pos) == '"' || text.charAt(pos) == '\\')) {
                    c = text.charAt(pos++);
                }
                out.append(c);
            }
            throw error(open, "the quoted string opened here is not closed");
        }

        private void keyword(String expected) throws AciSyntaxException {
            int at = here();
            String word = word("'" + expected + "'");
            if (!word.equals(expected)) {
                throw error(at, "expected '" + expected + "', found '" + word + "'");
            }
        }

        /** A run of letters, lower-cased; an error naming {@code what} when there is none. */
        private String word(String what) throws AciSyntaxException {
            skipSpace();
            int start = pos;
            while (pos < text.length() && Character.isLetter(text.charAt(pos))) {
                pos++;
            }
            if (start == pos) {
                throw error(pos + 1, "expected " + what + ", found '" + snippet() + "'");
            }
            return text.substring(start, pos).toLowerCase(Locale.ROOT);
        }

        private boolean acceptWord(String expected) {
            skipSpace();
            int end = pos + expected.length();
            if (end <= text.length()
                    && text.regionMatches(true, pos, expected, 0, expected.length())
                    && (end == text.length() || !Character.isLetter(text.charAt(end)))) {
                pos = end;
                return true;
            }
            return false;
        }

        /** Characters up to white space or punctuation. */
        private String token() {
            skipSpace();
            int start = pos;
            while (pos < text.length()
                    && !Character.isWhitespace(text.charAt(pos))
                    && ";()\"".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
            return text.substring(start, pos);
        }

        private void expect(char c, String what) throws AciSyntaxException {
            if (!accept(c)) {
                throw error(pos + 1, "expected " + what + ", found '" + snippet() + "'");
            }
        }

        private boolean accept(char c) {
            skipSpace();
            if (pos < text.length() && text.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        private boolean peek(char c) {
            skipSpace();
            return pos < text.length() && text.charAt(pos) == c;
        }

        /** Skips white space; the 1-based position of what comes next. */
        private int here() {
            skipSpace();
            return pos + 1;
        }

        private void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private String snippet() {
            if (pos >= text.length()) {
                return "end of text";
            }
            return text.substring(pos, Math.min(text.length(), pos + 12));
        }

        private void refuseRepeat(Object existing, String keyword, int start) throws AciSyntaxException {
            if (existing != null) {
                throw error(start + 1, keyword + " is given twice");
            }
        }

        private void refuseNegation(boolean negated, String keyword, int start) throws AciSyntaxException {
            if (negated) {
                throw error(start + 1, keyword + " takes '=', not '!='");
            }
        }

        private AciSyntaxException error(int position, String problem) {
            return new AciSyntaxException(position, problem);
        }
    }
}
