package dev.larch.server.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * The salted-digest schemes of OpenLDAP: {@code {SSHA}} (core) and {@code {SSHA256}},
 * {@code {SSHA512}} (contrib/slapd-modules/passwd/sha2). The stored value is
 * {@code base64(digest(password || salt) || salt)}.
 */
final class SaltedDigestScheme implements PasswordScheme {
    /** Eight bytes, as the sha2 module writes; OpenLDAP reads any salt length. */
    private static final int SALT_BYTES = 8;

    private final String name;
    private final String algorithm;
    private final int digestBytes;
    /**
     * One digest per thread, reset by each {@link MessageDigest#digest}: binds check these values on
     * the event loops, where looking the algorithm up among the providers for each check showed.
     */
    private final ThreadLocal<MessageDigest> digests;

    SaltedDigestScheme(String name, String algorithm) {
        this.name = name;
        this.algorithm = algorithm;
        this.digestBytes = newDigest().getDigestLength();
        this.digests = ThreadLocal.withInitial(this::newDigest);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean matches(String encoded, byte[] presented) {
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (decoded.length <= digestBytes) {
            return false;
        }
        byte[] salt = Arrays.copyOfRange(decoded, digestBytes, decoded.length);
        byte[] expected = Arrays.copyOf(decoded, digestBytes);
        return MessageDigest.isEqual(expected, digest(presented, salt));
    }

    @Override
    public int iterations(String encoded) {
        return 1;
    }

    @Override
    public String encode(byte[] password, SecureRandom random) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        byte[] digest = digest(password, salt);
        byte[] stored = Arrays.copyOf(digest, digest.length + salt.length);
        System.arraycopy(salt, 0, stored, digest.length, salt.length);
        return Base64.getEncoder().encodeToString(stored);
    }

    private byte[] digest(byte[] password, byte[] salt) {
        MessageDigest md = digests.get();
        md.reset();
        md.update(password);
        md.update(salt);
        return md.digest();
    }

    private MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            // SHA-1, SHA-256 and SHA-512 are required of every Java platform.
            throw new IllegalStateException(algorithm + " missing from this JVM", e);
        }
    }
}
