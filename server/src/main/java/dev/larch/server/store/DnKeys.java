package dev.larch.server.store;

import java.util.Arrays;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The equality index key of a DN value: its normalized DN with the RDNs in reverse order, the
 * naming context's first ({@code uid=a,ou=x,dc=example,dc=com} is keyed {@code
 * dc=com,dc=example,ou=x,uid=a}). Every DN strictly below a root then has a key starting with the
 * root's key and a comma ({@link #prefixBelow}), so "which values name an entry below X" is one
 * key-range read, however many entries X has below it; and a key cut at LMDB's key size keeps the
 * DN's upper part, so it still falls in the range of each root it is below.
 *
 * <p>The reversal splits at commas that are not escaped (an even run of backslashes before them):
 * a normalized DN escapes a comma inside a value, and neither byte occurs inside a multi-byte UTF-8
 * character. It keeps the length and is its own inverse. A name-and-optional-UID value ({@code
 * uniqueMember}) is reversed as a DN; one with a UID ({@code ...,dc=com#'0101'B}) then keeps the
 * UID on its naming context's RDN, so it is found by equality but not below any root, as before.
 */
public final class DnKeys {
    /** The syntaxes whose values are keyed this way: DN and name-and-optional-UID. */
    private static final String DN_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.12";

    private static final String NAME_AND_OPTIONAL_UID_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.34";

    private DnKeys() {}

    /** Whether an attribute of {@code syntaxOid} (null for unknown) has its equality keys reversed. */
    public static boolean reverses(String syntaxOid) {
        return DN_SYNTAX.equals(syntaxOid) || NAME_AND_OPTIONAL_UID_SYNTAX.equals(syntaxOid);
    }

    /** {@code dn} (normalized, UTF-8) with its RDNs in reverse order; a new array, or {@code dn} when it has one RDN. */
    public static byte[] reverse(byte[] dn) {
        int commas = 0;
        for (int i = 0; i < dn.length; i++) {
            if (isSeparator(dn, i)) {
                commas++;
            }
        }
        if (commas == 0) {
            return dn;
        }
        byte[] out = new byte[dn.length];
        int end = dn.length; // the RDN being copied ends here (exclusive), read from the right
        int o = 0;
        for (int i = dn.length - 1; i >= 0; i--) {
            if (isSeparator(dn, i)) {
                System.arraycopy(dn, i + 1, out, o, end - i - 1);
                o += end - i - 1;
                out[o++] = ',';
                end = i;
            }
        }
        System.arraycopy(dn, 0, out, o, end);
        return out;
    }

    /**
     * The key prefix of every DN strictly below {@code normalizedRoot} ({@code Dn.getNormName()}): its
     * key and a comma.
     */
    public static byte[] prefixBelow(String normalizedRoot) {
        byte[] root = reverse(normalizedRoot.getBytes(UTF_8));
        byte[] prefix = Arrays.copyOf(root, root.length + 1);
        prefix[root.length] = ',';
        return prefix;
    }

    /** Whether the byte at {@code at} is a comma separating two RDNs (not escaped). */
    private static boolean isSeparator(byte[] dn, int at) {
        if (dn[at] != ',') {
            return false;
        }
        int backslashes = 0;
        for (int i = at - 1; i >= 0 && dn[i] == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 0;
    }
}
