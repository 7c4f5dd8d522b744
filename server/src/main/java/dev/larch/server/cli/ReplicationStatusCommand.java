package dev.larch.server.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLSocketFactory;

import dev.larch.config.ConfigException;
import dev.larch.config.LarchConfig;
import dev.larch.config.ReplicationConsumer;
import dev.larch.server.auth.AdminCredentials;
import dev.larch.server.tls.ProviderTrust;
import dev.larch.server.tls.TlsSetupException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./larch replication status}: what a running server's replicas are doing, read from its
 * {@code cn=Replication,cn=Monitor} as the administrator, and whether it has converged with each
 * provider: the provider's contextCSN (read with the consumer's bind DN and password from the config
 * file) compared per server ID with this server's ({@link Convergence}). A provider reached over LDAPS
 * or StartTLS is checked against {@code tls.ca-certificates} when the config names it, as the server
 * checks it, else against the JVM's trust store.
 *
 * <p>Exit status: 0 when every provider is reachable and converged; 1 when one is not, or the server
 * cannot be read (not running, bind refused); 2 on a usage error (no administrator password given).
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = {
            "Print each provider a running server replicates from (state, changes applied, lag, last cookie and"
                    + " error) and whether the two have converged (contextCSN per server ID).",
            "Binds as the administrator with the password in LARCH_ADMIN_PASSWORD or LARCH_ADMIN_PASSWORD_FILE.",
            "Exit status: 0 all converged, 1 not converged or unreachable, 2 usage error."
        })
final class ReplicationStatusCommand implements Callable<Integer> {
    private static final String NAME = "larch: replication status: ";
    private static final String REPLICATION = "cn=Replication,cn=Monitor";
    private static final String[] PROVIDER_ATTRIBUTES = {
        "cn",
        "labeledURI",
        "larchReplicaState",
        "larchReplicaChangesApplied",
        "larchReplicaLagP50",
        "larchReplicaLagP99",
        "larchReplicaCookie",
        "larchReplicaLastError",
        "larchReplicaLastErrorTime"
    };

