package dev.larch.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Builds a configuration from the settings of one config file (or of settings given in code): a key
 * that is not set takes its default declared in {@link SettingCatalog}. Stateless.
 */
final class ConfigLoader {
    /** Every fixed key the file may set, as {@link SettingCatalog} declares them; {@code index.<attribute>} and {@code tls.certificate-mapping.<N>.<field>} keys come on top. */
    static final List<String> KEYS = SettingCatalog.all().stream()
            .map(Setting::key)
            .filter(key -> !key.startsWith(SettingCatalog.INDEX_PREFIX)
                    && !key.startsWith(SettingCatalog.MAPPING_RULE)
                    && !key.startsWith(SettingCatalog.CONSUMER))
            .toList();

    static final String INDEX_PREFIX = SettingCatalog.INDEX_PREFIX;

    // RFC 4512 descr (keystring) or numericoid.
    private static final Pattern ATTRIBUTE = Pattern.compile("[A-Za-z][A-Za-z0-9-]*|[0-9]+(\\.[0-9]+)+");

    private ConfigLoader() {}

    static LarchConfig load(Path file) throws ConfigException {
        return load(file, ConfigFile.read(file, file.toString()));
    }

    /** {@link #load(Path)} over settings already read from {@code file}; its relative paths resolve against its directory. */
    static LarchConfig load(Path file, Map<String, String> raw) throws ConfigException {
        return load(file.toString(), file.toAbsolutePath().getParent(), raw);
    }

    /**
     * The configuration the settings make, every other key at its default.
     *
     * @param name how error messages name where the settings come from
     * @param dir what relative paths among the settings resolve against
     */
    static LarchConfig load(String name, Path dir, Map<String, String> raw) throws ConfigException {
        Settings s = new Settings(name, dir, raw);
        LarchConfig config = new LarchConfig(
                suffix(s),
                listen(s),
                storage(s),
                limits(s),
                security(s),
                logging(s),
                indexes(s),
                s.paths("schema.files"),
                rateQuotas(s),
                TlsSettings.read(s),
                new PasswordPolicySettings(s.value("security.default-password-policy")),
                passwords(s),
                access(s),
                resultControls(s),
                new IntegrityRules(s.list("integrity.reference-attributes"), s.list("integrity.unique-attributes")),
                metrics(s),
                tracing(s),
                new WarmUp(s.integer("server.warm-up-seconds")),
                replication(s));
        s.requireAllRead();
        requireEqualityIndexes(
                s, config, "integrity.reference-attributes", config.integrity().referenceAttributes());
        requireEqualityIndexes(
                s, config, "integrity.unique-attributes", config.integrity().uniqueAttributes());
        CertificateMappingSettings.requireIndexes(s, config);
        if (config.tls().ldapsPort() != 0
                && config.tls().ldapsPort() == config.listen().port()) {
            throw s.error(
                    "listen.ldaps-port",
                    "must differ from listen.port (" + config.listen().port() + ")");
        }
        // The authorities check client certificates (which needs a server certificate to ask for them)
        // and the certificates of providers reached over TLS.
        boolean providersOverTls = config.replication().consumers().stream().anyMatch(ReplicationConsumer::tls);
        if (config.tls().caCertificates() != null && !config.tls().configured() && !providersOverTls) {
            throw s.error(
                    "tls.ca-certificates",
                    "needs a server certificate (tls.certificate or tls.keystore), or a replication provider"
                            + " reached over TLS (replication.consumer.<rid>.start-tls or an ldaps:// provider-url)");
        }
        for (ReplicationConsumer consumer : config.replication().consumers()) {
            if (consumer.tls() && config.tls().caCertificates() == null) {
                String key = consumer.key(consumer.ldaps() ? "provider-url" : "start-tls");
                throw s.error(
                        key,
                        "reaches its provider over TLS, so tls.ca-certificates must name the authorities the"
                                + " provider's certificate chains to");
            }
        }
        if (config.limits().maxPausedSearches() >= config.storage().maxReaders()) {
            throw s.error(
                    "limits.max-paused-searches",
                    "must be less than storage.max-readers (" + config.storage().maxReaders()
                            + "), which paused searches would otherwise use up");
        }
        Limits limits = config.limits();
        if (limits.maxPausedSearches() + limits.maxLongSearches()
                >= config.storage().maxReaders()) {
            throw s.error(
                    "limits.max-long-searches",
                    "with limits.max-paused-searches (" + limits.maxPausedSearches()
                            + ") must stay below storage.max-readers ("
                            + config.storage().maxReaders()
                            + "), so that reader slots are left for other clients");
        }
        return config;
    }

