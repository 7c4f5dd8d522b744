package dev.larch.config;

import java.util.Locale;
import java.util.Optional;

/** The kinds of attribute index the store can maintain; which attributes get which is configured. */
public enum IndexKind {
    /** Answers equality filters ({@code (uid=jdoe)}) from normalized values. */
    EQUALITY,
    /** Answers presence filters ({@code (mail=*)}). */
    PRESENCE,
    /** Answers substring filters ({@code (cn=*smith*)}) from value fragments. */
    SUBSTRING,
    /** Answers {@code >=} and {@code <=} filters from values kept in ordering-rule order. */
    ORDERING;

    /**
     * The kind spelled as in the config file, ignoring case and surrounding blanks.
     *
     * @param word for example {@code "equality"}; never null
     * @return the kind, or empty when the word names none
     */
    public static Optional<IndexKind> fromConfigWord(String word) {
        String wanted = word.strip().toUpperCase(Locale.ROOT);
        for (IndexKind kind : values()) {
            if (kind.name().equals(wanted)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }

    /** How the config file spells this kind. */
    public String configWord() {
        return name().toLowerCase(Locale.ROOT);
    }
}
