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

/** Overlays the settings of one config file on a base configuration. Stateless. */
final class ConfigLoader {
    /** Every fixed key the file may set, as {@link SettingCatalog} declares them; {@code index.<attribute>} and {@code tls.certificate-mapping.<N>.<field>} keys come on top. */
    static final List<String> KEYS = SettingCatalog.all().stream()
            .map(Setting::key)
            .filter(key -> !key.startsWith(SettingCatalog.INDEX_PREFIX) && !key.startsWith(SettingCatalog.MAPPING_RULE))
            .toList();

    static final String INDEX_PREFIX = SettingCatalog.INDEX_PREFIX;

    // RFC 4512 descr (keystring) or numericoid.
    private static final Pattern ATTRIBUTE = Pattern.compile("[A-Za-z][A-Za-z0-9-]*|[0-9]+(\\.[0-9]+)+");

    private ConfigLoader() {}

    static LarchConfig load(Path file, LarchConfig base) throws ConfigException {
        return load(file, ConfigFile.read(file, file.toString()), base);
    }

    /** {@link #load(Path, LarchConfig)} over settings already read from {@code file}. */
    static LarchConfig load(Path file, Map<String, String> raw, LarchConfig base) throws ConfigException {
        String name = file.toString();
        Path dir = file.toAbsolutePath().getParent();
        Settings s = new Settings(name, dir, raw);
        LarchConfig config = new LarchConfig(
                suffix(s, base.suffix()),
                listen(s, base.listen()),
                storage(s, base.storage()),
                limits(s, base.limits()),
                security(s, base.security()),
                logging(s, base.logging()),
                indexes(s, base.indexes()),
                s.paths("schema.files", base.schemaFiles()),
                rateQuotas(s, base.rateQuotas()),
                TlsSettings.read(s, base.tls()),
                new PasswordPolicySettings(s.take("security.default-password-policy")
                        .orElse(base.passwordPolicy().defaultPolicyDn())),
                passwords(s, base.passwords()),
                access(s, base.access()),
                resultControls(s, base.resultControls()),
                new IntegrityRules(
                        s.list(
                                "integrity.reference-attributes",
                                base.integrity().referenceAttributes()),
                        s.list("integrity.unique-attributes", base.integrity().uniqueAttributes())),
                metrics(s, base.metrics()),
                tracing(s, base.tracing()),
                new WarmUp(s.integer("server.warm-up-seconds", base.warmUp().seconds())));
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

    private static String suffix(Settings s, String fallback) throws ConfigException {
        String suffix = s.string("suffix", fallback);
        if (suffix.isBlank() || !Dn.isValid(suffix)) {
            throw s.error("suffix", "expected a DN such as dc=example,dc=com, got '" + suffix + "'");
        }
        return suffix;
    }

    private static Listen listen(Settings s, Listen b) throws ConfigException {
        return new Listen(
                s.string("listen.host", b.host()),
                s.integer("listen.port", b.port()),
                s.integer("listen.io-threads", b.ioThreads()),
                (int) s.size("listen.max-pdu-size", b.maxPduBytes()),
                s.integer("listen.idle-timeout-seconds", b.idleTimeoutSeconds()),
                s.integer("listen.max-filter-depth", b.maxFilterDepth()),
                (int) s.size("listen.max-pdu-size-anonymous", b.maxPduBytesAnonymous()),
                s.integer("listen.max-pending-operations", b.maxPendingOperations()),
                s.integer("listen.max-connections", b.maxConnections()),
                s.integer("listen.max-connections-per-address", b.maxConnectionsPerAddress()),
                s.integer("listen.max-filter-elements", b.maxFilterElements()),
                s.size("listen.max-pending-size", b.maxPendingSize()),
                s.size("listen.max-pending-size-anonymous", b.maxPendingSizeAnonymous()),
                s.size("listen.max-pending-size-total", b.maxPendingSizeTotal()),
                networks(s, "listen.proxy-protocol-from", b.proxyProtocolFrom()));
    }

    /** A comma-separated list of CIDR networks; an empty value is none; unset keeps {@code fallback}. */
    private static List<IpNetwork> networks(Settings s, String key, List<IpNetwork> fallback) throws ConfigException {
        var value = s.take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        List<IpNetwork> networks = new ArrayList<>();
        for (String item : Settings.splitList(value.get())) {
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

    private static Storage storage(Settings s, Storage b) throws ConfigException {
        return new Storage(
                s.path("storage.data-dir", b.dataDir()),
                s.size("storage.map-size", b.mapSizeBytes()),
                s.integer("storage.max-readers", b.maxReaders()),
                s.bool("storage.durable-writes", b.durableWrites()),
                s.integer("storage.import-batch-entries", b.importBatchEntries()),
                s.bool("storage.create-suffix", b.createSuffix()),
                s.integer("storage.group-commit-max-operations", b.groupCommitMaxOperations()),
                s.size("storage.import-sort-memory", b.importSortMemoryBytes()));
    }

    private static Limits limits(Settings s, Limits b) throws ConfigException {
        return new Limits(
                s.integer("limits.size-limit", b.sizeLimit()),
                s.integer("limits.time-limit-seconds", b.timeLimitSeconds()),
                s.integer("limits.look-through-limit", b.lookThroughLimit()),
                s.integer("limits.index-entry-limit", b.indexEntryLimit()),
                s.integer("limits.worker-threads", b.workerThreads()),
                s.integer("limits.worker-queue", b.workerQueue()),
                s.bool("limits.apply-to-admin", b.applyToAdmin()),
                s.integer("limits.paused-search-seconds", b.pausedSearchSeconds()),
                s.integer("limits.max-paused-searches", b.maxPausedSearches()),
                s.integer("limits.max-long-searches", b.maxLongSearches()));
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

    private static ResultControls resultControls(Settings s, ResultControls b) throws ConfigException {
        return new ResultControls(
                s.integer("limits.max-paged-searches-per-connection", b.maxPagedSearchesPerConnection()),
                s.integer("limits.paged-size-limit", b.pagedSizeLimit()),
                s.integer("limits.max-sort-entries", b.maxSortEntries()),
                s.integer("limits.max-persistent-searches", b.maxPersistentSearches()),
                s.integer("limits.persistent-search-queue", b.persistentSearchQueue()));
    }

    /** An empty {@code access.file} means the built-in rules. */
    private static Access access(Settings s, Access b) throws ConfigException {
        var value = s.take("access.file");
        Path file = b.file();
        if (value.isPresent()) {
            file = value.get().isBlank()
                    ? null
                    : s.resolve("access.file", value.get().strip());
        }
        return new Access(
                file,
                s.integer("security.min-ssf", b.minSsf()),
                s.bool("security.allow-anonymous", b.allowAnonymous()));
    }

    private static RateQuotas rateQuotas(Settings s, RateQuotas b) throws ConfigException {
        return new RateQuotas(
                s.integer("limits.rate-per-identity", b.perIdentity()),
                s.integer("limits.rate-per-address", b.perAddress()),
                s.integer("limits.rate-burst-seconds", b.burstSeconds()),
                s.bool("limits.rate-apply-to-admin", b.applyToAdmin()));
    }

    private static Security security(Settings s, Security b) throws ConfigException {
        // An empty password means "not configured"; the server never accepts an empty admin password.
        String password = s.take("security.admin-password").orElse(b.adminPassword());
        boolean cleartext = s.bool("security.allow-cleartext-passwords", b.allowCleartextPasswords());
        String scheme = s.choice("security.password-scheme", b.passwordScheme());
        // The ceiling is the highest count the PBKDF2 verifier accepts at all.
        int maxIterations = s.integer("security.max-password-iterations", b.maxPasswordIterations());
        int delay = s.integer("security.bind-failure-delay-ms", b.bindFailureDelayMillis());
        int maxDelay = s.integer("security.bind-failure-max-delay-ms", b.bindFailureMaxDelayMillis());
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

    private static Passwords passwords(Settings s, Passwords b) throws ConfigException {
        int maxMemory = s.integer("security.max-argon2-memory-kib", b.maxArgon2MemoryKib());
        int maxPasses = s.integer("security.max-argon2-passes", b.maxArgon2Passes());
        int parallelism = s.integer("security.argon2-parallelism", b.argon2Parallelism());
        int memory = s.integer("security.argon2-memory-kib", b.argon2MemoryKib());
        int passes = s.integer("security.argon2-passes", b.argon2Passes());
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
                s.bool("security.allow-prehashed-passwords", b.allowPrehashedPasswords()),
                s.integer("security.pbkdf2-iterations", b.pbkdf2Iterations()),
                memory,
                passes,
                parallelism,
                maxMemory,
                maxPasses,
                s.integer("security.admin-max-failures", b.adminMaxFailures()),
                s.integer("security.admin-lockout-seconds", (int) b.adminLockoutSeconds()),
                s.bool("security.rehash-on-bind", b.rehashOnBind()),
                s.integer("security.suspect-checks-per-address", b.suspectChecksPerAddress()),
                s.integer("security.suspect-checks-total", b.suspectChecksTotal()),
                s.integer("security.ipv6-prefix-bits", b.ipv6PrefixBits()));
    }

    private static Logging logging(Settings s, Logging b) throws ConfigException {
        boolean accessLog = s.bool("logging.access-log", b.accessLog());
        String level = s.choice("logging.level", b.level());
        String format = s.choice("logging.access-log-format", b.accessLogFormat());
        Path file = s.optionalPath("logging.access-log-file", b.accessLogFile());
        // Rolled files are named by a logback pattern in which % starts a token.
        if (file != null && file.toString().contains("%")) {
            throw s.error("logging.access-log-file", "must not contain '%', got '" + file + "'");
        }
        Path audit = s.optionalPath("logging.audit-log-file", b.auditLogFile());
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
                s.size("logging.access-log-max-file-size", b.accessLogMaxFileSize()),
                s.integer("logging.access-log-max-history", b.accessLogMaxHistory()),
                audit,
                s.size("logging.audit-log-max-file-size", b.auditLogMaxFileSize()),
                s.integer("logging.audit-log-max-history", b.auditLogMaxHistory()));
    }

    /** An empty endpoint means off; only http and https URLs with a host are accepted. */
    private static Tracing tracing(Settings s, Tracing b) throws ConfigException {
        String endpoint = b.otlpEndpoint();
        var value = s.take("tracing.otlp-endpoint");
        if (value.isPresent()) {
            endpoint =
                    value.get().isBlank() ? null : otlpEndpoint(s, value.get().strip());
        }
        return new Tracing(
                endpoint,
                s.string("tracing.service-name", b.serviceName()),
                s.ratio("tracing.sample-ratio", b.sampleRatio()),
                s.integer("tracing.max-queue-size", b.maxQueueSize()));
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

    private static Metrics metrics(Settings s, Metrics b) throws ConfigException {
        boolean monitor = s.bool("metrics.monitor", b.monitor());
        int port = s.integer("metrics.port", b.port());
        // Empty, as the shipped file has it: the endpoint binds listen.host.
        String host = s.take("metrics.host").map(h -> h.isBlank() ? null : h).orElse(b.host());
        if (port != 0 && !monitor) {
            throw s.error("metrics.port", "needs metrics.monitor = true: the endpoint serves the monitor's counters");
        }
        Path token = s.optionalPath("metrics.bearer-token-file", b.bearerTokenFile());
        return new Metrics(monitor, port, host, token);
    }

    /** File entries replace the base entry for the same attribute; an empty value or none drops it. */
    private static Map<String, Set<IndexKind>> indexes(Settings s, Map<String, Set<IndexKind>> base)
            throws ConfigException {
        Map<String, Set<IndexKind>> indexes = new LinkedHashMap<>(base);
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