    private static Replication replication(Settings s) throws ConfigException {
        String consumer = s.value("replication.consumer-dn").strip();
        if (!consumer.isEmpty() && !Dn.isValid(consumer)) {
            throw s.error(
                    "replication.consumer-dn",
                    "expected a DN such as cn=replicator,dc=example,dc=com, got '" + consumer + "'");
        }
        return new Replication(
                s.integer("replication.server-id"),
                s.integer("replication.changelog-max-changes"),
                s.integer("replication.changelog-max-age-seconds"),
                consumer,
                s.bool("replication.multi-provider"),
                s.integer("replication.max-clock-skew-seconds"),
                ReplicationConsumerSettings.read(s));
    }

    private static String suffix(Settings s) throws ConfigException {
        String suffix = s.string("suffix");
        if (suffix.isBlank() || !Dn.isValid(suffix)) {
            throw s.error("suffix", "expected a DN such as dc=example,dc=com, got '" + suffix + "'");
        }
        return suffix;
    }

    private static Listen listen(Settings s) throws ConfigException {
        return new Listen(
                s.string("listen.host"),
                s.integer("listen.port"),
                s.integer("listen.io-threads"),
                (int) s.size("listen.max-pdu-size"),
                s.integer("listen.idle-timeout-seconds"),
                s.integer("listen.max-filter-depth"),
                (int) s.size("listen.max-pdu-size-anonymous"),
                s.integer("listen.max-pending-operations"),
                s.integer("listen.max-connections"),
                s.integer("listen.max-connections-per-address"),
                s.integer("listen.max-filter-elements"),
                s.size("listen.max-pending-size"),
                s.size("listen.max-pending-size-anonymous"),
                s.size("listen.max-pending-size-total"),
                networks(s, "listen.proxy-protocol-from"));
    }

    /** A comma-separated list of CIDR networks; an empty value is none. */
    private static List<IpNetwork> networks(Settings s, String key) throws ConfigException {
        List<IpNetwork> networks = new ArrayList<>();
        for (String item : Settings.splitList(s.value(key))) {
            try {
                networks.add(IpNetwork.parse(item));
            } catch (IllegalArgumentException e) {
                throw s.error(
                        key,
                        e.getMessage() + "; expected addresses or CIDR networks such as 10.0.0.0/8 or"
                                + " 2001:db8::/32, separated by commas");
            }
        }
        return networks;
    }

    private static Storage storage(Settings s) throws ConfigException {
        return new Storage(
                s.path("storage.data-dir"),
                s.size("storage.map-size"),
                s.integer("storage.max-readers"),
                s.bool("storage.durable-writes"),
                s.integer("storage.import-batch-entries"),
                s.bool("storage.create-suffix"),
                s.integer("storage.group-commit-max-operations"),
                s.size("storage.import-sort-memory"));
    }

    private static Limits limits(Settings s) throws ConfigException {
        return new Limits(
                s.integer("limits.size-limit"),
                s.integer("limits.time-limit-seconds"),
                s.integer("limits.look-through-limit"),
                s.integer("limits.index-entry-limit"),
                s.integer("limits.worker-threads"),
                s.integer("limits.worker-queue"),
                s.bool("limits.apply-to-admin"),
                s.integer("limits.paused-search-seconds"),
                s.integer("limits.max-paused-searches"),
                s.integer("limits.max-long-searches"));
    }

    /** The integrity rules find other entries through equality indexes only, never a scan. */
    private static void requireEqualityIndexes(Settings s, LarchConfig config, String key, List<String> attributes)
            throws ConfigException {
        for (String attribute : attributes) {
            boolean indexed = config.indexes().entrySet().stream()
                    .anyMatch(e -> e.getKey().equalsIgnoreCase(attribute)
                            && e.getValue().contains(IndexKind.EQUALITY));
            if (!indexed) {
                throw s.error(key, attribute + " needs an equality index: add index." + attribute + " = equality");
            }
        }
    }

