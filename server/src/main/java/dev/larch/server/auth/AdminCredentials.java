package dev.larch.server.auth;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.larch.config.LarchConfig;
import dev.larch.config.Passwords;
import dev.larch.server.store.FileSync;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The password of {@code cn=admin,<suffix>}, as the hash binds are checked against.
 *
 * <p>Where it comes from, first match wins:
 * <ol>
 *   <li>the config file ({@code security.admin-password});
 *   <li>the environment variable {@value #ENV_VARIABLE};
 *   <li>the file named by the environment variable {@value #ENV_FILE_VARIABLE} (a Docker or systemd
 *       secret): its content, without the line break that ends it;
 *   <li>the file {@value #FILE_NAME} in the data directory, written by an earlier start;
 *   <li>a new random password, whose hash is stored in that file (mode 0600) and whose cleartext is
 *       returned once so the server can print it.
 * </ol>
 * A configured or environment value that is already a hash ({@code {SSHA256}...}, as slappasswd
 * prints) is used as it is; anything else is hashed, in memory, with the slow hasher the server
 * gives (PBKDF2 at the configured iterations unless the configured scheme is slow itself), so the
 * administrator's verifier costs a guess as much as any user's. The file only ever holds a hash.
 *
 * <p>Immutable and thread-safe.
 */
public final class AdminCredentials {
    /** The environment variable consulted when the config sets no password. */
    public static final String ENV_VARIABLE = "LARCH_ADMIN_PASSWORD";
    /** The environment variable naming a file that holds the password, when {@value #ENV_VARIABLE} is unset. */
    public static final String ENV_FILE_VARIABLE = "LARCH_ADMIN_PASSWORD_FILE";
    /** The file, in the data directory, holding the hash of a generated password. */
    public static final String FILE_NAME = "admin-password";
    /** The scheme used by {@link #resolve(String, Map, Path)}. */
    public static final String DEFAULT_SCHEME = "SSHA256";

    private static final Logger LOG = LoggerFactory.getLogger(AdminCredentials.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    /** 24 characters from a 57-letter alphabet: about 140 bits. */
    private static final int GENERATED_LENGTH = 24;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Where the verifier came from; for the start-up log. */
    public enum Source {
        CONFIG,
        ENVIRONMENT,
        STORED_FILE,
        GENERATED
    }

    private final byte[] verifierHash;
    private final String generatedPassword;
    private final Source source;

    private AdminCredentials(byte[] verifierHash, String generatedPassword, Source source) {
        this.verifierHash = verifierHash;
        this.generatedPassword = generatedPassword;
        this.source = source;
    }

    /** {@link #resolve(String, Map, Path, String)} hashing with {@value #DEFAULT_SCHEME}. */
    public static AdminCredentials resolve(String configuredPassword, Map<String, String> env, Path dataDir)
            throws IOException {
        return resolve(configuredPassword, env, dataDir, DEFAULT_SCHEME);
    }

    /**
     * Finds or creates the admin password.
     *
     * @param configuredPassword {@code security.admin-password}; null or empty when not configured
     * @param env the process environment (or a stand-in in tests); never null
     * @param dataDir the data directory; created if missing when a password has to be stored
     * @param scheme the scheme for hashing a cleartext password, one of
     *     {@link PasswordSchemes#supportedSchemes()}
     * @throws IOException when the stored file cannot be read or written, or holds no hash; the
     *     message names the file
     */
    public static AdminCredentials resolve(
            String configuredPassword, Map<String, String> env, Path dataDir, String scheme) throws IOException {
        return resolve(
                configuredPassword,
                env,
                dataDir,
                new PasswordHasher(scheme, LarchConfig.defaults().passwords()));
    }

    /**
     * {@link #resolve(String, Map, Path, String)} hashing cleartext with {@code hasher}.
     *
     * @param hasher hashes a cleartext password; the server gives a slow one ({@link #slowHasher})
     */
    public static AdminCredentials resolve(
            String configuredPassword, Map<String, String> env, Path dataDir, PasswordHasher hasher)
            throws IOException {
        if (configuredPassword != null && !configuredPassword.isEmpty()) {
            return new AdminCredentials(verifierFor(configuredPassword, hasher), null, Source.CONFIG);
        }
        String fromEnv = env.get(ENV_VARIABLE);
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return new AdminCredentials(verifierFor(fromEnv, hasher), null, Source.ENVIRONMENT);
        }
        String secretFile = env.get(ENV_FILE_VARIABLE);
        if (secretFile != null && !secretFile.isEmpty()) {
            return new AdminCredentials(verifierFor(readSecret(Path.of(secretFile)), hasher), null, Source.ENVIRONMENT);
        }
        Path file = dataDir.resolve(FILE_NAME);
        if (Files.exists(file)) {
            return new AdminCredentials(readStored(file), null, Source.STORED_FILE);
        }
        String password = generate();
        byte[] hash = hasher.hash(password.getBytes(StandardCharsets.UTF_8));
        store(file, hash);
        return new AdminCredentials(hash, password, Source.GENERATED);
    }

    /**
     * The password in a secret file: its content without one trailing line break ({@code echo pw >
     * file} writes one).
     *
     * @throws IOException naming the file and {@value #ENV_FILE_VARIABLE} when it cannot be read or is empty
     */
    private static String readSecret(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException(ENV_FILE_VARIABLE + ": cannot read " + file + ": " + e.getMessage(), e);
        }
        if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - (text.endsWith("\r\n") ? 2 : 1));
        }
        if (text.isEmpty()) {
            throw new IOException(ENV_FILE_VARIABLE + ": " + file + " is empty");
        }
        return text;
    }

    /** The hashed {@code userPassword} form to check admin binds against with {@link PasswordSchemes#verify}. */
    public byte[] verifierHash() {
        return verifierHash.clone();
    }

    /** The cleartext of a password generated by this start, to print once; empty on every other start. */
    public Optional<String> generatedPassword() {
        return Optional.ofNullable(generatedPassword);
    }

    /** Where the password came from. */
    public Source source() {
        return source;
    }

    /** Keeps the generated password out of logs. */
    @Override
    public String toString() {
        return "AdminCredentials[source=" + source + "]";
    }

    private static byte[] verifierFor(String password, PasswordHasher hasher) {
        byte[] bytes = password.getBytes(StandardCharsets.UTF_8);
        return PasswordSchemes.isHashed(bytes) ? bytes : hasher.hash(bytes);
    }

    /**
     * The hasher for the administrator's password: the configured scheme when it is slow (PBKDF2 or
     * Argon2), else PBKDF2-SHA256 at the configured iterations: a salted SHA-2 is fast to guess.
     */
    public static PasswordHasher slowHasher(String configuredScheme, Passwords passwords) {
        String scheme = configuredScheme.toUpperCase(Locale.ROOT);
        boolean slow = scheme.startsWith("PBKDF2") || scheme.equals("ARGON2");
        return new PasswordHasher(slow ? scheme : "PBKDF2-SHA256", passwords);
    }

    private static byte[] readStored(Path file) throws IOException {
        tightenPermissions(file);
        byte[] hash = Files.readString(file, StandardCharsets.US_ASCII).strip().getBytes(StandardCharsets.US_ASCII);
        if (!PasswordSchemes.isHashed(hash)) {
            throw new IOException(file + ": not a password hash; delete it to have a new admin password generated");
        }
        return hash;
    }

    private static String generate() {
        StringBuilder password = new StringBuilder(GENERATED_LENGTH);
        for (int i = 0; i < GENERATED_LENGTH; i++) {
            password.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return password.toString();
    }

    /**
     * Writes the hash through a temporary file created owner-only, then renames it into place, so the
     * file is never readable by others nor half-written. The file is synced before the rename and the
     * directory after it, so a crash right after start cannot lose the password a client was told.
     */
    private static void store(Path file, byte[] hash) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve(FILE_NAME + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, ownerOnly(dir));
        } catch (FileAlreadyExistsException e) {
            throw new IOException(tmp + ": created by someone else meanwhile; is another server starting?", e);
        }
        byte[] line = (new String(hash, StandardCharsets.US_ASCII) + "\n").getBytes(StandardCharsets.US_ASCII);
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buffer = ByteBuffer.wrap(line);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            out.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        FileSync.directory(dir);
    }

    private static FileAttribute<?>[] ownerOnly(Path dir) {
        return isPosix(dir)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
    }

    /** Someone may have loosened the mode by hand; the file guards the admin, so put it back. */
    private static void tightenPermissions(Path file) throws IOException {
        if (!isPosix(file)) {
            return;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        if (permissions.removeIf(p -> !OWNER_ONLY.contains(p))) {
            LOG.warn("{} was accessible beyond its owner; removing group and other permissions", file);
            Files.setPosixFilePermissions(file, permissions);
        }
    }

    private static boolean isPosix(Path path) {
        return Files.getFileAttributeView(path, PosixFileAttributeView.class) != null;
    }
}
