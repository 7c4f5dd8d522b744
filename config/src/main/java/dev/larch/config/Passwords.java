package dev.larch.config;

/**
 * How the server stores the passwords clients send, and what a stored hash may cost to check
 * ({@code security.*} keys beside {@link Security}).
 *
 * @param allowPrehashedPasswords whether the administrator may write {@code userPassword} values
 *     that already carry a known {@code {SCHEME}} prefix (migrations); they are then stored as given.
 *     Anyone else, or everyone when false, gets constraintViolation for such a value.
 * @param pbkdf2Iterations the iteration count of new {@code {PBKDF2-*}} hashes, 1,000..10,000,000;
 *     existing hashes keep their own count
 * @param argon2MemoryKib the memory of new {@code {ARGON2}} hashes in KiB, 8..{@code maxArgon2MemoryKib}
 * @param argon2Passes the passes (t) of new {@code {ARGON2}} hashes, 1..{@code maxArgon2Passes}
 * @param argon2Parallelism the lanes (p) of new {@code {ARGON2}} hashes, 1..16; Bouncy Castle
 *     computes them on one thread, so p divides the memory without adding cores
 * @param maxArgon2MemoryKib the most memory a stored {@code {ARGON2}} hash may ask for when a bind
 *     checks it; beyond it the bind fails as for a wrong password (one worker holds this much heap
 *     while it checks, so the heap needs worker threads × this)
 * @param maxArgon2Passes the most passes a stored {@code {ARGON2}} hash may ask for, likewise
 */
public record Passwords(
        boolean allowPrehashedPasswords,
        int pbkdf2Iterations,
        int argon2MemoryKib,
        int argon2Passes,
        int argon2Parallelism,
        int maxArgon2MemoryKib,
        int maxArgon2Passes) {

    /** About 0.1 s of one core per check on the 2-core reference machine: see the README's table. */
    public static final int DEFAULT_PBKDF2_ITERATIONS = 100_000;
    /** The OWASP minimum for Argon2id (19 MiB, two passes, one lane). */
    public static final int DEFAULT_ARGON2_MEMORY_KIB = 19_456;

    public static final int DEFAULT_ARGON2_PASSES = 2;
    public static final int DEFAULT_MAX_ARGON2_MEMORY_KIB = 65_536;
    public static final int DEFAULT_MAX_ARGON2_PASSES = 10;
    /** The highest lane count accepted anywhere. */
    public static final int MAX_ARGON2_PARALLELISM = 16;

    /** The defaults, as {@code config/larch.conf} documents them. */
    public static final Passwords DEFAULTS = new Passwords(
            true,
            DEFAULT_PBKDF2_ITERATIONS,
            DEFAULT_ARGON2_MEMORY_KIB,
            DEFAULT_ARGON2_PASSES,
            1,
            DEFAULT_MAX_ARGON2_MEMORY_KIB,
            DEFAULT_MAX_ARGON2_PASSES);

    public Passwords {
        if (pbkdf2Iterations < 1_000 || pbkdf2Iterations > 10_000_000) {
            throw new IllegalArgumentException("pbkdf2Iterations must be within 1000..10000000");
        }
        if (argon2Parallelism < 1 || argon2Parallelism > MAX_ARGON2_PARALLELISM) {
            throw new IllegalArgumentException("argon2Parallelism must be within 1..16");
        }
        if (argon2MemoryKib < 8 * argon2Parallelism || argon2MemoryKib > maxArgon2MemoryKib) {
            throw new IllegalArgumentException("argon2MemoryKib must be within 8 × parallelism..maxArgon2MemoryKib");
        }
        if (argon2Passes < 1 || argon2Passes > maxArgon2Passes) {
            throw new IllegalArgumentException("argon2Passes must be within 1..maxArgon2Passes");
        }
    }
}
