package dev.larch.server.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import dev.larch.config.LarchConfig;
import dev.larch.server.LarchServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./larch serve}: runs the server until SIGTERM or Ctrl-C. */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the directory server.")
final class ServeCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions options;

    @Option(names = "--port", paramLabel = "N", description = "TCP port (overrides listen.port; 0 = any free port)")
    Integer port;

    @Override
    public Integer call() throws Exception {
        LarchConfig config = options.load();
        if (port != null) {
            if (port < 0 || port > 65535) {
                System.err.println("larch: --port: expected 0..65535, got " + port);
                return 2;
            }
            config = config.withPort(port);
        }
        LarchConfig effective = config;
        LarchServer server = LarchServer.start(effective, System.getenv());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAndExit(server), "larch-shutdown"));
        server.generatedAdminPassword()
                .ifPresent(password ->
                        System.out.println("Generated the administrator password (shown only this once; its hash is in "
                                + effective.storage().dataDir().resolve("admin-password") + "): cn=admin,"
                                + effective.suffix()
                                + " / " + password));
        var address = server.address();
        System.out.println("Larch listening on ldap://" + address.getHostString() + ":" + address.getPort());
        if (server.ldapsAddress() != null) {
            System.out.println(
                    "Larch listening on ldaps://" + server.ldapsAddress().getHostString() + ":"
                            + server.ldapsAddress().getPort());
        }
        System.out.flush();
        // Serves until SIGTERM or Ctrl-C; the shutdown hook ends the process.
        new CountDownLatch(1).await();
        return 0;
    }

    /**
     * Stops the server on SIGTERM or Ctrl-C and ends the JVM with 0 after a clean stop (1 if
     * stopping failed). Left alone, the JVM would report 143 or 130 for the signal, and service
     * managers would count every ordinary stop as a failure.
     */
    private static void stopAndExit(LarchServer server) {
        int status = 0;
        try {
            server.close();
        } catch (RuntimeException e) {
            System.err.println("larch: stopping the server failed: " + e);
            status = 1;
        }
        System.out.flush();
        System.err.flush();
        Runtime.getRuntime().halt(status);
    }
}
