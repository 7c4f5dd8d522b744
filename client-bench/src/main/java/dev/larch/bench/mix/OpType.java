package dev.larch.bench.mix;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What one mix operation sends; the mix file's {@code type} field. */
public enum OpType {
    /** A search with templated base and filter. */
    SEARCH,
    /** Replaces one non-key attribute of a person. */
    MODIFY,
    /** Adds an entry the worker owns, under a people container. */
    ADD,
    /** Deletes the worker's oldest own entry (adds one when it owns none). */
    DELETE,
    /** Compares an attribute value of a person, expecting compareTrue or compareFalse. */
    COMPARE,
    /** Renames the worker's oldest own entry (adds one when it owns none). */
    MODRDN,
    /** Binds the worker's connection as a person. */
    BIND,
    /** Binds the worker's connection as a person, then reads that person's entry. */
    AUTHENTICATE,
    /** Opens a new connection, binds as a person, reads that person's entry, unbinds. */
    CHURN;

    /** The name in mix files. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Changes the data (needs a bind DN with write rights). */
    public boolean writes() {
        return this == MODIFY || this == ADD || this == DELETE || this == MODRDN;
    }

    /** Changes who the worker's connection is bound as. */
    public boolean rebindsConnection() {
        return this == BIND || this == AUTHENTICATE;
    }

    public static Optional<OpType> byLabel(String label) {
        return Arrays.stream(values()).filter(t -> t.label().equals(label)).findFirst();
    }
}
