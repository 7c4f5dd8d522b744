package dev.larch.server.auth;

import java.util.Locale;

import dev.larch.config.Passwords;

/**
 * Hashes cleartext passwords the way the configuration says: {@code security.password-scheme} at
 * the costs of {@code security.pbkdf2-iterations} and {@code security.argon2-*}.
 *
 * <p>Immutable and thread-safe. A hash takes tens of milliseconds with the slow schemes: call it
 * off the event loops.
 */
public final class PasswordHasher {
    private final String scheme;
    private final NewHashCost cost;

    /**
     * @param scheme a scheme name {@link PasswordSchemes#hash} knows, any case
     * @throws IllegalArgumentException for an unknown scheme
     */
    public PasswordHasher(String scheme, Passwords passwords) {
        this.scheme = scheme.toUpperCase(Locale.ROOT);
        this.cost = NewHashCost.of(passwords);
        if (!PasswordSchemes.supportedSchemes().contains(this.scheme)) {
            throw new IllegalArgumentException("unknown password scheme '" + scheme + "'");
        }
    }

    /** The scheme name, upper case, as written between the braces. */
    public String scheme() {
        return scheme;
    }

    /**
     * @param cleartext the password; must not be empty
     * @return the value to store, {@code {SCHEME}...}, ASCII, with a fresh salt
     */
    public byte[] hash(byte[] cleartext) {
        return PasswordSchemes.hash(scheme, cleartext, cost);
    }
}
