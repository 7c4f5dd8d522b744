package dev.larch.bench.gen;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The given-name and family-name lists, synthesised from syllables with a fixed seed.
 *
 * <p>The lists do not depend on the data seed, so every data set draws from the same names (as
 * dbgen's fixed lists did); the sizes match the original lists (8,606 and 13,419). Names are ASCII
 * letters only, capitalised once, and distinct ignoring case, which lets the generator build unique
 * {@code cn}, {@code uid} and {@code mail} values from unique (given, family) pairs.
 */
public final class NameLists {
    public static final int GIVEN_COUNT = 8_606;
    public static final int FAMILY_COUNT = 13_419;
    private static final long LIST_SEED = 0x4C617263684E616DL; // "LarchNam"

    private static final String[] ONSETS = {
        "b", "br", "c", "ch", "cl", "d", "dr", "f", "fr", "g", "gr", "h", "j", "k", "kr", "l", "m", "n", "p", "pr", "r",
        "s", "sh", "st", "t", "tr", "v", "w", "z", "", "", ""
    };
    private static final String[] VOWELS = {"a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "ie", "ou", "y"};
    private static final String[] CODAS = {"", "", "", "n", "r", "l", "s", "m", "nd", "rt", "ck", "th", "ll", "x"};
    private static final String[] FAMILY_ENDINGS = {
        "", "", "", "", "son", "sen", "man", "ley", "ton", "berg", "ez", "ski", "ford", "well", "ner", "ini"
    };

    private final List<String> given;
    private final List<String> family;

    private NameLists(List<String> given, List<String> family) {
        this.given = given;
        this.family = family;
    }

    /** Builds the standard lists; costs a few milliseconds. */
    public static NameLists standard() {
        SplitMix64 rng = new SplitMix64(LIST_SEED);
        Set<String> seen = new HashSet<>();
        List<String> given = build(rng, GIVEN_COUNT, 2, 3, false, seen);
        List<String> family = build(rng, FAMILY_COUNT, 2, 3, true, seen);
        return new NameLists(given, family);
    }

    private static List<String> build(
            SplitMix64 rng, int count, int minSyl, int maxSyl, boolean family, Set<String> seenLower) {
        Set<String> names = new LinkedHashSet<>();
        StringBuilder sb = new StringBuilder();
        while (names.size() < count) {
            sb.setLength(0);
            int syllables = rng.between(minSyl, maxSyl);
            for (int s = 0; s < syllables; s++) {
                sb.append(ONSETS[rng.nextInt(ONSETS.length)]).append(VOWELS[rng.nextInt(VOWELS.length)]);
                if (s == syllables - 1 || rng.nextInt(3) == 0) {
                    sb.append(CODAS[rng.nextInt(CODAS.length)]);
                }
            }
            if (family) {
                sb.append(FAMILY_ENDINGS[rng.nextInt(FAMILY_ENDINGS.length)]);
            }
            if (sb.length() < 3 || sb.length() > 14 || hasTriple(sb)) {
                continue;
            }
            String lower = sb.toString();
            // Given and family names are kept apart too, so "Lee Lee" style collisions stay rare and
            // names stay distinct ignoring case across both lists.
            if (seenLower.add(lower)) {
                names.add(Character.toUpperCase(lower.charAt(0)) + lower.substring(1));
            }
        }
        return List.copyOf(names);
    }

    /** "Toulllysberg" reads as a typo; letters tripled by joining syllables are redrawn. */
    private static boolean hasTriple(CharSequence s) {
        for (int i = 2; i < s.length(); i++) {
            if (s.charAt(i) == s.charAt(i - 1) && s.charAt(i) == s.charAt(i - 2)) {
                return true;
            }
        }
        return false;
    }

    public List<String> given() {
        return given;
    }

    public List<String> family() {
        return family;
    }
}
