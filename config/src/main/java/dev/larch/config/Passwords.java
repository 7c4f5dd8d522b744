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
 * @param adminMaxFailures failed binds of the administrator that lock it, 0..1000; 0 = never
 * @param adminLockoutSeconds how long the administrator's lock lasts, 0..31,536,000; 0 = until the
 *     server restarts (the lock is in memory only)
 * @param rehashOnBind whether a successful bind re-hashes a password stored in another scheme or
 *     at another cost with the configured one
 * @param suspectChecksPerAddress password checks that may run at once for one client address
 *     (IPv6: prefix) while it has recent failed binds, 1..1024; beyond, binds are answered busy
 * @param suspectChecksTotal such checks that may be in progress at once for all failing addresses
 *     together (a check is in progress until its answer, delay included), 0..1024; 0 = 8 per worker
 *     thread (at least {@code suspectChecksPerAddress})
 * @param ipv6PrefixBits the prefix length by which IPv6 clients are counted as one address, 32..128
 */
public record Passwords(
        boolean allowPrehashedPasswords,
        int pbkdf2Iterations,
        int argon2MemoryKib,
        int argon2Passes,
        int argon2Parallelism,
        int maxArgon2MemoryKib,
        int maxArgon2Passes,
        int adminMaxFailures,
        long adminLockoutSeconds,
        boolean rehashOnBind,
        int suspectChecksPerAddress,
        int suspectChecksTotal,
        int ipv6PrefixBits) {

    /** The highest lane count accepted anywhere. */
    public static final int MAX_ARGON2_PARALLELISM = 16;

    /** A year: the longest administrator lock that is not "until restart". */
    public static final long MAX_ADMIN_LOCKOUT_SECONDS = 31_536_000L;

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
        if (adminMaxFailures < 0 || adminMaxFailures > 1_000) {
            throw new IllegalArgumentException("adminMaxFailures must be within 0..1000");
        }
        if (adminLockoutSeconds < 0 || adminLockoutSeconds > MAX_ADMIN_LOCKOUT_SECONDS) {
            throw new IllegalArgumentException("adminLockoutSeconds must be within 0..31536000");
        }
        if (suspectChecksPerAddress < 1 || suspectChecksPerAddress > 1_024) {
            throw new IllegalArgumentException("suspectChecksPerAddress must be within 1..1024");
        }
        if (suspectChecksTotal < 0 || suspectChecksTotal > 1_024) {
            throw new IllegalArgumentException("suspectChecksTotal must be within 0..1024");
        }
        if (ipv6PrefixBits < 32 || ipv6PrefixBits > 128) {
            throw new IllegalArgumentException("ipv6PrefixBits must be within 32..128");
        }
    }
}
