package dev.larch.server.auth;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.larch.config.Passwords;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

/**
 * {@code {ARGON2}} as OpenLDAP's pw-argon2 module writes it: the PHC string of the reference
 * implementation, {@code $argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>}, salt and hash
 * in standard base64 without padding. Checks argon2i, argon2d and argon2id values (versions 16 and
 * 19); writes argon2id, version 19. Computed by Bouncy Castle's {@link Argon2BytesGenerator}.
 */
final class Argon2Scheme implements PasswordScheme {
    private static final Pattern PHC =
            Pattern.compile("\\$(argon2id|argon2i|argon2d)(?:\\$v=(\\d{1,3}))?\\$m=(\\d{1,9}),t=(\\d{1,9}),p=(\\d{1,3})"
                    + "\\$([A-Za-z0-9+/]{11,1366})\\$([A-Za-z0-9+/]{6,1366})");
    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;

    @Override
    public String name() {
        return "ARGON2";
    }

    @Override
    public boolean matches(String encoded, byte[] presented) {
        Optional<Phc> phc = Phc.parse(encoded);
        if (phc.isEmpty()) {
            return false;
        }
        Phc p = phc.get();
        byte[] actual = derive(p.type, p.version, p.memoryKib, p.passes, p.lanes, p.salt, presented, p.hash.length);
        return MessageDigest.isEqual(p.hash, actual);
    }

    @Override
    public int iterations(String encoded) {
        return Phc.parse(encoded).map(p -> p.passes).orElse(0);
    }

    @Override
    public String cost(String encoded) {
        return Phc.parse(encoded)
                .map(p -> "m=" + p.memoryKib + ",t=" + p.passes + ",p=" + p.lanes)
                .orElse("");
    }

    @Override
    public boolean affordable(String encoded, HashCostLimits limits) {
        return Phc.parse(encoded)
                .map(p -> p.memoryKib <= limits.maxArgon2MemoryKib() && p.passes <= limits.maxArgon2Passes())
                .orElse(true);
    }

    @Override
    public String encode(byte[] password, SecureRandom random) {
        return encode(password, random, NewHashCost.DEFAULTS);
    }

    @Override
    public String encode(byte[] password, SecureRandom random, NewHashCost cost) {
        byte[] salt = new byte[SALT_BYTES];
        random.nextBytes(salt);
        int memory = cost.argon2MemoryKib();
        int passes = cost.argon2Passes();
        int lanes = cost.argon2Parallelism();
        byte[] hash = derive(
                Argon2Parameters.ARGON2_id,
                Argon2Parameters.ARGON2_VERSION_13,
                memory,
                passes,
                lanes,
                salt,
                password,
                HASH_BYTES);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return String.format(
                Locale.ROOT,
                "$argon2id$v=19$m=%d,t=%d,p=%d$%s$%s",
                memory,
                passes,
                lanes,
                b64.encodeToString(salt),
                b64.encodeToString(hash));
    }

    private static byte[] derive(
            int type, int version, int memoryKib, int passes, int lanes, byte[] salt, byte[] password, int length) {
        Argon2Parameters parameters = new Argon2Parameters.Builder(type)
                .withVersion(version)
                .withMemoryAsKB(memoryKib)
                .withIterations(passes)
                .withParallelism(lanes)
                .withSalt(salt)
                .build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(parameters);
        byte[] out = new byte[length];
        generator.generateBytes(password, out);
        return out;
    }

    /** A well-formed PHC string; anything else, including out-of-range parameters, parses to empty. */
    private record Phc(int type, int version, int memoryKib, int passes, int lanes, byte[] salt, byte[] hash) {
        static Optional<Phc> parse(String encoded) {
            Matcher m = PHC.matcher(encoded);
            if (!m.matches()) {
                return Optional.empty();
            }
            int type = switch (m.group(1)) {
                case "argon2i" -> Argon2Parameters.ARGON2_i;
                case "argon2d" -> Argon2Parameters.ARGON2_d;
                default -> Argon2Parameters.ARGON2_id;
            };
            // Without v= the value predates version 19 (the reference library's rule).
            int version = m.group(2) == null ? Argon2Parameters.ARGON2_VERSION_10 : Integer.parseInt(m.group(2));
            int memory = Integer.parseInt(m.group(3));
            int passes = Integer.parseInt(m.group(4));
            int lanes = Integer.parseInt(m.group(5));
            if ((version != Argon2Parameters.ARGON2_VERSION_10 && version != Argon2Parameters.ARGON2_VERSION_13)
                    || lanes < 1
                    || lanes > Passwords.MAX_ARGON2_PARALLELISM
                    || passes < 1
                    || memory < 8 * lanes) {
                return Optional.empty();
            }
            byte[] salt;
            byte[] hash;
            try {
                salt = Base64.getDecoder().decode(m.group(6));
                hash = Base64.getDecoder().decode(m.group(7));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
            if (salt.length < 8 || hash.length < 4) {
                return Optional.empty();
            }
            return Optional.of(new Phc(type, version, memory, passes, lanes, salt, hash));
        }
    }
}
