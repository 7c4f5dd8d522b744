package dev.larch.config;

import java.util.List;
import java.util.Objects;

/**
 * Authentication settings.
 *
 * @param adminPassword the password of {@code cn=admin,<suffix>}, either cleartext or already hashed
 *     in {@code {SCHEME}...} form; null when not configured (the server then falls back to the
 *     environment, then to a generated one)
 * @param allowCleartextPasswords whether a {@code userPassword} stored without a {@code {SCHEME}}
 *     prefix may be used for simple binds
 * @param passwordScheme the scheme used when the server hashes a password, one of
 *     {@link #SUPPORTED_SCHEMES}; never null
 * @param maxPasswordIterations the highest iteration count of a stored hash ({@code {PBKDF2...}})
 *     that a bind will compute; a value beyond it is refused with invalidCredentials, so a planted
 *     hash cannot pin a core
 * @param bindFailureDelayMillis the delay of the first slowed failed bind; it doubles with each
 *     further failure on the same DN or from the same address; 0 turns the slowing off
 * @param bindFailureMaxDelayMillis the longest such delay
 */
public record Security(
        String adminPassword,
        boolean allowCleartextPasswords,
        String passwordScheme,
        int maxPasswordIterations,
        int bindFailureDelayMillis,
        int bindFailureMaxDelayMillis) {
    /** The hashing schemes the server can produce, as written in {@code {SCHEME}} prefixes. */
    public static final List<String> SUPPORTED_SCHEMES =
            List.of("SSHA", "SSHA256", "SSHA512", "PBKDF2-SHA256", "ARGON2");

    public Security {
        Objects.requireNonNull(passwordScheme, "passwordScheme");
        if (maxPasswordIterations < 1) {
            throw new IllegalArgumentException("maxPasswordIterations must be at least 1");
        }
        if (bindFailureDelayMillis < 0 || bindFailureMaxDelayMillis < bindFailureDelayMillis) {
            throw new IllegalArgumentException("need 0 <= bindFailureDelayMillis <= bindFailureMaxDelayMillis");
        }
    }

    /** Keeps the admin password out of logs and exception messages. */
    @Override
    public String toString() {
        return "Security[adminPassword=" + (adminPassword == null ? "null" : "(set)")
                + ", allowCleartextPasswords=" + allowCleartextPasswords
                + ", passwordScheme=" + passwordScheme
                + ", maxPasswordIterations=" + maxPasswordIterations
                + ", bindFailureDelayMillis=" + bindFailureDelayMillis
                + ", bindFailureMaxDelayMillis=" + bindFailureMaxDelayMillis + "]";
    }
}
