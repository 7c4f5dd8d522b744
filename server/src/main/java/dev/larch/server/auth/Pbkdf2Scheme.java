package dev.larch.server.auth;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import dev.larch.config.LarchConfig;

/**
 * The PBKDF2 schemes of OpenLDAP's pw-pbkdf2 module (contrib/slapd-modules/passwords/pbkdf2): the
 * stored value is {@code <iterations>$<salt>$<derived key>}, salt and key in "adapted base64"
 * (standard alphabet with {@code .} for {@code +}, no padding). The derived key is as long as the
 * HMAC output, and verification derives as many bytes as the stored key has.
 */
final class Pbkdf2Scheme implements PasswordScheme {
    /** pw-pbkdf2 uses 16-byte salts. */
    private static final int SALT_BYTES = 16;
    /**
     * Iterations for new hashes: ten times pw-pbkdf2's default of 10,000, about 30 ms of one core per
     * bind with HMAC-SHA256 on a warm JVM; raise it as hardware allows, existing hashes keep their own count.
     */
    static final int NEW_HASH_ITERATIONS = LarchConfig.defaults().passwords().pbkdf2Iterations();
    /**
     * Stored counts beyond this are malformed whatever the configuration says, so a planted value
     * cannot pin a core for minutes; {@code security.max-password-iterations} bounds it further.
     */
    private static final int MAX_ITERATIONS = 10_000_000;

    private final String name;
    private final Pbkdf2 prf;

    Pbkdf2Scheme(String name, String hmacAlgorithm) {
        this.name = name;
        this.prf = new Pbkdf2(hmacAlgorithm);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean matches(String encoded, byte[] presented) {
        String[] parts = encoded.split("\\$", -1);
        if (parts.length != 3) {
            return false;
        }
        int iterations = parseIterations(parts[0]);
        byte[] salt;
        byte[] expected;
        try {
            salt = decode(parts[1]);
            expected = decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (iterations < 1 || expected.length == 0) {
            return false;
        }
        return MessageDigest.isEqual(expected, prf.derive(presented, salt, iterations, expected.length));
    }

    @Override
    public int iterations(String encoded) {
        int dollar = encoded.indexOf('$');
        return dollar < 0 ? 0 : parseIterations(encoded.substring(0, dollar));
    }

    /** The count in decimal, 1..{@value #MAX_ITERATIONS}; 0 for anything else. */
    private static int parseIterations(String digits) {
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return 0;
        }
        int iterations = Integer.parseInt(digits);
        return iterations <= MAX_ITERATIONS ? iterations : 0;
    }

    @Override
    public String encode(byte[] password, SecureRandom random) {
        return encode(password, random, NEW_HASH_ITERATIONS);
    }

    @Override
    public String encode(byte[] password, SecureRandom random, NewHashCost cost) {
        return encode(password, random, cost.pbkdf2Iterations());
    }

    /** {@link #encode(byte[], SecureRandom)} with a chosen iteration count (tests plant costly hashes). */
    String encode(byte[] password, SecureRandom random, int iterations) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        byte[] key = prf.derive(password, salt, iterations, prf.outputBytes());
        return iterations + "$" + encode(salt) + "$" + encode(key);
    }

    private static String encode(byte[] bytes) {
        return Base64.getEncoder().withoutPadding().encodeToString(bytes).replace('+', '.');
    }

    private static byte[] decode(String adapted) {
        return Base64.getDecoder().decode(adapted.replace('.', '+'));
    }
}
