package dev.larch.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Checks and produces {@code userPassword} values in the formats OpenLDAP writes, so a directory
 * exported from slapd keeps working: {@code {SSHA}}, {@code {SSHA256}}, {@code {SSHA512}} and
 * {@code {PBKDF2}}, {@code {PBKDF2-SHA1}}, {@code {PBKDF2-SHA256}}, {@code {PBKDF2-SHA512}},
 * {@code {ARGON2}} (pw-argon2), plus
 * cleartext (a value with no {@code {SCHEME}} prefix) where the configuration allows it. Scheme names
 * are matched ignoring case, as slapd does.
 *
 * <p>Stateless and thread-safe.
 */
public final class PasswordSchemes {
    private static final Map<String, PasswordScheme> SCHEMES = schemes(
            new SaltedDigestScheme("SSHA", "SHA-1"),
            new SaltedDigestScheme("SSHA256", "SHA-256"),
            new SaltedDigestScheme("SSHA512", "SHA-512"),
            new Pbkdf2Scheme("PBKDF2", "HmacSHA1"),
            new Pbkdf2Scheme("PBKDF2-SHA1", "HmacSHA1"),
            new Pbkdf2Scheme("PBKDF2-SHA256", "HmacSHA256"),
            new Pbkdf2Scheme("PBKDF2-SHA512", "HmacSHA512"),
            new Argon2Scheme());

    private static final SecureRandom RANDOM = new SecureRandom();

    private PasswordSchemes() {}

    /**
     * Whether a password presented in a simple bind matches a stored {@code userPassword} value.
     *
     * @param storedUserPassword one stored value, for example {@code {SSHA256}base64...}; never null
     * @param presented the password from the bind request; never null. An empty password matches
     *     nothing: RFC 4513 section 5.1.2 makes a bind with one an unauthenticated bind, never a check.
     * @param allowCleartext whether a stored value without a {@code {SCHEME}} prefix may be compared
     *     as cleartext; when false such values match nothing
     * @return true only on a match; false for a mismatch, an unknown scheme or a malformed value. The
     *     comparison takes the same time wherever the values differ.
     */
    public static boolean verify(byte[] storedUserPassword, byte[] presented, boolean allowCleartext) {
        return check(storedUserPassword, presented, allowCleartext, Integer.MAX_VALUE) == PasswordCheck.MATCH;
    }

    /**
     * {@link #verify} that refuses to compute a hash whose iteration count is above a bound.
     *
     * @param maxIterations the highest iteration count computed; a stored value asking for more is
     *     not hashed and gives {@link PasswordCheck#TOO_COSTLY}
     * @return {@link PasswordCheck#MATCH} only on a match; {@link PasswordCheck#MISMATCH} for a
     *     mismatch, an unknown scheme or a malformed value
     */
    public static PasswordCheck check(
            byte[] storedUserPassword, byte[] presented, boolean allowCleartext, int maxIterations) {
        return check(storedUserPassword, presented, allowCleartext, HashCostLimits.iterations(maxIterations));
    }

    /**
     * {@link #verify} that refuses to compute a hash costlier than {@code limits}.
     *
     * @return {@link PasswordCheck#MATCH} only on a match; {@link PasswordCheck#TOO_COSTLY} when the
     *     stored value asks for more than {@code limits} (nothing is hashed);
     *     {@link PasswordCheck#MISMATCH} otherwise
     */
    public static PasswordCheck check(
            byte[] storedUserPassword, byte[] presented, boolean allowCleartext, HashCostLimits limits) {
        if (presented.length == 0) {
            return PasswordCheck.MISMATCH;
        }
        Optional<Prefixed> prefixed = Prefixed.parse(storedUserPassword);
        if (prefixed.isEmpty()) {
            return allowCleartext && MessageDigest.isEqual(storedUserPassword, presented)
                    ? PasswordCheck.MATCH
                    : PasswordCheck.MISMATCH;
        }
        PasswordScheme scheme = SCHEMES.get(prefixed.get().scheme());
        if (scheme == null) {
            return PasswordCheck.MISMATCH;
        }
        String rest = prefixed.get().rest();
        if (!scheme.affordable(rest, limits)) {
            return PasswordCheck.TOO_COSTLY;
        }
        return scheme.matches(rest, presented) ? PasswordCheck.MATCH : PasswordCheck.MISMATCH;
    }

    /**
     * Whether {@code presented} matches {@code storedUserPassword} when checking it costs no more than
     * one pass of a digest: a salted SHA ({@code {SSHA}}, {@code {SSHA256}}, {@code {SSHA512}}) or, when
     * allowed, cleartext. False for a mismatch and for every other value (an iterating scheme, an
     * unknown one, a malformed one), which only the full {@link #check} may decide. Cheap enough for an
     * event loop: a few microseconds.
     */
    public static boolean matchesCheaply(byte[] storedUserPassword, byte[] presented, boolean allowCleartext) {
        if (presented.length == 0) {
            return false;
        }
        Optional<Prefixed> prefixed = Prefixed.parse(storedUserPassword);
        if (prefixed.isEmpty()) {
            return allowCleartext && MessageDigest.isEqual(storedUserPassword, presented);
        }
        PasswordScheme scheme = SCHEMES.get(prefixed.get().scheme());
        return scheme instanceof SaltedDigestScheme digest
                && digest.matches(prefixed.get().rest(), presented);
    }

