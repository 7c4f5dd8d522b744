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
 */
public record Security(String adminPassword, boolean allowCleartextPasswords, String passwordScheme) {
    /** The hashing schemes the server can produce, as written in {@code {SCHEME}} prefixes. */
    public static final List<String> SUPPORTED_SCHEMES = List.of("SSHA", "SSHA256", "SSHA512", "PBKDF2-SHA256");

    public Security {
        Objects.requireNonNull(passwordScheme, "passwordScheme");
    }

    /** Keeps the admin password out of logs and exception messages. */
    @Override
    public String toString() {
        return "Security[adminPassword=" + (adminPassword == null ? "null" : "(set)")
                + ", allowCleartextPasswords=" + allowCleartextPasswords
                + ", passwordScheme=" + passwordScheme + "]";
    }
}
