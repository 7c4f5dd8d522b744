package dev.larch.server.entry;

import org.apache.directory.api.ldap.model.schema.Normalizer;
import org.apache.directory.api.ldap.model.schema.normalizers.DeepTrimToLowerNormalizer;

/**
 * The Apache Directory API's {@link DeepTrimToLowerNormalizer} (caseIgnoreMatch, caseIgnoreIA5Match:
 * uid, mail, cn...) for a value all in ASCII, written straight into its UTF-8 bytes. The API's
 * normalizer maps the value, tests it for NFKC, checks prohibited characters and handles
 * insignificant spaces through four char arrays and three strings, about 600 bytes for a
 * twenty-character value; a search normalizes its assertion and each candidate's value.
 *
 * <p>For ASCII the API's steps reduce to (RFC 4518 section 2, as {@code PrepareString} implements
 * it): U+0000-0008, U+000E-001F and U+007F map to nothing, U+0009-000D to a space, A-Z to a-z, the
 * rest to itself; ASCII is its own NFKC form and holds no prohibited character; then the value is
 * a space, its words (runs of non-spaces) each followed by two spaces but the last, and a space
 * ({@code " a  b "}), or two spaces when it has no word. A value with any other character goes to
 * the API. {@code CaseIgnoreAsciiTest} holds the two to the same answers.
 *
 * <p>Stateless and thread-safe.
 */
public final class CaseIgnoreAscii {
    private static final byte SPACE = ' ';

    private CaseIgnoreAscii() {}

    /** Whether {@link #normalize} answers for the values {@code normalizer} normalizes. */
    public static boolean handles(Normalizer normalizer) {
        // Exactly the API's class: a subclass may normalize otherwise.
        return normalizer != null && normalizer.getClass() == DeepTrimToLowerNormalizer.class;
    }

    /**
     * What {@code DeepTrimToLowerNormalizer.normalize(new String(utf8, UTF_8))} returns, as UTF-8;
     * null when {@code utf8} holds an octet outside ASCII, for the API to normalize.
     */
    public static byte[] normalize(byte[] utf8) {
        for (byte b : utf8) {
            if (b < 0) {
                return null;
            }
        }
        byte[] out = new byte[normalizedLength(utf8, utf8.length)];
        write(utf8, utf8.length, out);
        return out;
    }

    /** {@link #normalize(byte[])} of a value given as a string; null when it holds a character outside ASCII. */
    public static byte[] normalize(String value) {
        int n = value.length();
        byte[] ascii = new byte[n];
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c >= 0x80) {
                return null;
            }
            ascii[i] = (byte) c;
        }
        return normalize(ascii);
    }

    /** The mapped octet, or -1 for a character mapped to nothing (RFC 4518 section 2.2, ASCII part). */
    private static int map(int c) {
        if (c <= 0x08 || (c >= 0x0E && c <= 0x1F) || c == 0x7F) {
            return -1;
        }
        if (c <= 0x0D) {
            return SPACE;
        }
        return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }

    private static int normalizedLength(byte[] in, int length) {
        int chars = 0;
        int words = 0;
        boolean inWord = false;
        for (int i = 0; i < length; i++) {
            int c = map(in[i]);
            if (c < 0) {
                continue;
            }
            if (c == SPACE) {
                inWord = false;
            } else {
                chars++;
                if (!inWord) {
                    words++;
                    inWord = true;
                }
            }
        }
        // " w1  w2 ... wn ": one space before, two between words, one after; no word: two spaces.
        return words == 0 ? 2 : chars + 2 * words;
    }

    private static void write(byte[] in, int length, byte[] out) {
        int at = 0;
        boolean inWord = false;
        boolean anyWord = false;
        for (int i = 0; i < length; i++) {
            int c = map(in[i]);
            if (c < 0) {
                continue;
            }
            if (c == SPACE) {
                inWord = false;
                continue;
            }
            if (!inWord) {
                if (anyWord) {
                    out[at++] = SPACE;
                    out[at++] = SPACE;
                } else {
                    out[at++] = SPACE;
                }
                anyWord = true;
                inWord = true;
            }
            out[at++] = (byte) c;
        }
        if (anyWord) {
            out[at] = SPACE;
        } else {
            out[0] = SPACE;
            out[1] = SPACE;
        }
    }
}
