package dev.larch.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldif.LDIFException;
import com.unboundid.ldif.LDIFReader;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One Larch server for every test class that takes a {@code SharedServer.Server} parameter (in a
 * {@code @BeforeAll} method, say), started on first use and stopped when the whole run ends. It
 * holds the suffix entry it created at its first start and {@link TestData#PEOPLE_LDIF}; each class works in its own subtree so the classes stay
 * independent of each other and of their order.
 */
final class SharedServer implements ParameterResolver {
    static final String ADMIN_PASSWORD = "shared-admin-secret";
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedServer.class);

    /** The running server and the admin password it accepts. */
    record Server(LarchProcess process, String adminPassword) {
        int port() {
            return process.port();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Server.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(Running.class, key -> Running.start(), Running.class)
                .server;
    }

    /** Closed by JUnit with the root store, after the last test. */
    private static final class Running implements AutoCloseable {
        private final Server server;
        private final Path dataDir;

        private Running(Server server, Path dataDir) {
            this.server = server;
            this.dataDir = dataDir;
        }

        static Running start() {
            try {
                Path dataDir = Files.createTempDirectory("larch-e2e-shared-");
                // The classes share this server and reuse uids and mail addresses in their own
                // subtrees, so uid and mail are not unique here (IntegrityIT covers the default).
                // New hashes (the administrator's, the users' added with cleartext passwords) get
                // the fewest PBKDF2 iterations: at the default 100,000 each bind costs a quarter of a
                // second of CPU on these C1-only JVMs, and the classes here bind hundreds of times
                // to test other things (StoredPasswordsIT and the server's tests check the hashing).
                Path config = dataDir.resolve("shared.conf");
                Files.writeString(config, "integrity.unique-attributes =\nsecurity.pbkdf2-iterations = 1000\n");
                LarchProcess process = LarchProcess.serve(dataDir.resolve("data"))
                        .config(config)
                        .adminPassword(ADMIN_PASSWORD)
                        .start();
                try (LDAPConnection c =
                                new LDAPConnection("127.0.0.1", process.port(), TestData.ADMIN_DN, ADMIN_PASSWORD);
                        LDIFReader ldif = new LDIFReader(new BufferedReader(new StringReader(TestData.PEOPLE_LDIF)))) {
                    for (var entry = ldif.readEntry(); entry != null; entry = ldif.readEntry()) {
                        c.add(entry);
                    }
                } catch (LDAPException | LDIFException e) {
                    process.close();
                    throw new AssertionError("could not load the base tree\n" + process.output(), e);
                }
                return new Running(new Server(process, ADMIN_PASSWORD), dataDir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            server.process().stop();
            server.process().close();
            deleteTree(dataDir);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
