package dev.larch.server.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import dev.larch.config.LarchConfig;
import dev.larch.server.LarchServer;
import dev.larch.server.reload.ConfigReload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./larch serve}: runs the server until SIGTERM or Ctrl-C; SIGHUP re-reads the config file
 * ({@link ConfigReload}). Writes {@code <data>/larch.pid} while it serves ({@link PidFile}).
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the directory server.")
final class ServeCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

    @Mixin
    ConfigOptions options;

    @Option(names = "--port", paramLabel = "N", description = "TCP port (overrides listen.port; 0 = any free port)")
    Integer port;

    @Override
    public Integer call() throws Exception {
        if (port != null && (port < 0 || port > 65535)) {
            System.err.println("larch: --port: expected 0..65535, got " + port);
            return 2;
        }
        LarchConfig.FileConfig started = withPort(options.loadFile());
        ConfigOptions.applyLogLevel(started.config());
        if (options.config != null) {
            ReadableSecrets.warning(options.config, started.settings()).ifPresent(LOG::warn);
        }
        LarchConfig effective = started.config();
        LeakTracking.offUnlessAsked(System.getProperties());
        LarchServer server = LarchServer.start(effective, System.getenv());
        Path dataDir = effective.storage().dataDir();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopAndExit(server, dataDir), "larch-shutdown"));
        installReload(server, started);
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
        PidFile.write(dataDir);
        System.out.flush();
        // Serves until SIGTERM or Ctrl-C; the shutdown hook ends the process.
        new CountDownLatch(1).await();
        return 0;
    }

    private LarchConfig.FileConfig withPort(LarchConfig.FileConfig f) {
        return port == null ? f : new LarchConfig.FileConfig(f.config().withPort(port), f.settings());
    }

    /** SIGHUP re-reads {@code --config}; without a file there is nothing to re-read. */
    private void installReload(LarchServer server, LarchConfig.FileConfig started) {
        Runnable action;
        if (options.config == null) {
            action = () -> LOG.info("reload: the server started without --config, so there is no file to re-read");
        } else {
            ConfigReload reload =
                    new ConfigReload(options.config, started, () -> withPort(options.loadFile()), server.live());
            action = reload::reload;
        }
        if (!Hangup.onHangup(action)) {
            LOG.info("this JVM cannot handle SIGHUP: config changes need a restart");
        } else if (IgnoredHangup.ignoredBy(ProcessHandle.current().pid())) {
            LOG.warn("SIGHUP is ignored in this process (it was started with SIGHUP ignored, as under nohup):"
                    + " './larch reload' cannot reach it, so config changes need a restart");
        }
    }

    /**
     * Stops the server on SIGTERM or Ctrl-C and ends the JVM with 0 after a clean stop (1 if
     * stopping failed). Left alone, the JVM would report 143 or 130 for the signal, and service
     * managers would count every ordinary stop as a failure.
     */
    private static void stopAndExit(LarchServer server, Path dataDir) {
        PidFile.remove(dataDir);
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
