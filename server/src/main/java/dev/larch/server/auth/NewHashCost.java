package dev.larch.server.auth;

import dev.larch.config.LarchConfig;
import dev.larch.config.Passwords;

/**
 * The cost of hashes the server writes: PBKDF2 iterations and Argon2 memory, passes and lanes.
 * Single-pass schemes ignore it.
 */
record NewHashCost(int pbkdf2Iterations, int argon2MemoryKib, int argon2Passes, int argon2Parallelism) {
    static final NewHashCost DEFAULTS = of(LarchConfig.defaults().passwords());

    static NewHashCost of(Passwords passwords) {
        return new NewHashCost(
                passwords.pbkdf2Iterations(),
                passwords.argon2MemoryKib(),
                passwords.argon2Passes(),
                passwords.argon2Parallelism());
    }
}
