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
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "larch-shutdown"));
        server.generatedAdminPassword().ifPresent(password -> System.out.println(
                "Generated the administrator password (shown only this once; its hash is in "
                        + effective.storage().dataDir().resolve("admin-password") + "): cn=admin," + effective.suffix()
                        + " / " + password));
        var address = server.address();
        System.out.println("Larch listening on ldap://" + address.getHostString() + ":" + address.getPort());
        System.out.flush();
        stopped.await();
        return 0;
    }
}
