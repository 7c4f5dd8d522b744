package dev.larch.server.access;

/**
 * A DN or DN pattern from {@code target}, {@code userdn} or {@code groupdn}, in the canonical form of
 * {@link AciSchema#canonical}: {@code *} in a value matches any run of characters, commas included (as
 * in 389-DS), so {@code uid=*,ou=people,dc=example,dc=com} also matches entries deeper below
 * {@code ou=people}. Immutable.
 *
 * @param canonical the canonical DN, with {@code *} kept as the wildcard
 * @param rdns how many RDNs the DN has
 */
record DnPattern(String canonical, int rdns) {

    boolean isWildcard() {
        return canonical.indexOf('*') >= 0;
    }

    /** Whether a canonical DN is this one, or matches this pattern. */
    boolean matches(String dn) {
        return isWildcard() ? Glob.matches(canonical, dn) : canonical.equals(dn);
    }

    /**
     * How many levels {@code dn} lies below this (exact) DN: 0 when it is this DN, -1 when it is not
     * within it.
     *
     * @param dnRdns how many RDNs {@code dn} has
     */
    int depthOf(String dn, int dnRdns) {
        if (canonical.isEmpty()) {
            return dnRdns;
        }
        if (dn.equals(canonical)) {
            return 0;
        }
        int offset = dn.length() - canonical.length();
        if (offset > 0 && dn.endsWith(canonical) && dn.charAt(offset - 1) == ',' && !escaped(dn, offset - 1)) {
            return dnRdns - rdns;
        }
        return -1;
    }

    private static boolean escaped(String s, int index) {
        int backslashes = 0;
        for (int i = index - 1; i >= 0 && s.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    /** {@code *}-only globbing, linear in practice: one backtrack point, as for shell patterns. */
    static final class Glob {
        private Glob() {}

        static boolean matches(String pattern, String text) {
            int p = 0;
            int t = 0;
            int star = -1;
            int mark = 0;
            while (t < text.length()) {
                if (p < pattern.length() && pattern.charAt(p) == '*') {
                    star = p++;
                    mark = t;
                } else if (p < pattern.length() && pattern.charAt(p) == text.charAt(t)) {
                    p++;
                    t++;
                } else if (star >= 0) {
                    p = star + 1;
                    t = ++mark;
                } else {
                    return false;
                }
            }
            while (p < pattern.length() && pattern.charAt(p) == '*') {
                p++;
            }
            return p == pattern.length();
        }
    }
}
