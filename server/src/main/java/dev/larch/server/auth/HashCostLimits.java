package dev.larch.server.auth;

import dev.larch.config.LarchConfig;
import dev.larch.config.Passwords;

/**
 * The most a stored hash may ask a check to spend; a value asking more is not computed and gives
 * {@link PasswordCheck#TOO_COSTLY}, so a planted hash cannot pin a core or eat the heap.
 *
 * @param maxIterations PBKDF2 iterations ({@code security.max-password-iterations})
 * @param maxArgon2MemoryKib Argon2 memory in KiB ({@code security.max-argon2-memory-kib})
 * @param maxArgon2Passes Argon2 passes ({@code security.max-argon2-passes})
 */
public record HashCostLimits(int maxIterations, int maxArgon2MemoryKib, int maxArgon2Passes) {
    /** No bound beyond what each scheme accepts as well formed at all. */
    public static final HashCostLimits NONE =
            new HashCostLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);

    /** The configured bounds. */
    public static HashCostLimits of(int maxIterations, Passwords passwords) {
        return new HashCostLimits(maxIterations, passwords.maxArgon2MemoryKib(), passwords.maxArgon2Passes());
    }

    /** A PBKDF2 bound with the default Argon2 bounds. */
    public static HashCostLimits iterations(int maxIterations) {
        return of(maxIterations, LarchConfig.defaults().passwords());
    }
}
