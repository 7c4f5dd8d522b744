package dev.larch.bench.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * OpenLDAP slapd in a temporary directory: back-mdb, suffix dc=example,dc=com, the standard
 * schemas, equality and substring indexes on the attributes the mixes search, loaded with
 * slapadd, listening on a free loopback port in the foreground (so closing it kills it).
 */
final class Slapd implements AutoCloseable {
    static final Path SLAPD = Path.of("/usr/sbin/slapd");
    static final Path SLAPADD = Path.of("/usr/sbin/slapadd");

    private final Process process;
    private final int port;

    static boolean installed() {
        return Files.isExecutable(SLAPD)
                && Files.isExecutable(SLAPADD)
                && Files.exists(Path.of("/etc/ldap/schema/inetorgperson.schema"));
    }

    Slapd(Path dir, Path ldif) throws IOException, InterruptedException {
        Path db = Files.createDirectories(dir.resolve("db"));
        Path conf = dir.resolve("slapd.conf");
        boolean mdbModule = Files.exists(Path.of("/usr/lib/ldap/back_mdb.la"));
        Files.writeString(
                conf,
                String.join(
                        "\n",
                        "include /etc/ldap/schema/core.schema",
                        "include /etc/ldap/schema/cosine.schema",
                        "include /etc/ldap/schema/inetorgperson.schema",
                        "include /etc/ldap/schema/nis.schema",
                        mdbModule ? "modulepath /usr/lib/ldap\nmoduleload back_mdb" : "",
                        "pidfile " + dir.resolve("slapd.pid"),
                        "database mdb",
                        "suffix \"dc=example,dc=com\"",
                        "rootdn \"cn=admin,dc=example,dc=com\"",
                        "rootpw secret",
                        "directory " + db,
                        "maxsize 268435456",
                        "index objectClass eq",
                        "index mail,uid,cn,sn,givenName eq,sub",
                        ""));
        Process load = new ProcessBuilder(SLAPADD.toString(), "-q", "-f", conf.toString(), "-l", ldif.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("slapadd.log").toFile())
                .start();
        if (!load.waitFor(120, TimeUnit.SECONDS) || load.exitValue() != 0) {
            throw new IOException("slapadd failed: " + Files.readString(dir.resolve("slapadd.log")));
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        process = new ProcessBuilder(List.of(
                        SLAPD.toString(), "-f", conf.toString(), "-h", "ldap://127.0.0.1:" + port + "/", "-d", "0"))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("slapd.log").toFile())
                .start();
        awaitListening();
    }

    private void awaitListening() throws IOException {
        try {
            await("slapd listening on port " + port)
                    .atMost(Duration.ofSeconds(15))
                    .until(() -> !process.isAlive() || accepts(port));
        } catch (ConditionTimeoutException e) {
            close();
            throw new IOException("slapd did not start listening on port " + port, e);
        }
        if (!process.isAlive()) {
            throw new IOException("slapd exited with " + process.exitValue());
        }
    }

    private static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
