package dev.larch.bench.mix;

import java.util.Locale;

/**
 * The shape a correct answer has. An answer of another shape is a wrong answer, counted apart
 * from errors and never as a success.
 */
public enum Expectation {
    /** Exactly one entry (an exact lookup, a base read). */
    ONE,
    /** No entry (a lookup of someone who does not exist). */
    NONE,
    /** At least one entry (a wildcard search built from a real name). */
    SOME,
    /** Any number of entries. */
    ANY;

    /** Whether {@code entries} entries form a correct answer. */
    public boolean accepts(int entries) {
        return switch (this) {
            case ONE -> entries == 1;
            case NONE -> entries == 0;
            case SOME -> entries >= 1;
            case ANY -> true;
        };
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
