package dev.larch.config;

/**
 * Operation rate quotas: token buckets that answer busy once a client goes faster than allowed.
 * Off by default (both rates 0).
 *
 * @param perIdentity operations per second one bound identity (a DN) may run over all its
 *     connections; 0 means no per-identity quota. Anonymous sessions have no identity and are held
 *     by the per-address quota alone.
 * @param perAddress operations per second one client IP address may run over all its connections,
 *     binds included; 0 means no per-address quota
 * @param burstSeconds how many seconds' worth of operations a quiet client may spend at once: a
 *     bucket holds {@code rate × burstSeconds} operations and refills at {@code rate} per second;
 *     at least 1
 * @param applyToAdmin whether the directory administrator is held by the quotas too; when false
 *     (the default) a session bound as the administrator is exempt from both
 */
public record RateQuotas(int perIdentity, int perAddress, int burstSeconds, boolean applyToAdmin) {

    /** No quotas: what the server runs with unless the config sets a rate. */
    public static final RateQuotas OFF = new RateQuotas(0, 0, 1, false);

    public RateQuotas {
        if (perIdentity < 0 || perAddress < 0) {
            throw new IllegalArgumentException("rates must not be negative");
        }
        if (burstSeconds < 1) {
            throw new IllegalArgumentException("burstSeconds must be at least 1");
        }
    }

    /** True when at least one quota is set, so that the server has anything to enforce. */
    public boolean enabled() {
        return perIdentity > 0 || perAddress > 0;
    }
}
