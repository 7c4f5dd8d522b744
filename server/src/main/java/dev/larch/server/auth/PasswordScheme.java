package dev.larch.server.auth;

import java.security.SecureRandom;

/**
 * One {@code {SCHEME}} of hashed {@code userPassword} values. Implementations are immutable and
 * thread-safe.
 */
interface PasswordScheme {
    /** The name inside the braces, upper case, for example {@code SSHA256}. */
    String name();

    /**
     * Whether a presented password matches a stored value of this scheme. A malformed stored value
     * matches nothing. Compares in time independent of where the first difference is.
     *
     * @param encoded the stored value after the {@code {SCHEME}} prefix
     * @param presented the password as the client sent it; never empty
     */
    boolean matches(String encoded, byte[] presented);

    /**
     * How many times {@link #matches} would iterate its hash for this stored value: its iteration
     * count, or 1 for a single-pass scheme. Cheap: parses, never hashes.
     *
     * @param encoded the stored value after the {@code {SCHEME}} prefix
     * @return at least 1 for a well-formed value; 0 when the count cannot be read (the value then
     *     matches nothing)
     */
    int iterations(String encoded);

    /**
     * What this stored value costs to check, as a string equal for equal costs: its iteration count
     * by default. Cheap: parses, never hashes.
     */
    default String cost(String encoded) {
        return Integer.toString(iterations(encoded));
    }

    /**
     * Whether checking this stored value stays within {@code limits}. Cheap: parses, never hashes.
     * A malformed value is affordable (it matches nothing without hashing).
     */
    default boolean affordable(String encoded, HashCostLimits limits) {
        return iterations(encoded) <= limits.maxIterations();
    }

    /**
     * Hashes a password with a fresh salt.
     *
     * @return the value to store after the {@code {SCHEME}} prefix (ASCII)
     */
    String encode(byte[] password, SecureRandom random);

    /** {@link #encode(byte[], SecureRandom)} at a configured cost; single-pass schemes ignore it. */
    default String encode(byte[] password, SecureRandom random, NewHashCost cost) {
        return encode(password, random);
    }
}
