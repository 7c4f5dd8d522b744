package dev.larch.bench.gen;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Makes RFC 2307-style {@code {SSHA}} password values: base64(SHA-1(password + salt) + salt).
 *
 * <p>A real salted hash per entry costs well under a microsecond (one SHA-1 block), so even a
 * million entries need no shortcut; the salt comes from the generator's seeded stream, which keeps
 * the output deterministic. Every server we target (slapd, strict schema checkers) accepts the
 * value as an octet string, and slapd can verify binds with it. Not thread-safe.
 */
final class Ssha {
    private final MessageDigest sha1;
    private final byte[] salt = new byte[8];
    private final byte[] digestAndSalt = new byte[20 + 8];

    Ssha() {
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-1", e);
        }
    }

    String hash(String password, SplitMix64 rng) {
        rng.nextBytes(salt);
        sha1.reset();
        sha1.update(password.getBytes(StandardCharsets.UTF_8));
        sha1.update(salt);
        byte[] digest = sha1.digest();
        System.arraycopy(digest, 0, digestAndSalt, 0, 20);
        System.arraycopy(salt, 0, digestAndSalt, 20, 8);
        return "{SSHA}" + Base64.getEncoder().encodeToString(digestAndSalt);
    }
}
