package dev.larch.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import dev.larch.config.LarchConfig;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real server for all the tests of a class: started before the first test over a fresh
 * temporary directory, holding {@link TestServer#BASE_LDIF} and the entries the class asks for,
 * stopped and deleted after the last test. Register it on a {@code static} field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final LarchServerExtension larch = LarchServerExtension.withBaseTree().adding(PEOPLE_LDIF);
 * }</pre>
 *
 * <p>Tests share the server, so each test adds the entries it changes. Not thread-safe: JUnit calls
 * it from one thread per class.
 */
public final class LarchServerExtension implements BeforeAllCallback, AfterAllCallback {
    private UnaryOperator<LarchConfig.Builder> customize = UnaryOperator.identity();
    private String added = "";
    private String imported = "";

    private Path dir;
    private TestServer server;
    private LDAPConnection admin;
    private LDAPConnection anonymous;

    private LarchServerExtension() {}

    /** A server with the test defaults of {@link TestServer#config} and the base tree. */
    public static LarchServerExtension withBaseTree() {
        return new LarchServerExtension();
    }

    /** Sets keys of the configuration the server starts with, over the test defaults; calls compose in order. */
    public LarchServerExtension configured(UnaryOperator<LarchConfig.Builder> change) {
        UnaryOperator<LarchConfig.Builder> before = customize;
        customize = c -> change.apply(before.apply(c));
        return this;
    }

    /** Entries added over LDAP as the administrator after the base tree, so they go through the add path. */
    public LarchServerExtension adding(String ldif) {
        added = added + ldif + "\n";
        return this;
    }

    /**
     * Entries imported offline with the base tree before the server starts, as {@code ./larch
     * import} does: for fixtures of thousands of entries, which an LDAP add would load slowly.
     */
    public LarchServerExtension importing(String ldif) {
        imported = imported + ldif + "\n";
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("larch-it-");
        Path data = Files.createDirectories(dir.resolve("data"));
        LarchConfig config = customize.apply(TestServer.settings(data)).build();
        if (imported.isEmpty()) {
            server = TestServer.start(config);
            server.add(TestServer.BASE_LDIF);
        } else {
            TestServer.importOffline(config, TestServer.BASE_LDIF + "\n" + imported);
            server = TestServer.start(config);
        }
        if (!added.isEmpty()) {
            server.add(added);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (admin != null) {
            admin.close();
            admin = null;
        }
        if (anonymous != null) {
            anonymous.close();
            anonymous = null;
        }
        if (server != null) {
            server.close();
            server = null;
        }
        if (dir != null) {
            deleteRecursively(dir);
            dir = null;
        }
    }

    /** The running server, for new connections, more entries, its port or a restart. */
    public TestServer server() {
        if (server == null) {
            throw new IllegalStateException(
                    "no server: register LarchServerExtension on a static field, and use it from tests only");
        }
        return server;
    }

    /**
     * The class's shared connection bound as the administrator. The extension closes it; a test
     * that closes it anyway gets a new one on the next call. A test that needs a connection of its
     * own (to unbind, abandon, or bind as someone else) opens one with {@code server().admin()}.
     */
    public LDAPConnection admin() {
        admin = openIfClosed(admin, TestServer::admin);
        return admin;
    }

    /** The class's shared anonymous connection, on the same terms as {@link #admin()}. */
    public LDAPConnection anonymous() {
        anonymous = openIfClosed(anonymous, TestServer::anonymous);
        return anonymous;
    }

    private interface Opener {
        LDAPConnection open(TestServer server) throws LDAPException;
    }

    private LDAPConnection openIfClosed(LDAPConnection connection, Opener opener) {
        if (connection != null && connection.isConnected()) {
            return connection;
        }
        try {
            return opener.open(server());
        } catch (LDAPException e) {
            throw new IllegalStateException("cannot connect to the test server: " + e.getMessage(), e);
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
