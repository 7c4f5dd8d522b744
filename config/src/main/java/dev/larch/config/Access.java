package dev.larch.config;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Access control settings: the rules, and what a connection must have before it may use them.
 *
 * @param file {@code access.file}: the global ACIs (one per line, 389-DS / OpenDJ syntax) that cover
 *     what no entry holds (the root DSE, {@code cn=Subschema}) and form the base of every decision;
 *     null for the built-in rules, the same as the shipped {@code config/access.aci}
 * @param minSsf {@code security.min-ssf}: the security strength (the TLS cipher's key bits) a
 *     connection needs for operations other than bind, StartTLS and reading the root DSE; 0 for none
 * @param allowAnonymous {@code security.allow-anonymous}: false refuses anonymous binds and every
 *     operation of an unauthenticated session but bind, StartTLS and reading the root DSE
 */
public record Access(Path file, int minSsf, boolean allowAnonymous) {
    /** The highest strength a cipher has (AES-256, ChaCha20). */
    public static final int MAX_SSF = 256;

    public Access {
        if (minSsf < 0 || minSsf > MAX_SSF) {
            throw new IllegalArgumentException("minSsf must be 0.." + MAX_SSF + ", got " + minSsf);
        }
    }

    /** The configured file, empty for the built-in rules. */
    public Optional<Path> configuredFile() {
        return Optional.ofNullable(file);
    }
}
