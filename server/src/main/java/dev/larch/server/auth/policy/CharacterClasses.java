package dev.larch.server.auth.policy;

/**
 * The character classes of Larch's quality rule {@code larchPwdMinCharClasses}: lower-case letters,
 * upper-case letters, digits, and everything else (punctuation, spaces, symbols, and letters without
 * case such as CJK ideographs). Classes follow Unicode, not ASCII: {@code é} is lower-case, {@code ٣}
 * a digit.
 */
final class CharacterClasses {
    private static final int LOWER = 1;
    private static final int UPPER = 2;
    private static final int DIGIT = 4;
    private static final int OTHER = 8;

    private CharacterClasses() {}

    /** How many of the four classes {@code password} uses, 0..4. */
    static int count(String password) {
        int seen = 0;
        for (int i = 0; i < password.length(); ) {
            int c = password.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isLowerCase(c)) {
                seen |= LOWER;
            } else if (Character.isUpperCase(c) || Character.isTitleCase(c)) {
                seen |= UPPER;
            } else if (Character.isDigit(c)) {
                seen |= DIGIT;
            } else {
                seen |= OTHER;
            }
        }
        return Integer.bitCount(seen);
    }
}
