package dev.larch.server.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldif.LDIFReader;
import dev.larch.config.LarchConfig;
import dev.larch.config.SettingCatalog;
import dev.larch.schema.LarchSchema;
import dev.larch.server.LarchServer;
import dev.larch.server.StoredDirectory;
import dev.larch.server.ldif.LdifImporter;
import dev.larch.server.reload.LiveSettings;
import org.apache.directory.ldap.client.api.LdapConnectionConfig;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;

/**
 * A real Larch server on an ephemeral port over a temporary data directory, with helpers to
 * connect the two client libraries the protocol tests use. Each connection helper opens a new
 * connection that the caller closes. Protocol tests get one through {@link LarchServerExtension}.
 */
public final class TestServer implements AutoCloseable {
    public static final String SUFFIX = "dc=example,dc=com";
    public static final String ADMIN_DN = "cn=admin," + SUFFIX;
    public static final String ADMIN_PASSWORD = "secret";

    /** The suffix and two organizational units every fixture starts with. */
    public static final String BASE_LDIF = """
            dn: dc=example,dc=com
            objectClass: top
            objectClass: domain
            dc: example

            dn: ou=people,dc=example,dc=com
            objectClass: organizationalUnit
            ou: people

            dn: ou=groups,dc=example,dc=com
            objectClass: organizationalUnit
            ou: groups
            """;

    private final LarchConfig config;
    private LarchServer server;

    private TestServer(LarchConfig config) {
        this.config = config;
    }

    /** Failed-bind delays of the test defaults: short, so tests of wrong passwords do not wait 200 ms each. */
    public static final int TEST_BIND_FAILURE_DELAY_MILLIS = 5;

    /**
     * Test defaults: port 0, a 1 GiB map, no access log, writes not synced (the restart test turns it back
     * on), failed binds slowed by {@value #TEST_BIND_FAILURE_DELAY_MILLIS} ms at first (FailedBindDelaysIT
     * sets its own), no integrity rules, no self-warm-up (the port opens at once), and no suffix entry
     * created at start ({@code storage.create-suffix = false}): fixtures add {@link #BASE_LDIF}, suffix
     * included, themselves ({@link #withSuffixCreation} turns it back on). Tests set further keys on the
     * builder and build it.
     */
    public static LarchConfig.Builder settings(Path dataDir) {
        return LarchConfig.builder()
                .set("storage.data-dir", dataDir)
                .set("listen.port", 0)
                .set("storage.map-size", "1g")
                .set("storage.durable-writes", false)
                .set("storage.create-suffix", false)
                .set("security.bind-failure-delay-ms", TEST_BIND_FAILURE_DELAY_MILLIS)
                .set("security.bind-failure-max-delay-ms", 10 * TEST_BIND_FAILURE_DELAY_MILLIS)
                .set("logging.access-log", false)
                // Tests share 127.0.0.1 and fail binds on purpose: a failing address's bound on checks
                // in progress (2 by default) would answer unrelated parallel binds busy.
                .set("security.suspect-checks-per-address", 256)
                .set("security.suspect-checks-total", 256)
                .set("integrity.reference-attributes", "")
                .set("integrity.unique-attributes", "")
                .set("server.warm-up-seconds", 0);
    }

    /** The test defaults of {@link #settings}, built. */
    public static LarchConfig config(Path dataDir) {
        return settings(dataDir).build();
    }

    /** {@code storage.durable-writes = true}, the server's default. */
    public static LarchConfig.Builder withDurableWrites(LarchConfig.Builder b) {
        return b.set("storage.durable-writes", true);
    }

    /** {@code storage.create-suffix = true}, the server's default. */
    public static LarchConfig.Builder withSuffixCreation(LarchConfig.Builder b) {
        return b.set("storage.create-suffix", true);
    }

    /** {@code logging.access-log = true}, the server's default. */
    public static LarchConfig.Builder withAccessLog(LarchConfig.Builder b) {
        return b.set("logging.access-log", true);
    }

