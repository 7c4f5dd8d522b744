package dev.larch.bench.mix;

import java.util.Arrays;
import java.util.Optional;

/**
 * The placeholders a mix may use in bases and filters, and what each needs from the data file.
 *
 * <p>All person variables of one request come from the same sampled person, so a filter such as
 * {@code (&(givenName=${givenName})(sn=${sn}))} matches somebody.
 */
public enum Variable {
    MAIL("mail", "mail"),
    UID("uid", "uid"),
    CN("cn", "cn"),
    SN("sn", "sn"),
    GIVEN_NAME("givenName", "givenName"),
    /** The first 4 or 5 characters of a real surname (the whole name if shorter). */
    SN_PREFIX("snPrefix", "sn"),
    /** The first 4 or 5 characters of a real given name. */
    GIVEN_NAME_PREFIX("givenNamePrefix", "givenName"),
    PERSON_DN("personDn", "person entries"),
    GROUP_DN("groupDn", "groupOfNames entries with members"),
    /** The DN of the data file's first entry. */
    SUFFIX("suffix", null),
    /** A "Given Surname" that exists nowhere: a real given name with a surname no data set has. */
    ABSENT_NAME("absentName", null),
    ABSENT_MAIL("absentMail", null),
    /**
     * A DN under a real people container that no entry has: {@code cn=<absent name>,<container>}, the
     * one base for which noSuchObject is the right answer.
     */
    ABSENT_PERSON_DN("absentPersonDn", "person entries"),
    /** A random token (letters and digits), e.g. a new value for a modify. */
    RANDOM("random", null);

    private final String placeholder;
    private final String needs;

    Variable(String placeholder, String needs) {
        this.placeholder = placeholder;
        this.needs = needs;
    }

    public String placeholder() {
        return placeholder;
    }

    /** What the data file must contain for this variable, for messages; null if nothing. */
    public String needs() {
        return needs;
    }

    public boolean isPersonAttribute() {
        return switch (this) {
            case MAIL, UID, CN, SN, GIVEN_NAME, SN_PREFIX, GIVEN_NAME_PREFIX -> true;
            default -> false;
        };
    }

    public static Optional<Variable> byPlaceholder(String name) {
        return Arrays.stream(values()).filter(v -> v.placeholder.equals(name)).findFirst();
    }
}