    /**
     * Hashes a password with a fresh random salt.
     *
     * @param scheme a scheme name without braces, any case, for example {@code SSHA256}
     * @param password the cleartext password; must not be empty
     * @return the value to store in {@code userPassword}, {@code {SCHEME}...}, ASCII
     * @throws IllegalArgumentException for an unknown scheme or an empty password
     */
    public static byte[] hash(String scheme, byte[] password) {
        return hash(scheme, password, NewHashCost.DEFAULTS);
    }

    /** {@link #hash(String, byte[])} at a configured cost. */
    static byte[] hash(String scheme, byte[] password, NewHashCost cost) {
        PasswordScheme s = SCHEMES.get(scheme.toUpperCase(Locale.ROOT));
        if (s == null) {
            throw new IllegalArgumentException(
                    "unknown password scheme '" + scheme + "'; supported: " + String.join(", ", supportedSchemes()));
        }
        if (password.length == 0) {
            throw new IllegalArgumentException("an empty password cannot be hashed");
        }
        return ("{" + s.name() + "}" + s.encode(password, RANDOM, cost)).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Whether a value is in a hashed form this class can verify: a known {@code {SCHEME}} prefix
     * followed by a non-empty value. Says nothing about whether the value is well formed.
     */
    public static boolean isHashed(byte[] value) {
        return Prefixed.parse(value)
                .filter(p -> SCHEMES.containsKey(p.scheme()) && !p.rest().isEmpty())
                .isPresent();
    }

    /**
     * Whether {@code stored} is of the scheme and cost of {@code reference} (a hash the server would
     * write now): if not, a bind that matched it may store a new hash ({@code security.rehash-on-bind}).
     * Cleartext, unknown schemes and malformed values are never the same.
     */
    public static boolean sameSchemeAndCost(byte[] stored, byte[] reference) {
        Optional<Prefixed> s = Prefixed.parse(stored);
        Optional<Prefixed> r = Prefixed.parse(reference);
        if (s.isEmpty() || r.isEmpty() || !s.get().scheme().equals(r.get().scheme())) {
            return false;
        }
        PasswordScheme scheme = SCHEMES.get(s.get().scheme());
        return scheme != null
                && scheme.cost(s.get().rest()).equals(scheme.cost(r.get().rest()));
    }

    /**
     * Whether checking {@code stored} is clearly cheaper than checking {@code reference}: it is
     * cleartext or of an unknown scheme, a single-pass salted SHA while the reference iterates, or of
     * the reference's own iterating scheme with fewer iterations. Then a failed check is padded with
     * the decoy, so that its time does not tell it from an unknown DN's.
     */
    public static boolean cheaper(byte[] stored, byte[] reference) {
        Optional<Prefixed> s = Prefixed.parse(stored);
        Optional<Prefixed> r = Prefixed.parse(reference);
        if (r.isEmpty() || !SCHEMES.containsKey(r.get().scheme())) {
            return false;
        }
        PasswordScheme referenceScheme = SCHEMES.get(r.get().scheme());
        int referenceIterations = referenceScheme.iterations(r.get().rest());
        if (s.isEmpty() || !SCHEMES.containsKey(s.get().scheme())) {
            return true;
        }
        PasswordScheme storedScheme = SCHEMES.get(s.get().scheme());
        if (storedScheme instanceof SaltedDigestScheme) {
            return !(referenceScheme instanceof SaltedDigestScheme);
        }
        return storedScheme.name().equals(referenceScheme.name())
                && storedScheme.iterations(s.get().rest()) < referenceIterations;
    }

    /** The scheme names {@link #hash} and {@link #verify} know, upper case. */
    public static List<String> supportedSchemes() {
        return List.copyOf(SCHEMES.keySet());
    }

    private static Map<String, PasswordScheme> schemes(PasswordScheme... schemes) {
        Map<String, PasswordScheme> byName = new LinkedHashMap<>();
        for (PasswordScheme scheme : schemes) {
            byName.put(scheme.name(), scheme);
        }
        return Collections.unmodifiableMap(byName);
    }

    /** A stored value split into its upper-cased scheme name and the text after the braces. */
    private record Prefixed(String scheme, String rest) {
        static Optional<Prefixed> parse(byte[] value) {
            if (value.length < 2 || value[0] != '{') {
                return Optional.empty();
            }
            // Hashed values are ASCII; anything else decodes to U+FFFD and then fails to match.
            String text = new String(value, StandardCharsets.UTF_8);
            int close = text.indexOf('}');
            if (close < 2) {
                return Optional.empty();
            }
            return Optional.of(
                    new Prefixed(text.substring(1, close).toUpperCase(Locale.ROOT), text.substring(close + 1)));
        }
    }
}
