package dev.larch.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Access control settings.
 *
 * @param file {@code access.file}: the global ACIs (one per line, 389-DS / OpenDJ syntax) that cover
 *     what no entry holds (the root DSE, {@code cn=Subschema}) and form the base of every decision;
 *     null for the built-in rules, the same as the shipped {@code config/access.aci}
 */
public record Access(Path file) {
    /** The built-in rules. */
    public static final Access BUILT_IN = new Access(null);

    /** The configured file, empty for the built-in rules. */
    public Optional<Path> configuredFile() {
        return Optional.ofNullable(file);
    }
}