    /** The integrity rules of the server's defaults, which the test defaults turn off. */
    public static LarchConfig.Builder withIntegrityRules(LarchConfig.Builder b) {
        for (String key : List.of("integrity.reference-attributes", "integrity.unique-attributes")) {
            b.set(key, SettingCatalog.find(key).orElseThrow().defaultValue());
        }
        return b;
    }

    /** Starts a server over {@code dataDir} with keys set over the test defaults by {@code customize}. */
    public static TestServer start(Path dataDir, UnaryOperator<LarchConfig.Builder> customize) {
        return start(customize.apply(settings(dataDir)).build());
    }

    public static TestServer start(LarchConfig config) {
        TestServer s = new TestServer(config);
        s.start();
        return s;
    }

    /** Loads LDIF offline, as {@code ./larch import} does: fast, for large fixtures. Call before start. */
    public static void importOffline(LarchConfig config, String ldif) {
        try {
            Path file = Files.createTempFile(config.storage().dataDir().getParent(), "import", ".ldif");
            Files.writeString(file, ldif, StandardCharsets.UTF_8);
            try (StoredDirectory open = StoredDirectory.open(config, LarchSchema.load(config.schemaFiles()), false)) {
                new LdifImporter(open, 10_000).importFile(file, n -> {});
            }
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public LarchConfig config() {
        return config;
    }

    private void start() {
        try {
            server = LarchServer.start(config, Map.of("LARCH_ADMIN_PASSWORD", ADMIN_PASSWORD));
        } catch (Exception e) {
            throw new IllegalStateException("server did not start", e);
        }
    }

    /** Stops the server and starts a new one on the same data directory (a new port). */
    public void restart() {
        server.close();
        start();
    }

    /** The parts of the running server a config reload changes. */
    public LiveSettings live() {
        return server.live();
    }

    public int port() {
        return server.address().getPort();
    }

    /** Where the Prometheus endpoint listens; null unless the config sets {@code metrics.port}. */
    public InetSocketAddress metricsAddress() {
        return server.metricsAddress();
    }

    public LDAPConnection anonymous() throws LDAPException {
        return new LDAPConnection(options(), "127.0.0.1", port());
    }

    public LDAPConnection admin() throws LDAPException {
        return new LDAPConnection(options(), "127.0.0.1", port(), ADMIN_DN, ADMIN_PASSWORD);
    }

    public LDAPConnection boundAs(String dn, String password) throws LDAPException {
        return new LDAPConnection(options(), "127.0.0.1", port(), dn, password);
    }

    private static LDAPConnectionOptions options() {
        LDAPConnectionOptions o = new LDAPConnectionOptions();
        o.setResponseTimeoutMillis(20_000);
        // Let tests send a DN with an empty password: the server, not the client, must refuse it.
        o.setBindWithDNRequiresPassword(false);
        return o;
    }

    /** An Apache LDAP API connection, not yet bound. */
    public LdapNetworkConnection apache() {
        LdapConnectionConfig c = new LdapConnectionConfig();
        c.setLdapHost("127.0.0.1");
        c.setLdapPort(port());
        c.setTimeout(20_000);
        LdapNetworkConnection connection = new LdapNetworkConnection(c);
        try {
            connection.connect();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return connection;
    }

    /** Adds the entries of an LDIF text, in order, as the administrator. */
    public void add(String ldif) {
        try (LDAPConnection c = admin()) {
            for (Entry e : parse(ldif)) {
                c.add(e);
            }
        } catch (LDAPException e) {
            throw new IllegalStateException("fixture add failed: " + e.getMessage(), e);
        }
    }

    public static List<Entry> parse(String ldif) {
        List<Entry> out = new ArrayList<>();
        try (LDIFReader reader = new LDIFReader(new BufferedReader(new StringReader(ldif)))) {
            for (Entry e = reader.readEntry(); e != null; e = reader.readEntry()) {
                out.add(e);
            }
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
        return out;
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