    private static ResultControls resultControls(Settings s) throws ConfigException {
        return new ResultControls(
                s.integer("limits.max-paged-searches-per-connection"),
                s.integer("limits.paged-size-limit"),
                s.integer("limits.max-sort-entries"),
                s.integer("limits.max-persistent-searches"),
                s.integer("limits.persistent-search-queue"));
    }

    /** An empty {@code access.file} means the built-in rules. */
    private static Access access(Settings s) throws ConfigException {
        var value = s.take("access.file");
        Path file = null;
        if (value.isPresent() && !value.get().isBlank()) {
            file = s.resolve("access.file", value.get().strip());
        }
        return new Access(file, s.integer("security.min-ssf"), s.bool("security.allow-anonymous"));
    }

    private static RateQuotas rateQuotas(Settings s) throws ConfigException {
        return new RateQuotas(
                s.integer("limits.rate-per-identity"),
                s.integer("limits.rate-per-address"),
                s.integer("limits.rate-burst-seconds"),
                s.bool("limits.rate-apply-to-admin"));
    }

    private static Security security(Settings s) throws ConfigException {
        // An empty password means "not configured"; the server never accepts an empty admin password.
        String password = s.value("security.admin-password");
        boolean cleartext = s.bool("security.allow-cleartext-passwords");
        String scheme = s.choice("security.password-scheme");
        // The ceiling is the highest count the PBKDF2 verifier accepts at all.
        int maxIterations = s.integer("security.max-password-iterations");
        int delay = s.integer("security.bind-failure-delay-ms");
        int maxDelay = s.integer("security.bind-failure-max-delay-ms");
        if (maxDelay < delay) {
            throw s.error(
                    "security.bind-failure-max-delay-ms",
                    "must not be less than security.bind-failure-delay-ms (" + delay + ")");
        }
        return new Security(
                password == null || password.isEmpty() ? null : password,
                cleartext,
                scheme,
                maxIterations,
                delay,
                maxDelay);
    }

    private static Passwords passwords(Settings s) throws ConfigException {
        int maxMemory = s.integer("security.max-argon2-memory-kib");
        int maxPasses = s.integer("security.max-argon2-passes");
        int parallelism = s.integer("security.argon2-parallelism");
        int memory = s.integer("security.argon2-memory-kib");
        int passes = s.integer("security.argon2-passes");
        if (memory < 8 * parallelism) {
            throw s.error(
                    "security.argon2-memory-kib",
                    memory + " is less than 8 KiB per lane of security.argon2-parallelism (" + parallelism + ")");
        }
        // The defaults may exceed a lowered maximum even when the cost keys are not in the file.
        if (memory > maxMemory) {
            throw s.error(
                    "security.argon2-memory-kib",
                    memory + " exceeds security.max-argon2-memory-kib (" + maxMemory + ")");
        }
        if (passes > maxPasses) {
            throw s.error("security.argon2-passes", passes + " exceeds security.max-argon2-passes (" + maxPasses + ")");
        }
        return new Passwords(
                s.bool("security.allow-prehashed-passwords"),
                s.integer("security.pbkdf2-iterations"),
                memory,
                passes,
                parallelism,
                maxMemory,
                maxPasses,
                s.integer("security.admin-max-failures"),
                s.integer("security.admin-lockout-seconds"),
                s.bool("security.rehash-on-bind"),
                s.integer("security.suspect-checks-per-address"),
                s.integer("security.suspect-checks-total"),
                s.integer("security.ipv6-prefix-bits"));
    }

