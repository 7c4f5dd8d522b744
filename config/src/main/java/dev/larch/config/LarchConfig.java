package dev.larch.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The whole server configuration: immutable, and complete (every setting has a value).
 *
 * <p>Built from {@link #defaults()}, or from a file with {@link #load(Path)}, then adjusted by command
 * line overrides. The file format and every key are documented in {@code config/larch.conf}.
 *
 * @param suffix the DN of the naming context the server holds, for example {@code dc=example,dc=com}
 * @param listen where connections are accepted
 * @param storage the store
 * @param limits server-side search limits
 * @param security authentication settings
 * @param logging logging settings
 * @param indexes attribute name (as written in the config) to the index kinds kept for it; an
 *     attribute that is absent is not indexed. Unmodifiable; iteration follows the config order.
 * @param schemaFiles extra OpenLDAP-format schema files loaded after the standard schemas; unmodifiable
 * @param rateQuotas per-identity and per-address operation rate quotas ({@code limits.rate-*})
 * @param tls TLS, LDAPS and the rules that depend on them ({@code tls.*}, {@code listen.ldaps-port},
 *     {@code security.require-tls-for-binds})
 * @param passwordPolicy the password policy settings ({@code security.default-password-policy})
 * @param passwords how passwords are hashed and which stored hashes a bind will compute
 * @param access access control ({@code access.*})
 * @param resultControls bounds of paged results ({@code limits.max-paged-searches-per-connection},
 *     {@code limits.paged-size-limit})
 * @param integrity referential integrity and attribute uniqueness ({@code integrity.*})
 * @param metrics counting, {@code cn=Monitor} and the Prometheus endpoint ({@code metrics.*})
 * @param tracing per-operation tracing over OTLP ({@code tracing.*}); {@link Tracing#OFF} unless an
 *     endpoint is set
 * @param warmUp self-warm-up before the listener opens ({@code server.warm-up-seconds})
 */
public record LarchConfig(
        String suffix,
        Listen listen,
        Storage storage,
        Limits limits,
        Security security,
        Logging logging,
        Map<String, Set<IndexKind>> indexes,
        List<Path> schemaFiles,
        RateQuotas rateQuotas,
        Tls tls,
        PasswordPolicySettings passwordPolicy,
        Passwords passwords,
        Access access,
        ResultControls resultControls,
        IntegrityRules integrity,
        Metrics metrics,
        Tracing tracing,
        WarmUp warmUp) {

    public LarchConfig {
        Objects.requireNonNull(suffix, "suffix");
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(logging, "logging");
        indexes = copyIndexes(indexes);
        schemaFiles = List.copyOf(schemaFiles);
        Objects.requireNonNull(rateQuotas, "rateQuotas");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(passwordPolicy, "passwordPolicy");
        Objects.requireNonNull(passwords, "passwords");
        Objects.requireNonNull(access, "access");
        Objects.requireNonNull(resultControls, "resultControls");
        Objects.requireNonNull(integrity, "integrity");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(tracing, "tracing");
        Objects.requireNonNull(warmUp, "warmUp");
    }

    /**
     * A configuration without self-warm-up ({@link WarmUp#OFF}): what servers built in code (tests)
     * get unless they ask for it, so they open their port at once.
     */
    public LarchConfig(
            String suffix,
            Listen listen,
            Storage storage,
            Limits limits,
            Security security,
            Logging logging,
            Map<String, Set<IndexKind>> indexes,
            List<Path> schemaFiles,
            RateQuotas rateQuotas,
            Tls tls,
            PasswordPolicySettings passwordPolicy,
            Passwords passwords,
            Access access,
            ResultControls resultControls,
            IntegrityRules integrity,
            Metrics metrics,
            Tracing tracing) {
        this(
                suffix,
                listen,
                storage,
                limits,
                security,
                logging,
                indexes,
                schemaFiles,
                rateQuotas,
                tls,
                passwordPolicy,
                passwords,
                access,
                resultControls,
                integrity,
                metrics,
                tracing,
                WarmUp.OFF);
    }

    /** A configuration with the default monitoring settings ({@link Metrics#DEFAULTS}) and no tracing. */
    public LarchConfig(
            String suffix,
            Listen listen,
            Storage storage,
            Limits limits,
            Security security,
            Logging logging,
            Map<String, Set<IndexKind>> indexes,
            List<Path> schemaFiles,
            RateQuotas rateQuotas,
            Tls tls,
            PasswordPolicySettings passwordPolicy,
            Passwords passwords,
            Access access,
            ResultControls resultControls,
            IntegrityRules integrity) {
        this(
                suffix,
                listen,
                storage,
                limits,
                security,
                logging,
                indexes,
                schemaFiles,
                rateQuotas,
                tls,
                passwordPolicy,
                passwords,
                access,
                resultControls,
                integrity,
                Metrics.DEFAULTS,
                Tracing.OFF);
    }

    /** A configuration without integrity rules ({@link IntegrityRules#NONE}). */
    public LarchConfig(
            String suffix,
            Listen listen,
            Storage storage,
            Limits limits,
            Security security,
            Logging logging,
            Map<String, Set<IndexKind>> indexes,
            List<Path> schemaFiles,
            RateQuotas rateQuotas,
            Tls tls,
            PasswordPolicySettings passwordPolicy,
            Passwords passwords,
            Access access,
            ResultControls resultControls) {
        this(
                suffix,
                listen,
                storage,
                limits,
                security,
                logging,
                indexes,
                schemaFiles,
                rateQuotas,
                tls,
                passwordPolicy,
                passwords,
                access,
                resultControls,
                IntegrityRules.NONE);
    }

    /** A configuration with the default bounds of the result-shaping controls ({@link ResultControls#DEFAULTS}). */
    public LarchConfig(
            String suffix,
            Listen listen,
            Storage storage,
            Limits limits,
            Security security,
            Logging logging,
            Map<String, Set<IndexKind>> indexes,
            List<Path> schemaFiles,
            RateQuotas rateQuotas,
            Tls tls,
            PasswordPolicySettings passwordPolicy,
            Passwords passwords,
            Access access) {
        this(
                suffix,
                listen,
                storage,
                limits,
                security,
                logging,
                indexes,
                schemaFiles,
                rateQuotas,
                tls,
                passwordPolicy,
                passwords,
                access,
                ResultControls.DEFAULTS);
    }

    /**
     * A configuration without TLS ({@link Tls#OFF}), without a default password policy, and with the
     * default password storage ({@link Passwords#DEFAULTS}) and the built-in access rules
     * ({@link Access#BUILT_IN}).
     */
    public LarchConfig(
            String suffix,
            Listen listen,
            Storage storage,
            Limits limits,
            Security security,
            Logging logging,
            Map<String, Set<IndexKind>> indexes,
            List<Path> schemaFiles,
            RateQuotas rateQuotas) {
        this(
                suffix,
                listen,
                storage,
                limits,
                security,
                logging,
                indexes,
                schemaFiles,
                rateQuotas,
                Tls.OFF,
                PasswordPolicySettings.NONE,
                Passwords.DEFAULTS,
                Access.BUILT_IN);
    }

    /** A configuration without rate quotas ({@link RateQuotas#OFF}). */
    public LarchConfig(
            String suffix,
            Listen listen,
            Storage storage,
            Limits limits,
            Security security,
            Logging logging,
            Map<String, Set<IndexKind>> indexes,
            List<Path> schemaFiles) {
        this(suffix, listen, storage, limits, security, logging, indexes, schemaFiles, RateQuotas.OFF);
    }

    /** The embedded default: what {@code ./larch serve} uses without {@code --config}. */
    public static LarchConfig defaults() {
        return Defaults.CONFIG;
    }

    /**
     * The defaults, overridden by the settings in a config file.
     *
     * @param file the config file; relative paths inside it are resolved against its directory
     * @return the complete configuration
     * @throws ConfigException when the file cannot be read, or names an unknown key, or a value is
     *     malformed or out of range; the message names the file and the key or line
     */
    public static LarchConfig load(Path file) throws ConfigException {
        return ConfigLoader.load(file, defaults());
    }

    /**
     * A config file read once: the configuration it makes and the settings as the file writes them.
     *
     * @param config the defaults overridden by the file
     * @param settings key to value as written in the file (trimmed, uninterpreted), in file order;
     *     unmodifiable. What a reload compares to find the keys an operator changed.
     */
    public record FileConfig(LarchConfig config, Map<String, String> settings) {
        public FileConfig {
            Objects.requireNonNull(config, "config");
            settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        }
    }

    /**
     * {@link #load(Path)}, also returning the file's settings as written.
     *
     * @throws ConfigException as {@link #load(Path)}
     */
    public static FileConfig loadWithSettings(Path file) throws ConfigException {
        Map<String, String> raw = ConfigFile.read(file, file.toString());
        return new FileConfig(ConfigLoader.load(file, raw, defaults()), raw);
    }

    /** A copy with the data directory replaced, for {@code --data}. */
    public LarchConfig withDataDir(Path dir) {
        Storage s = storage;
        Copy c = new Copy(this);
        c.storage = new Storage(
                dir,
                s.mapSizeBytes(),
                s.maxReaders(),
                s.durableWrites(),
                s.importBatchEntries(),
                s.createSuffix(),
                s.groupCommitMaxOperations(),
                s.importSortMemoryBytes());
        return c.build();
    }

    /**
     * A copy with the listen port replaced, for {@code --port}.
     *
     * @throws IllegalArgumentException when the port is outside 0..65535
     */
    public LarchConfig withPort(int port) {
        Copy c = new Copy(this);
        c.listen = listen.withPort(port);
        return c.build();
    }

    /** A copy with the listen settings replaced. */
    public LarchConfig withListen(Listen replacement) {
        Copy c = new Copy(this);
        c.listen = replacement;
        return c.build();
    }

    /** A copy with the storage settings replaced. */
    public LarchConfig withStorage(Storage replacement) {
        Copy c = new Copy(this);
        c.storage = replacement;
        return c.build();
    }

    /** A copy with the rate quotas replaced. */
    public LarchConfig withRateQuotas(RateQuotas quotas) {
        Copy c = new Copy(this);
        c.rateQuotas = quotas;
        return c.build();
    }

    /** A copy with the TLS settings replaced. */
    public LarchConfig withTls(Tls replacement) {
        Copy c = new Copy(this);
        c.tls = replacement;
        return c.build();
    }

    /** A copy with the password policy settings replaced. */
    public LarchConfig withPasswordPolicy(PasswordPolicySettings settings) {
        Copy c = new Copy(this);
        c.passwordPolicy = settings;
        return c.build();
    }

    /** A copy with the password storage settings replaced. */
    public LarchConfig withPasswords(Passwords replacement) {
        Copy c = new Copy(this);
        c.passwords = replacement;
        return c.build();
    }

    /** A copy with the access control settings replaced. */
    public LarchConfig withAccess(Access replacement) {
        Copy c = new Copy(this);
        c.access = replacement;
        return c.build();
    }

    /** A copy with the bounds of the result-shaping controls replaced. */
    public LarchConfig withResultControls(ResultControls replacement) {
        Copy c = new Copy(this);
        c.resultControls = replacement;
        return c.build();
    }

    /** A copy with the integrity rules replaced. */
    public LarchConfig withIntegrity(IntegrityRules replacement) {
        Copy c = new Copy(this);
        c.integrity = replacement;
        return c.build();
    }

    /** A copy with the monitoring settings replaced. */
    public LarchConfig withMetrics(Metrics replacement) {
        Copy c = new Copy(this);
        c.metrics = replacement;
        return c.build();
    }

    /** A copy with the logging settings replaced. */
    public LarchConfig withLogging(Logging replacement) {
        Copy c = new Copy(this);
        c.logging = replacement;
        return c.build();
    }

    /** A copy with the tracing settings replaced. */
    public LarchConfig withTracing(Tracing replacement) {
        Copy c = new Copy(this);
        c.tracing = replacement;
        return c.build();
    }

    /** A copy with the self-warm-up setting replaced. */
    public LarchConfig withWarmUp(WarmUp replacement) {
        Copy c = new Copy(this);
        c.warmUp = replacement;
        return c.build();
    }

    /**
     * The components of a config, to change one and build a new config: the one place besides the
     * record header that lists them all, so a new component is added here, not to every copy method.
     */
    private static final class Copy {
        private final String suffix;
        private Listen listen;
        private Storage storage;
        private final Limits limits;
        private final Security security;
        private Logging logging;
        private final Map<String, Set<IndexKind>> indexes;
        private final List<Path> schemaFiles;
        private RateQuotas rateQuotas;
        private Tls tls;
        private PasswordPolicySettings passwordPolicy;
        private Passwords passwords;
        private Access access;
        private ResultControls resultControls;
        private IntegrityRules integrity;
        private Metrics metrics;
        private Tracing tracing;
        private WarmUp warmUp;

        Copy(LarchConfig c) {
            suffix = c.suffix;
            listen = c.listen;
            storage = c.storage;
            limits = c.limits;
            security = c.security;
            logging = c.logging;
            indexes = c.indexes;
            schemaFiles = c.schemaFiles;
            rateQuotas = c.rateQuotas;
            tls = c.tls;
            passwordPolicy = c.passwordPolicy;
            passwords = c.passwords;
            access = c.access;
            resultControls = c.resultControls;
            integrity = c.integrity;
            metrics = c.metrics;
            tracing = c.tracing;
            warmUp = c.warmUp;
        }

        LarchConfig build() {
            return new LarchConfig(
                    suffix,
                    listen,
                    storage,
                    limits,
                    security,
                    logging,
                    indexes,
                    schemaFiles,
                    rateQuotas,
                    tls,
                    passwordPolicy,
                    passwords,
                    access,
                    resultControls,
                    integrity,
                    metrics,
                    tracing,
                    warmUp);
        }
    }

    // EnumSet keeps kinds in declaration order, so printing the config is stable.
    private static Map<String, Set<IndexKind>> copyIndexes(Map<String, Set<IndexKind>> indexes) {
        Map<String, Set<IndexKind>> copy = new LinkedHashMap<>();
        indexes.forEach((attribute, kinds) -> {
            EnumSet<IndexKind> set = EnumSet.noneOf(IndexKind.class);
            set.addAll(kinds);
            copy.put(Objects.requireNonNull(attribute, "index attribute"), Collections.unmodifiableSet(set));
        });
        return Collections.unmodifiableMap(copy);
    }
}
