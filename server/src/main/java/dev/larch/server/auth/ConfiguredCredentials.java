package dev.larch.server.auth;

import java.security.SecureRandom;

import dev.larch.config.LarchConfig;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Bind credentials as the configuration sets them: the admin's hashed password, the cleartext
 * policy and the bound on stored iteration counts. Immutable and thread-safe.
 */
public final class ConfiguredCredentials implements Credentials {
    private final Dn adminDn;
    private final byte[] adminHash;
    private final boolean allowCleartext;
    private final HashCostLimits limits;
    /** A hash of a random password in the configured scheme, never matched, for {@link #checkAgainstNothing}. */
    private final byte[] decoy;

    /**
     * @param scheme the configured scheme ({@code security.password-scheme}), whose cost an unknown DN pays
     * @param maxIterations {@code security.max-password-iterations}
     */
    public ConfiguredCredentials(
            Dn adminDn, byte[] adminHash, boolean allowCleartext, String scheme, int maxIterations) {
        this(
                adminDn,
                adminHash,
                allowCleartext,
                new PasswordHasher(scheme, LarchConfig.defaults().passwords()),
                HashCostLimits.iterations(maxIterations));
    }

    /**
     * @param hasher the configured scheme and cost, which an unknown DN pays
     * @param limits what a stored hash may cost a bind ({@code security.max-password-iterations},
     *     {@code security.max-argon2-*})
     */
    public ConfiguredCredentials(
            Dn adminDn, byte[] adminHash, boolean allowCleartext, PasswordHasher hasher, HashCostLimits limits) {
        this.adminDn = adminDn;
        this.adminHash = adminHash.clone();
        this.allowCleartext = allowCleartext;
        this.limits = limits;
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        this.decoy = hasher.hash(random);
    }

    @Override
    public Dn adminDn() {
        return adminDn;
    }

    @Override
    public PasswordCheck checkAdmin(byte[] presented) {
        return PasswordSchemes.check(adminHash, presented, false, limits);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A failed check of a value cheaper than the configured scheme (cleartext, a salted SHA, fewer
     * PBKDF2 iterations: {@link PasswordSchemes#cheaper}) also spends the decoy's cost, so that no
     * failure answers faster than an unknown DN's: every failure costs at least one configured hash.
     */
    @Override
    public PasswordCheck check(byte[] storedUserPassword, byte[] presented) {
        PasswordCheck outcome = PasswordSchemes.check(storedUserPassword, presented, allowCleartext, limits);
        if (outcome != PasswordCheck.MATCH && PasswordSchemes.cheaper(storedUserPassword, decoy)) {
            checkAgainstNothing(presented);
        }
        return outcome;
    }

    @Override
    public boolean matchesCheaply(byte[] storedUserPassword, byte[] presented) {
        return PasswordSchemes.matchesCheaply(storedUserPassword, presented, allowCleartext);
    }

    @Override
    public boolean isCurrent(byte[] storedUserPassword) {
        return PasswordSchemes.sameSchemeAndCost(storedUserPassword, decoy);
    }

    @Override
    public void checkAgainstNothing(byte[] presented) {
        // The decoy's password is 24 random bytes nobody knows; the result is meaningless by design.
        PasswordSchemes.check(decoy, presented, false, HashCostLimits.NONE);
    }
}
