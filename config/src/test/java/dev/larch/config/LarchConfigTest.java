package dev.larch.config;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LarchConfigTest {
    /** The file users edit, relative to this module (Surefire runs in the module directory). */
    private static final Path SHIPPED = Path.of("larch.conf");

    private static final Pattern COMMENTED_SETTING = Pattern.compile("#\\s*([a-z][a-zA-Z.-]*)\\s*=.*");

    @TempDir
    Path dir;

    /**
     * The shipped file is generated from the catalog's declarations and {@link LarchConfig#defaults()}
     * reads none: a value the file writes that reads back differently, or a default the loader does not
     * take from the catalog, shows here.
     */
    @Test
    void theShippedFileMakesTheDefaults() throws Exception {
        assertEquals(LarchConfig.defaults(), LarchConfig.load(SHIPPED));
    }

    @Test
    void theBuilderSetsKeysAsAFileDoes() throws Exception {
        LarchConfig c = LarchConfig.builder()
                .set("limits.size-limit", 10)
                .set("storage.data-dir", dir)
                .set("index.sn", "none")
                .build();
        assertEquals(10, c.limits().sizeLimit());
        assertEquals(dir, c.storage().dataDir());
        assertFalse(c.indexes().containsKey("sn"));
        assertEquals(
                LarchConfig.load(write("limits.size-limit = 10\nstorage.data-dir = " + dir + "\nindex.sn = none\n")),
                c);
        assertEquals(LarchConfig.defaults(), LarchConfig.builder().build());
        assertEquals(
                Path.of("data"),
                LarchConfig.builder()
                        .set("storage.data-dir", "data")
                        .build()
                        .storage()
                        .dataDir(),
                "relative to the working directory");
    }

    @Test
    void theBuilderRefusesWhatAFileIsRefused() throws Exception {
        for (String line : List.of("limits.no-such-limit = 1", "limits.size-limit = -1", "listen.port = 65536")) {
            String key = line.substring(0, line.indexOf(' '));
            String value = line.substring(line.indexOf('=') + 1).strip();
            Path file = write(line + "\n");
            ConfigException fromFile = assertThrows(ConfigException.class, () -> LarchConfig.load(file));
            IllegalArgumentException fromCode = assertThrows(
                    IllegalArgumentException.class,
                    () -> LarchConfig.builder().set(key, value).build());
            assertEquals(
                    fromFile.getMessage().replace(file.toString(), LarchConfig.Builder.SOURCE), fromCode.getMessage());
            assertTrue(
                    fromCode.getMessage().startsWith(LarchConfig.Builder.SOURCE + ": " + key + ": "),
                    fromCode.getMessage());
        }
    }

    @Test
    void shippedFileDocumentsEveryKey() throws IOException {
        String text = Files.readString(SHIPPED);
        for (String key : ConfigLoader.KEYS) {
            assertTrue(
                    Pattern.compile("(?m)^#?\\s*" + Pattern.quote(key) + "\\s*=")
                            .matcher(text)
                            .find(),
                    () -> key + " is missing from larch.conf");
        }
        for (String attribute : LarchConfig.defaults().indexes().keySet()) {
            assertTrue(text.contains("index." + attribute + " ="), attribute);
        }
    }

    @Test
    void commentedOutSettingsInShippedFileAreValid() throws Exception {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(SHIPPED)) {
            Matcher m = COMMENTED_SETTING.matcher(line);
            boolean setting = m.matches() && ConfigLoader.KEYS.contains(m.group(1));
            lines.add(setting ? line.substring(1) : line);
        }
        Path file = dir.resolve("larch.conf");
        Files.write(file, lines);
        LarchConfig loaded = LarchConfig.load(file);
        // data-dir is the one commented-out setting: active, it pins var next to the file.
        assertEquals(dir.resolve("var").toAbsolutePath(), loaded.storage().dataDir());
        assertEquals(
                LarchConfig.defaults(),
                loaded.withDataDir(LarchConfig.defaults().storage().dataDir()));
    }

    @Test
    void defaultsAreWhatTheIssueAsksFor() {
        LarchConfig d = LarchConfig.defaults();
        assertEquals("dc=example,dc=com", d.suffix());
        assertEquals("127.0.0.1", d.listen().host());
        assertEquals(1389, d.listen().port());
        assertEquals(10 * 1024 * 1024, d.listen().maxPduBytes());
        assertEquals(256 * 1024, d.listen().maxPduBytesAnonymous());
        assertEquals(900, d.listen().idleTimeoutSeconds());
        assertEquals(4096, d.listen().maxConnections());
        assertEquals(512, d.listen().maxConnectionsPerAddress());
        assertEquals(Path.of("var"), d.storage().dataDir());
        assertEquals(64L << 30, d.storage().mapSizeBytes());
        assertTrue(d.storage().durableWrites());
        assertNull(d.security().adminPassword());
        assertFalse(d.security().allowCleartextPasswords());
        assertEquals("PBKDF2-SHA256", d.security().passwordScheme());
        assertEquals(Set.of(IndexKind.EQUALITY), d.indexes().get("objectClass"));
        assertEquals(
                Set.of(IndexKind.EQUALITY, IndexKind.SUBSTRING), d.indexes().get("givenName"));
        // member, uniqueMember, manager and secretary are indexed for referential integrity,
        // memberOf for (memberOf=G), entryUUID and entryCSN for content synchronization
        assertEquals(13, d.indexes().size());
        assertEquals(Set.of(IndexKind.EQUALITY), d.indexes().get("memberOf"));
        assertEquals(Set.of(IndexKind.EQUALITY), d.indexes().get("entryUUID"));
        assertEquals(Set.of(IndexKind.EQUALITY), d.indexes().get("entryCSN"));
        assertEquals(
                List.of("member", "uniqueMember", "manager", "secretary"),
                d.integrity().referenceAttributes());
        assertEquals(List.of("uid", "mail"), d.integrity().uniqueAttributes());
        assertEquals(List.of(), d.schemaFiles());
        assertEquals(RateQuotas.OFF, d.rateQuotas());
        assertFalse(d.rateQuotas().enabled());
    }

    @Test
    void rateQuotasAreReadFromTheirKeysAndSurviveOverrides() throws Exception {
        LarchConfig c = LarchConfig.load(write("""
                limits.rate-per-identity = 50
                limits.rate-per-address = 200
                limits.rate-burst-seconds = 5
                limits.rate-apply-to-admin = true
                """));
        RateQuotas expected = c.rateQuotas();
        assertEquals(
                List.of(50, 200, 5, true),
                List.of(
                        expected.perIdentity(),
                        expected.perAddress(),
                        expected.burstSeconds(),
                        expected.applyToAdmin()));
        assertTrue(c.rateQuotas().enabled());
        assertEquals(expected, c.withPort(0).withDataDir(Path.of("/tmp/x")).rateQuotas());
        assertEquals(LarchConfig.defaults().limits(), c.limits());
    }

    @Test
    void proxyProtocolNetworksAreReadFromTheirKeyAndSurviveOverrides() throws Exception {
        assertEquals(List.of(), LarchConfig.defaults().listen().proxyProtocolFrom());
        LarchConfig c = LarchConfig.load(write("listen.proxy-protocol-from = 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32\n"));
        List<IpNetwork> networks = c.listen().proxyProtocolFrom();
        assertEquals(
                List.of(
                        IpNetwork.parse("10.0.0.0/8"),
                        IpNetwork.parse("192.0.2.7/32"),
                        IpNetwork.parse("2001:db8::/32")),
                networks);
        assertEquals(
                networks, c.withPort(0).withDataDir(Path.of("/tmp/x")).listen().proxyProtocolFrom());
        assertTrue(networks.get(0).contains(InetAddress.getByName("10.255.0.1")));
        assertFalse(networks.get(0).contains(InetAddress.getByName("11.0.0.1")));
        assertTrue(networks.get(1).contains(InetAddress.getByName("192.0.2.7")));
        assertFalse(networks.get(1).contains(InetAddress.getByName("192.0.2.8")));
        assertTrue(networks.get(2).contains(InetAddress.getByName("2001:db8:ffff::1")));
        assertFalse(networks.get(2).contains(InetAddress.getByName("2001:db9::1")));
        assertFalse(networks.get(2).contains(InetAddress.getByName("10.0.0.1")));
        assertEquals(
                List.of(),
                LarchConfig.load(write("listen.proxy-protocol-from =\n"))
                        .listen()
                        .proxyProtocolFrom());
    }

    @Test
    void metricsAreReadFromTheirKeysAndSurviveOverrides() throws Exception {
        Metrics d = LarchConfig.defaults().metrics();
        assertEquals(
                Arrays.asList(true, 0, null, null),
                Arrays.asList(d.monitor(), d.port(), d.host(), d.bearerTokenFile()));
        assertFalse(LarchConfig.defaults().metrics().endpoint());
        LarchConfig c = LarchConfig.load(write("""
                metrics.port = 9389
                metrics.host = 10.0.0.7
                """));
        Metrics expected = c.metrics();
        assertEquals(
                Arrays.asList(true, 9389, "10.0.0.7", null),
                Arrays.asList(expected.monitor(), expected.port(), expected.host(), expected.bearerTokenFile()));
        assertTrue(c.metrics().endpoint());
        assertEquals("10.0.0.7", c.metrics().hostOr(c.listen().host()));
        assertEquals(expected, c.withPort(0).withDataDir(Path.of("/tmp/x")).metrics());
        LarchConfig bare = LarchConfig.load(write("metrics.port = 9389\nmetrics.host =\n"));
        assertEquals(bare.listen().host(), bare.metrics().hostOr(bare.listen().host()));
        assertEquals(null, bare.metrics().bearerTokenFile());
        LarchConfig token =
                LarchConfig.load(write("metrics.port = 9389\nmetrics.bearer-token-file = /etc/larch/token\n"));
        assertEquals(Path.of("/etc/larch/token"), token.metrics().bearerTokenFile());
        assertFalse(
                LarchConfig.load(write("metrics.monitor = false\n")).metrics().monitor());
        Path endpointWithoutCounters = write("metrics.port = 9389\nmetrics.monitor = false\n");
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(endpointWithoutCounters));
        assertTrue(e.getMessage().contains("metrics.port: needs metrics.monitor = true"), e.getMessage());
    }

    @Test
    void persistentSearchBoundsAreReadFromTheirKeysAndSurviveOverrides() throws Exception {
        assertEquals(1000, LarchConfig.defaults().resultControls().maxPersistentSearches());
        assertEquals(1000, LarchConfig.defaults().resultControls().persistentSearchQueue());
        LarchConfig c = LarchConfig.load(write("""
                limits.max-persistent-searches = 7
                limits.persistent-search-queue = 30
                """));
        ResultControls expected = c.resultControls();
        assertEquals(
                List.of(16, 0, 20_000, 7, 30),
                List.of(
                        expected.maxPagedSearchesPerConnection(),
                        expected.pagedSizeLimit(),
                        expected.maxSortEntries(),
                        expected.maxPersistentSearches(),
                        expected.persistentSearchQueue()));
        assertEquals(expected, c.withPort(0).withDataDir(Path.of("/tmp/x")).resultControls());
    }

    @Test
    void theDefaultPasswordPolicyIsReadFromItsKeyAndSurvivesOverrides() throws Exception {
        assertFalse(LarchConfig.defaults().passwordPolicy().hasDefaultPolicy());
        LarchConfig c = LarchConfig.load(
                write("security.default-password-policy =  cn=default,ou=policies,dc=example,dc=com \n"));
        PasswordPolicySettings expected = c.passwordPolicy();
        assertEquals("cn=default,ou=policies,dc=example,dc=com", expected.defaultPolicyDn());
        assertTrue(c.passwordPolicy().hasDefaultPolicy());
        assertEquals(expected, c.withPort(0).withDataDir(Path.of("/tmp/x")).passwordPolicy());
    }

    @Test
    void passwordStorageIsReadFromItsKeysAndSurvivesOverrides() throws Exception {
        Passwords d = LarchConfig.defaults().passwords();
        assertEquals(
                List.of(true, 100_000, 19_456, 2, 1, 65_536, 10),
                List.of(
                        d.allowPrehashedPasswords(),
                        d.pbkdf2Iterations(),
                        d.argon2MemoryKib(),
                        d.argon2Passes(),
                        d.argon2Parallelism(),
                        d.maxArgon2MemoryKib(),
                        d.maxArgon2Passes()));
        LarchConfig c = LarchConfig.load(write("""
                security.password-scheme = argon2
                security.allow-prehashed-passwords = false
                security.pbkdf2-iterations = 210000
                security.argon2-memory-kib = 32768
                security.argon2-passes = 3
                security.argon2-parallelism = 2
                security.max-argon2-memory-kib = 131072
                security.max-argon2-passes = 4
                """));
        Passwords p = c.passwords();
        assertEquals("ARGON2", c.security().passwordScheme());
        assertEquals(
                List.of(false, 210_000, 32_768, 3, 2, 131_072, 4),
                List.of(
                        p.allowPrehashedPasswords(),
                        p.pbkdf2Iterations(),
                        p.argon2MemoryKib(),
                        p.argon2Passes(),
                        p.argon2Parallelism(),
                        p.maxArgon2MemoryKib(),
                        p.maxArgon2Passes()));
        assertEquals(p, c.withPort(0).withDataDir(Path.of("/tmp/x")).passwords());
    }

    @Test
    void argon2CostsAboveTheirMaximumAreRefusedEvenWhenOnlyTheMaximumIsSet() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> LarchConfig.load(write("security.max-argon2-memory-kib = 8192\n")));
        assertTrue(e.getMessage().contains("security.argon2-memory-kib"), e.getMessage());
        assertThrows(ConfigException.class, () -> LarchConfig.load(write("security.pbkdf2-iterations = 999\n")));
        assertThrows(ConfigException.class, () -> LarchConfig.load(write("security.argon2-parallelism = 17\n")));
    }

    @Test
    void emptyFileGivesDefaults() throws Exception {
        assertEquals(LarchConfig.defaults(), LarchConfig.load(write("# nothing\n\n")));
    }

    @Test
    void suffixCreationIsOnByDefaultAndTheFileCanTurnItOff() throws Exception {
        assertTrue(LarchConfig.defaults().storage().createSuffix());
        LarchConfig off = LarchConfig.load(write("storage.create-suffix = false\n"));
        assertFalse(off.storage().createSuffix());
        assertFalse(off.withDataDir(dir).storage().createSuffix(), "--data keeps the setting");
        ConfigException e =
                assertThrows(ConfigException.class, () -> LarchConfig.load(write("storage.create-suffix = 1\n")));
        assertTrue(e.getMessage().contains("storage.create-suffix"), e.getMessage());
    }

    @Test
    void groupCommitBoundIsReadAndSurvivesOverrides() throws Exception {
        assertEquals(256, LarchConfig.defaults().storage().groupCommitMaxOperations());
        LarchConfig c = LarchConfig.load(write("storage.group-commit-max-operations = 1\n"));
        assertEquals(1, c.storage().groupCommitMaxOperations());
        assertEquals(1, c.withDataDir(dir).withPort(0).storage().groupCommitMaxOperations(), "--data keeps it");
        assertEquals(
                LarchConfig.builder()
                        .set("storage.group-commit-max-operations", 1)
                        .build(),
                c.withDataDir(LarchConfig.defaults().storage().dataDir()));
    }

    @Test
    void fileOverridesOnlyWhatItSets() throws Exception {
        LarchConfig c = LarchConfig.load(write("""
                suffix = o=larch
                listen.port = 10389
                storage.map-size = 512m
                storage.durable-writes = no
                limits.size-limit = 0
                logging.level = debug
                """));
        LarchConfig d = LarchConfig.defaults();
        assertEquals("o=larch", c.suffix());
        assertEquals(10389, c.listen().port());
        assertEquals(d.listen().host(), c.listen().host());
        assertEquals(512L << 20, c.storage().mapSizeBytes());
        assertFalse(c.storage().durableWrites());
        assertEquals(0, c.limits().sizeLimit());
        assertEquals(d.limits().timeLimitSeconds(), c.limits().timeLimitSeconds());
        assertEquals("DEBUG", c.logging().level());
        assertEquals(d.indexes(), c.indexes());
    }

    @Test
    void adminIsExemptFromTheLimitsUnlessToldAndFiltersAreBoundedByDefault() throws Exception {
        LarchConfig d = LarchConfig.defaults();
        assertFalse(d.limits().applyToAdmin());
        assertEquals(10_000, d.listen().maxFilterElements());
        LarchConfig c = LarchConfig.load(write("""
                limits.apply-to-admin = true
                listen.max-filter-elements = 250
                """));
        assertTrue(c.limits().applyToAdmin());
        assertEquals(250, c.listen().maxFilterElements());
        assertEquals(d.limits().sizeLimit(), c.limits().sizeLimit());
        assertThrows(ConfigException.class, () -> LarchConfig.load(write("listen.max-filter-elements = 0\n")));
    }

    @Test
    void relativePathsResolveAgainstTheFilesDirectory() throws Exception {
        LarchConfig c = LarchConfig.load(write("""
                storage.data-dir = data/store
                schema.files = a.schema, /abs/b.schema ,
                """));
        assertEquals(dir.resolve("data/store").toAbsolutePath(), c.storage().dataDir());
        assertEquals(List.of(dir.resolve("a.schema").toAbsolutePath(), Path.of("/abs/b.schema")), c.schemaFiles());
    }

    @Test
    void integrityAttributesNeedAnEqualityIndex() throws Exception {
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(write("""
                index.mail = substring
                """)));
        assertTrue(
                e.getMessage().contains("integrity.unique-attributes: mail needs an equality index"), e.getMessage());
        LarchConfig none = LarchConfig.load(write("""
                index.mail = substring
                integrity.unique-attributes =
                """));
        assertEquals(List.of(), none.integrity().uniqueAttributes());
    }

    @Test
    void indexEntriesReplaceOrDropDefaultsPerAttribute() throws Exception {
        LarchConfig c = LarchConfig.load(write("""
                index.CN = equality, ordering, PRESENCE
                index.member = none
                integrity.reference-attributes = uniqueMember, manager, secretary
                index.sn =
                index.telephoneNumber = substring
                index.2.5.4.20 = equality
                """));
        Map<String, Set<IndexKind>> idx = c.indexes();
        assertEquals(EnumSet.of(IndexKind.EQUALITY, IndexKind.PRESENCE, IndexKind.ORDERING), idx.get("CN"));
        assertFalse(idx.containsKey("cn"));
        assertFalse(idx.containsKey("member"));
        assertFalse(idx.containsKey("sn"));
        assertEquals(Set.of(IndexKind.SUBSTRING), idx.get("telephoneNumber"));
        assertEquals(Set.of(IndexKind.EQUALITY), idx.get("2.5.4.20"));
        assertEquals(Set.of(IndexKind.EQUALITY), idx.get("objectClass"));
    }

    @Test
    void valuesKeepBackslashesAndHashes() throws Exception {
        LarchConfig c = LarchConfig.load(write("security.admin-password =  p#ss\\word= \n"));
        assertEquals("p#ss\\word=", c.security().adminPassword());
    }

    @Test
    void emptyAdminPasswordMeansNotConfigured() throws Exception {
        assertNull(LarchConfig.load(write("security.admin-password =\n"))
                .security()
                .adminPassword());
    }

    @Test
    void adminPasswordNeverAppearsInToString() throws Exception {
        LarchConfig c = LarchConfig.load(write("security.admin-password = hunter2\n"));
        assertFalse(c.toString().contains("hunter2"));
    }

    @Test
    void passwordSchemeAndLevelAreNormalized() throws Exception {
        LarchConfig c = LarchConfig.load(write("security.password-scheme = pbkdf2-sha256\nlogging.level = warn\n"));
        assertEquals("PBKDF2-SHA256", c.security().passwordScheme());
        assertEquals("WARN", c.logging().level());
    }

    @Test
    void commandLineOverridesReplaceOneSetting() {
        LarchConfig d = LarchConfig.defaults();
        LarchConfig c = d.withPort(0).withDataDir(Path.of("/tmp/x"));
        assertEquals(0, c.listen().port());
        assertEquals(Path.of("/tmp/x"), c.storage().dataDir());
        assertEquals(d.withPort(0).withDataDir(Path.of("/tmp/x")), c);
        assertEquals(d.limits(), c.limits());
        assertThrows(IllegalArgumentException.class, () -> d.withPort(65_536));
        assertThrows(IllegalArgumentException.class, () -> d.withPort(-1));
    }

    @Test
    void collectionsAreUnmodifiable() {
        LarchConfig d = LarchConfig.defaults();
        assertThrows(UnsupportedOperationException.class, () -> d.indexes().put("x", Set.of()));
        assertThrows(
                UnsupportedOperationException.class, () -> d.indexes().get("cn").clear());
        assertThrows(UnsupportedOperationException.class, () -> d.schemaFiles().add(Path.of("x")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            listen.port = abc                   | listen.port: expected an integer 0..65535, got 'abc'
            listen.port = 65536                 | listen.port: expected an integer 0..65535, got '65536'
            listen.port = -1                    | listen.port: expected an integer 0..65535, got '-1'
            listen.port =                       | listen.port: expected an integer 0..65535, got ''
            listen.io-threads = 2.5             | listen.io-threads: expected an integer 0..1024, got '2.5'
            listen.max-pdu-size = 10q           | listen.max-pdu-size: expected a size 1k..
            listen.max-pdu-size = 100           | listen.max-pdu-size: expected a size 1k..
            listen.max-pdu-size = 4g            | listen.max-pdu-size: expected a size 1k..
            listen.max-filter-depth = 0         | listen.max-filter-depth: expected an integer 1..10000, got '0'
            listen.idle-timeout-seconds = 99999999999 | listen.idle-timeout-seconds: expected an integer 0..
            listen.host =                       | listen.host: expected a value, got nothing
            storage.map-size = lots             | storage.map-size: expected a size 1m..
            storage.map-size = 99999999999t     | storage.map-size: expected a size 1m..
            storage.max-readers = 0             | storage.max-readers: expected an integer 1..
            storage.durable-writes = maybe      | storage.durable-writes: expected true or false, got 'maybe'
            storage.import-batch-entries = 0    | storage.import-batch-entries: expected an integer 1..
            storage.group-commit-max-operations = 0 | storage.group-commit-max-operations: expected an integer 1..100000, got '0'
            storage.group-commit-max-operations = many | storage.group-commit-max-operations: expected an integer 1..100000, got 'many'
            storage.data-dir =                  | storage.data-dir: expected a path, got nothing
            limits.size-limit = -5              | limits.size-limit: expected an integer 0..
            limits.time-limit-seconds = 1h      | limits.time-limit-seconds: expected an integer 0..
            limits.look-through-limit = x       | limits.look-through-limit: expected an integer 0..
            limits.index-entry-limit = -1       | limits.index-entry-limit: expected an integer 0..
            limits.rate-per-identity = -1       | limits.rate-per-identity: expected an integer 0..1000000, got '-1'
            limits.rate-per-address = 2000000   | limits.rate-per-address: expected an integer 0..1000000, got '2000000'
            limits.rate-burst-seconds = 0       | limits.rate-burst-seconds: expected an integer 1..3600, got '0'
            limits.rate-apply-to-admin = 2      | limits.rate-apply-to-admin: expected true or false, got '2'
            limits.max-persistent-searches = 0  | limits.max-persistent-searches: expected an integer 1..100000, got '0'
            limits.persistent-search-queue = x  | limits.persistent-search-queue: expected an integer 1..1000000, got 'x'
            limits.paused-search-seconds = 0    | limits.paused-search-seconds: expected an integer 1..
            limits.max-paused-searches = 1024   | limits.max-paused-searches: must be less than storage.max-readers (1024)
            limits.max-long-searches = 600      | limits.max-long-searches: with limits.max-paused-searches (512) must stay below storage.max-readers (1024)
            security.allow-cleartext-passwords = 1 | security.allow-cleartext-passwords: expected true or false, got '1'
            security.password-scheme = MD5      | security.password-scheme: expected one of SSHA, SSHA256, SSHA512, PBKDF2-SHA256, ARGON2, got 'MD5'
            logging.access-log = enabled        | logging.access-log: expected true or false, got 'enabled'
            logging.level = LOUD                | logging.level: expected one of TRACE, DEBUG, INFO, WARN, ERROR, OFF, got 'LOUD'
            metrics.port = 70000                | metrics.port: expected an integer 0..65535, got '70000'
            metrics.monitor = maybe             | metrics.monitor: expected true or false, got 'maybe'
            logging.access-log-format = xml     | logging.access-log-format: expected one of text, json, got 'xml'
            logging.access-log-max-file-size = 10 | logging.access-log-max-file-size: expected a size 1k..
            logging.access-log-file = /var/log/access-%d.log | logging.access-log-file: must not contain '%'
            logging.access-log-max-history = 0  | logging.access-log-max-history: expected an integer 1..36500, got '0'
            logging.access-log-max-total-size = -1g | logging.access-log-max-total-size: expected a size
            logging.access-log-compress = gzip  | logging.access-log-compress: expected true or false, got 'gzip'
            tracing.otlp-endpoint = 127.0.0.1:4318 | tracing.otlp-endpoint: expected an http:// or https:// URL such as http://127.0.0.1:4318, got '127.0.0.1:4318'
            tracing.otlp-endpoint = ftp://h:21  | tracing.otlp-endpoint: expected an http:// or https:// URL
            tracing.sample-ratio = 1.5          | tracing.sample-ratio: expected a number 0.0..1.0, got '1.5'
            tracing.sample-ratio = NaN          | tracing.sample-ratio: expected a number 0.0..1.0, got 'NaN'
            tracing.sample-ratio = -0.1         | tracing.sample-ratio: expected a number 0.0..1.0, got '-0.1'
            tracing.max-queue-size = 0          | tracing.max-queue-size: expected an integer 1..1000000, got '0'
            tracing.service-name =              | tracing.service-name: expected a value, got nothing
            index.cn = equality, fuzzy          | index.cn: expected index kinds from equality, presence, substring, ordering (or none), got 'fuzzy'
            index. = equality                   | index.: expected index.<attribute name or OID>
            index.c_n = equality                | index.c_n: expected index.<attribute name or OID>
            suffix = not a dn                   | suffix: expected a DN such as dc=example,dc=com, got 'not a dn'
            suffix =                            | suffix: expected a value, got nothing
            listen.proxy-protocol-from = 10.0.0.0/8, 10.1.2.300 | listen.proxy-protocol-from: '10.1.2.300' is not a numeric IP address or network
            listen.proxy-protocol-from = lb.example.com | listen.proxy-protocol-from: 'lb.example.com' is not a numeric IP address or network
            listen.proxy-protocol-from = 10.0.0.0/33 | listen.proxy-protocol-from: '10.0.0.0/33': prefix length above 32
            listen.proxy-protocol-from = 2001:db8::/129 | listen.proxy-protocol-from: '2001:db8::/129': prefix length above 128
            listen.proxy-protocol-from = 2001:db8::g/32 | listen.proxy-protocol-from: '2001:db8::g/32' is not a numeric IP address or network
            listen.proxy-protocol-from = 10.0.0.0/ | listen.proxy-protocol-from: '10.0.0.0/' has no valid prefix length
            listen.proxy-protocol-from = 10.0/8 | listen.proxy-protocol-from: '10.0/8' is not a numeric IP address or network
            listen.prot = 1389                  | listen.prot: unknown key
            Suffix = dc=x                       | Suffix: unknown key
            """)
    void badSettingIsReportedWithFileAndKey(String line, String expected) throws IOException {
        Path file = write(line + "\n");
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(file));
        assertTrue(e.getMessage().startsWith(file + ": " + expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void accessLogIsTextOnStandardOutputUnlessAFormatOrFileIsSet() throws Exception {
        Logging d = LarchConfig.defaults().logging();
        assertEquals(Logging.TEXT, d.accessLogFormat());
        assertFalse(d.jsonAccessLog());
        assertNull(d.accessLogFile());
        assertEquals(100L << 20, d.accessLogMaxFileSize());
        assertEquals(7, d.accessLogMaxHistory());
        assertEquals(10L << 30, d.accessLogMaxTotalSize());
        assertFalse(d.accessLogCompress());
        Logging c = LarchConfig.load(write("""
                        logging.access-log-format = JSON
                        logging.access-log-file = logs/access.log
                        logging.access-log-max-file-size = 10m
                        logging.access-log-max-history = 30
                        logging.access-log-max-total-size = 0
                        logging.access-log-compress = true
                        """)).logging();
        assertEquals(Logging.JSON, c.accessLogFormat());
        assertTrue(c.jsonAccessLog());
        assertEquals(
                dir.resolve("logs/access.log").toAbsolutePath(),
                c.accessLogFile().toAbsolutePath());
        assertEquals(10L << 20, c.accessLogMaxFileSize());
        assertEquals(30, c.accessLogMaxHistory());
        assertEquals(0, c.accessLogMaxTotalSize());
        assertTrue(c.accessLogCompress());
        assertTrue(c.accessLog());
        assertEquals("INFO", c.level());
    }

    @Test
    void tracingIsOffUnlessAnEndpointIsSet() throws Exception {
        Tracing d = LarchConfig.defaults().tracing();
        assertFalse(d.enabled());
        assertNull(d.otlpEndpoint());
        assertEquals("larch", d.serviceName());
        assertEquals(1.0, d.sampleRatio());
        assertEquals(2048, d.maxQueueSize());
        assertFalse(
                LarchConfig.load(write("tracing.otlp-endpoint =\n")).tracing().enabled());
        Tracing c = LarchConfig.load(write("""
                        tracing.otlp-endpoint = http://127.0.0.1:4318
                        tracing.service-name = larch-eu
                        tracing.sample-ratio = 0.25
                        tracing.max-queue-size = 512
                        """)).tracing();
        assertTrue(c.enabled());
        assertEquals("http://127.0.0.1:4318", c.otlpEndpoint());
        assertEquals("larch-eu", c.serviceName());
        assertEquals(0.25, c.sampleRatio());
        assertEquals(512, c.maxQueueSize());
        assertEquals(
                0.0,
                LarchConfig.load(write("tracing.sample-ratio = 0\n")).tracing().sampleRatio());
    }

    @Test
    void duplicateKeyIsAnError() throws IOException {
        Path file = write("listen.port = 1\nlisten.port = 2\n");
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(file));
        assertEquals(file + ": listen.port: set twice (again on line 2)", e.getMessage());
    }

    @Test
    void duplicateIndexIgnoringCaseIsAnError() throws IOException {
        Path file = write("index.cn = equality\nindex.CN = substring\n");
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(file));
        assertEquals(file + ": index.CN: set twice (attribute names ignore case)", e.getMessage());
    }

    @Test
    void lineWithoutEqualsNamesTheLineButNotItsText() throws IOException {
        Path file = write("# ok\nsecurity.admin-password secret\n");
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(file));
        assertEquals(file + ": line 2: expected 'key = value'", e.getMessage());
    }

    @Test
    void missingFileIsNamed() {
        Path file = dir.resolve("nope.conf");
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(file));
        assertEquals(file + ": file not found", e.getMessage());
    }

    @Test
    void fileThatIsNotUtf8IsNamed() throws IOException {
        Path file = dir.resolve("latin1.conf");
        Files.write(file, "suffix = o=caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(file));
        assertEquals(file + ": not valid UTF-8", e.getMessage());
    }

    @Test
    void directoryInsteadOfFileIsAnError() {
        ConfigException e = assertThrows(ConfigException.class, () -> LarchConfig.load(dir));
        assertTrue(e.getMessage().startsWith(dir + ": cannot read"), e.getMessage());
    }

    private Path write(String text) throws IOException {
        Path file = dir.resolve("test.conf");
        Files.writeString(file, text);
        return file;
    }
}