    private static Logging logging(Settings s) throws ConfigException {
        boolean accessLog = s.bool("logging.access-log");
        String level = s.choice("logging.level");
        String format = s.choice("logging.access-log-format");
        Path file = s.optionalPath("logging.access-log-file");
        // Rolled files are named by a logback pattern in which % starts a token.
        if (file != null && file.toString().contains("%")) {
            throw s.error("logging.access-log-file", "must not contain '%', got '" + file + "'");
        }
        Path audit = s.optionalPath("logging.audit-log-file");
        if (audit != null && audit.toString().contains("%")) {
            throw s.error("logging.audit-log-file", "must not contain '%', got '" + audit + "'");
        }
        if (audit != null && audit.equals(file)) {
            throw s.error("logging.audit-log-file", "must not be the access log file " + file);
        }
        return new Logging(
                accessLog,
                level,
                format,
                file,
                s.size("logging.access-log-max-file-size"),
                s.integer("logging.access-log-max-history"),
                s.size("logging.access-log-max-total-size"),
                s.bool("logging.access-log-compress"),
                s.integer("logging.access-log-queue-lines"),
                audit,
                s.size("logging.audit-log-max-file-size"),
                s.integer("logging.audit-log-max-history"));
    }

    /** An empty endpoint means off; only http and https URLs with a host are accepted. */
    private static Tracing tracing(Settings s) throws ConfigException {
        String value = s.value("tracing.otlp-endpoint");
        String endpoint = value.isBlank() ? null : otlpEndpoint(s, value.strip());
        return new Tracing(
                endpoint,
                s.string("tracing.service-name"),
                s.ratio("tracing.sample-ratio"),
                s.integer("tracing.max-queue-size"));
    }

    private static String otlpEndpoint(Settings s, String value) throws ConfigException {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return value;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw s.error(
                "tracing.otlp-endpoint",
                "expected an http:// or https:// URL such as http://127.0.0.1:4318, got '" + value + "'");
    }

    private static Metrics metrics(Settings s) throws ConfigException {
        boolean monitor = s.bool("metrics.monitor");
        int port = s.integer("metrics.port");
        // Empty, as the shipped file has it: the endpoint binds listen.host.
        String host = s.value("metrics.host");
        host = host.isBlank() ? null : host;
        if (port != 0 && !monitor) {
            throw s.error("metrics.port", "needs metrics.monitor = true: the endpoint serves the monitor's counters");
        }
        Path token = s.optionalPath("metrics.bearer-token-file");
        return new Metrics(monitor, port, host, token);
    }

    /**
     * The default indexes (the {@code index.*} entries of {@link SettingCatalog}), then the file's:
     * a file entry replaces the default for the same attribute; an empty value or none drops it.
     */
    private static Map<String, Set<IndexKind>> indexes(Settings s) throws ConfigException {
        Map<String, Set<IndexKind>> indexes = new LinkedHashMap<>();
        for (Setting declared : SettingCatalog.all()) {
            if (declared.key().startsWith(INDEX_PREFIX)) {
                indexes.put(
                        declared.key().substring(INDEX_PREFIX.length()),
                        indexKinds(s, declared.key(), declared.defaultValue()));
            }
        }
        Set<String> seen = new HashSet<>();
        for (String key : s.keysWithPrefix(INDEX_PREFIX)) {
            String attribute = key.substring(INDEX_PREFIX.length());
            if (!ATTRIBUTE.matcher(attribute).matches()) {
                throw s.error(key, "expected index.<attribute name or OID>");
            }
            if (!seen.add(attribute.toLowerCase(Locale.ROOT))) {
                throw s.error(key, "set twice (attribute names ignore case)");
            }
            String value = s.take(key).orElseThrow();
            Set<IndexKind> kinds = indexKinds(s, key, value);
            // Attribute names are case-insensitive: index.CN replaces the default for cn.
            indexes.keySet().removeIf(existing -> existing.equalsIgnoreCase(attribute));
            if (!kinds.isEmpty()) {
                indexes.put(attribute, kinds);
            }
        }
        return indexes;
    }

    private static Set<IndexKind> indexKinds(Settings s, String key, String value) throws ConfigException {
        Set<IndexKind> kinds = EnumSet.noneOf(IndexKind.class);
        if (value.strip().toLowerCase(Locale.ROOT).equals("none")) {
            return kinds;
        }
        for (String word : Settings.splitList(value)) {
            kinds.add(IndexKind.fromConfigWord(word)
                    .orElseThrow(() -> s.error(
                            key,
                            "expected index kinds from equality, presence, substring, ordering (or none), got '" + word
                                    + "'")));
        }
        return kinds;
    }
}