    @Mixin
    ConfigOptions options;

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "the running server (default: ldap://listen.host:listen.port of the config)")
    String url;

    @Override
    public Integer call() throws ConfigException {
        LarchConfig config = options.loadFile().config();
        Optional<String> password;
        try {
            password = adminPassword(System.getenv());
        } catch (IOException e) {
            System.err.println(NAME + e.getMessage());
            return 2;
        }
        if (password.isEmpty()) {
            System.err.println(NAME + "no administrator password: set " + AdminCredentials.ENV_VARIABLE + " or "
                    + AdminCredentials.ENV_FILE_VARIABLE);
            return 2;
        }
        String server = url != null ? url : serverUrl(config);
        String adminDn = "cn=admin," + config.suffix();
        List<Map<String, String>> providers;
        List<String> contextHere;
        SSLSocketFactory trusted;
        try {
            trusted = config.tls().caCertificates() == null
                    ? null
                    : ProviderTrust.sockets(config.tls().caCertificates());
        } catch (TlsSetupException e) {
            System.err.println(NAME + e.getMessage());
            return 2;
        }
        try (LdapReads here = LdapReads.bind(server, false, adminDn, password.get(), trusted)) {
            providers = here.children(REPLICATION, "(cn=Provider *)", PROVIDER_ATTRIBUTES);
            contextHere = here.values(config.suffix(), "contextCSN");
        } catch (LdapReads.Failure e) {
            System.err.println(
                    NAME + (e.unreachable() ? "the server is not running or not reachable: " : "") + e.getMessage());
            return 1;
        }
        if (providers.isEmpty()) {
            System.out.println(server + " replicates from no provider");
            return 0;
        }
        boolean allConverged = true;
        for (Map<String, String> p : providers) {
            allConverged &= report(p, config, contextHere, trusted);
        }
        return allConverged ? 0 : 1;
    }

    /** Prints one provider; true when it is reachable and converged with this server. */
    private static boolean report(
            Map<String, String> p, LarchConfig config, List<String> contextHere, SSLSocketFactory trusted) {
        String rid = p.getOrDefault("cn", "Provider ?").substring("Provider ".length());
        String providerUrl = p.getOrDefault("labeledURI", "?");
        System.out.println("provider " + rid + " " + providerUrl);
        System.out.println("  state: " + p.getOrDefault("larchReplicaState", "?"));
        System.out.println("  changes applied: " + p.getOrDefault("larchReplicaChangesApplied", "0"));
        System.out.println("  lag p50/p99: "
                + (p.containsKey("larchReplicaLagP50")
                        ? p.get("larchReplicaLagP50") + " s / " + p.get("larchReplicaLagP99") + " s"
                        : "none yet (no live change)"));
        System.out.println("  last cookie: " + p.getOrDefault("larchReplicaCookie", "none"));
        System.out.println("  last error: "
                + (p.containsKey("larchReplicaLastError")
                        ? p.get("larchReplicaLastError") + " (at " + p.get("larchReplicaLastErrorTime") + ")"
                        : "none"));
        Optional<ReplicationConsumer> consumer = config.replication().consumers().stream()
                .filter(c -> Integer.toString(c.rid()).equals(rid))
                .findFirst();
        if (consumer.isEmpty()) {
            System.out.println("provider " + rid + ": unknown: replication.consumer." + rid
                    + ".* is not in the config file, so its credentials are not known");
            return false;
        }
        ReplicationConsumer c = consumer.get();
        List<String> contextThere;
        try (LdapReads there = LdapReads.bind(c.providerUrl(), c.startTls(), c.bindDn(), c.bindPassword(), trusted)) {
            contextThere = there.values(config.suffix(), "contextCSN");
        } catch (LdapReads.Failure e) {
            System.out.println("provider " + rid + ": "
                    + (e.unreachable() ? "unreachable: " + e.getMessage() : "not read: " + e.getMessage()));
            return false;
        }
        Convergence convergence;
        try {
            convergence = Convergence.of(contextHere, contextThere);
        } catch (IllegalArgumentException e) {
            System.out.println("provider " + rid + ": a contextCSN does not parse: " + e.getMessage());
            return false;
        }
        if (convergence.converged()) {
            System.out.println("provider " + rid + ": converged (contextCSN " + String.join(" ", contextHere) + ")");
            return true;
        }
        System.out.println("provider " + rid + ": not converged");
        for (String difference : convergence.differences()) {
            System.out.println("  " + difference);
        }
        return false;
    }

    /** {@code ldap://listen.host:listen.port}, a wildcard host read as the loopback address. */
    private static String serverUrl(LarchConfig config) {
        String host = config.listen().host();
        if (host == null || host.isEmpty() || host.equals("0.0.0.0") || host.equals("::")) {
            host = "127.0.0.1";
        }
        return "ldap://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
                + config.listen().port();
    }

    /**
     * The administrator's password as the server resolves it from the environment: {@value
     * AdminCredentials#ENV_VARIABLE}, else the file {@value AdminCredentials#ENV_FILE_VARIABLE} names
     * (one trailing line break dropped); empty when neither is set.
     */
    static Optional<String> adminPassword(Map<String, String> env) throws IOException {
        String direct = env.get(AdminCredentials.ENV_VARIABLE);
        if (direct != null && !direct.isEmpty()) {
            return Optional.of(direct);
        }
        String file = env.get(AdminCredentials.ENV_FILE_VARIABLE);
        if (file == null || file.isEmpty()) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException(AdminCredentials.ENV_FILE_VARIABLE + ": cannot read " + file + ": " + e, e);
        }
        if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - (text.endsWith("\r\n") ? 2 : 1));
        }
        if (text.isEmpty()) {
            throw new IOException(AdminCredentials.ENV_FILE_VARIABLE + ": " + file + " is empty");
        }
        return Optional.of(text);
    }
}
