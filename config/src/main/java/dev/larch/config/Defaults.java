package dev.larch.config;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The embedded default configuration. {@code config/larch.conf} documents the same values; a test
 * keeps the two equal.
 */
final class Defaults {
    private static final long MIB = 1024L * 1024;
    private static final long GIB = 1024 * MIB;

    static final LarchConfig CONFIG = new LarchConfig(
            "dc=example,dc=com",
            // Idle connections close after 15 minutes; limits on connections and on what one may buffer.
            new Listen(
                    "127.0.0.1",
                    1389,
                    0,
                    (int) (10 * MIB),
                    900,
                    100,
                    256 * 1024,
                    128,
                    4096,
                    512,
                    Listen.DEFAULT_MAX_FILTER_ELEMENTS,
                    Listen.DEFAULT_MAX_PENDING_SIZE,
                    Listen.DEFAULT_MAX_PENDING_SIZE_ANONYMOUS,
                    Listen.DEFAULT_MAX_PENDING_SIZE_TOTAL,
                    // No load balancer sends a PROXY header.
                    List.of()),
            // Up to 256 writes waiting for the writer share one transaction and its sync.
            new Storage(
                    Path.of("var"), 64 * GIB, 1024, true, 10_000, true, Storage.DEFAULT_GROUP_COMMIT_MAX_OPERATIONS),
            // Size and time limits as slapd ships them; look-through bounds an unindexed scan.
            // The worker pool: one thread per core (0) and a bounded wait queue.
            // The administrator is exempt from them (apply-to-admin false), as slapd's rootdn is.
            // Paused searches: a minute each, and at most half of storage.max-readers at once; searches
            // running long on the worker pool: at most a quarter.
            new Limits(
                    500,
                    3600,
                    100_000,
                    50_000,
                    0,
                    Limits.DEFAULT_WORKER_QUEUE,
                    false,
                    Limits.DEFAULT_PAUSED_SEARCH_SECONDS,
                    Limits.DEFAULT_MAX_PAUSED_SEARCHES,
                    Limits.DEFAULT_MAX_LONG_SEARCHES),
            new Security(null, false, "PBKDF2-SHA256", 1_000_000, 200, 5_000),
            // Text access lines on standard output; with a file, 100 MiB files kept for 7 days.
            new Logging(true, "INFO"),
            defaultIndexes(),
            List.of(),
            // Rate quotas off; when set, a bucket holds one second's worth and the admin is exempt.
            RateQuotas.OFF,
            // No certificate, so no StartTLS and no LDAPS; password binds need TLS except from loopback.
            Tls.OFF,
            // No default password policy: entries are governed only by a pwdPolicySubentry they name.
            PasswordPolicySettings.NONE,
            // Prehashed values from the admin; PBKDF2 and Argon2id costs, and what a stored hash may ask.
            Passwords.DEFAULTS,
            // The built-in access rules, the same as config/access.aci.
            Access.BUILT_IN,
            // 16 paged searches open per connection, no cap on one paged search's entries, sorts of 20,000.
            ResultControls.DEFAULTS,
            // Group members, manager and secretary follow deletes and renames; uid and mail are unique.
            IntegrityRules.DEFAULTS,
            // Counting and cn=Monitor on; no Prometheus endpoint until metrics.port is set.
            Metrics.DEFAULTS,
            // No tracing: nothing is recorded or exported until tracing.otlp-endpoint is set.
            Tracing.OFF,
            // Read-only requests from the store through the real pipeline, then the port opens.
            WarmUp.DEFAULT);

    private Defaults() {}

    private static Map<String, Set<IndexKind>> defaultIndexes() {
        Set<IndexKind> eq = EnumSet.of(IndexKind.EQUALITY);
        Set<IndexKind> eqSub = EnumSet.of(IndexKind.EQUALITY, IndexKind.SUBSTRING);
        Map<String, Set<IndexKind>> indexes = new LinkedHashMap<>();
        indexes.put("objectClass", eq);
        indexes.put("uid", eqSub);
        indexes.put("mail", eqSub);
        indexes.put("cn", eqSub);
        indexes.put("sn", eqSub);
        indexes.put("givenName", eqSub);
        indexes.put("member", eq);
        // What referential integrity reads (integrity.reference-attributes).
        indexes.put("uniqueMember", eq);
        indexes.put("manager", eq);
        indexes.put("secretary", eq);
        // (memberOf=G) and the in-chain rule on memberOf read the stored values through it.
        indexes.put("memberOf", eq);
        return indexes;
    }
}
