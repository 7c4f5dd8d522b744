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
 * <p>Built from the settings of a file with {@link #load(Path)}, or of code with {@link #builder()};
 * every key not set takes its default declared in {@link SettingCatalog} ({@link #defaults()}: none
 * set). Command line overrides then replace the data directory or the port. The file format and
 * every key are documented in {@code config/larch.conf}.
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
 * @param tracing per-operation tracing over OTLP ({@code tracing.*}); off unless an endpoint is set
 * @param warmUp self-warm-up before the listener opens ({@code server.warm-up-seconds})
 * @param replication content synchronization ({@code replication.*})
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
        WarmUp warmUp,
        Replication replication) {

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
        Objects.requireNonNull(replication, "replication");
    }

    /**
     * The configuration of no settings at all, every key at its default declared in
     * {@link SettingCatalog}: what {@code ./larch serve} uses without {@code --config}.
     */
    public static LarchConfig defaults() {
        return DefaultConfig.CONFIG;
    }

    /** Built on first use, once. */
    private static final class DefaultConfig {
        static final LarchConfig CONFIG = builder().build();
    }

    /**
     * Settings given in code (tests, tools), read as a file's are: start from the defaults, set keys
     * as a config file writes them, build.
     */
    public static Builder builder() {
        return new Builder();
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
        return ConfigLoader.load(file);
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
        return new FileConfig(ConfigLoader.load(file, raw), raw);
    }

    /** A copy with the data directory replaced, for {@code --data}. */
    public LarchConfig withDataDir(Path dir) {
        return with(listen, storage.withDataDir(dir));
    }

    /**
     * A copy with the listen port replaced, for {@code --port}.
     *
     * @throws IllegalArgumentException when the port is outside 0..65535
     */
    public LarchConfig withPort(int port) {
        return with(listen.withPort(port), storage);
    }

    // The one copy the command line overrides need; anything else is set as a key through builder().
    private LarchConfig with(Listen newListen, Storage newStorage) {
        return new LarchConfig(
                suffix,
                newListen,
                newStorage,
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
                warmUp,
                replication);
    }

    /**
     * Settings given in code, checked and completed exactly as a config file's: an undeclared key or a
     * bad value fails {@link #build()} with the message a file would get. Relative paths are relative
     * to the working directory. Not thread-safe.
     */
    public static final class Builder {
        /** How error messages name settings given in code, where they would name a file. */
        public static final String SOURCE = "settings given in code";

        private final Map<String, String> settings = new LinkedHashMap<>();

        private Builder() {}

        /**
         * Sets a key as a config file line {@code key = value} would; a later call for the same key
         * replaces the earlier.
         *
         * @param value written as {@link String#valueOf(Object)} gives it (a {@link Path} as its string)
         */
        public Builder set(String key, Object value) {
            settings.put(
                    Objects.requireNonNull(key, "key"), String.valueOf(value).strip());
            return this;
        }

        /**
         * The configuration of the settings, every other key at its default.
         *
         * @throws IllegalArgumentException wrapping the {@link ConfigException} a config file with these
         *     settings would get (an undeclared key or a bad value is a programming error in code)
         */
        public LarchConfig build() {
            try {
                return ConfigLoader.load(SOURCE, Path.of(""), settings);
            } catch (ConfigException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
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
