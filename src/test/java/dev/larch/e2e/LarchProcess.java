package dev.larch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Larch server in its own JVM, started exactly as {@code ./larch serve} starts it (see
 * {@link LarchJvm}), on 127.0.0.1 and a free port. Not thread-safe; one test (or one class) owns it.
 */
final class LarchProcess implements AutoCloseable {
    static final String ADMIN_DN = TestData.ADMIN_DN;
    // The host may be an IPv6 literal (0:0:0:0:0:0:0:0 when listening on every address).
    static final Pattern LISTENING = Pattern.compile("^Larch listening on ldap://(.+):(\\d+)$");
    static final Pattern GENERATED_PASSWORD = Pattern.compile("^Generated the administrator password .* / (\\S+)$");
    /** Generous: several engineers' builds share two cores. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** What one-shot commands (import, export, failing serves) may take. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);

    /** Servers still running when the test JVM exits (a failed or aborted run) are killed, not orphaned. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly), "larch-e2e-reaper"));
    }

    private final Process process;
    private final Path dataDir;
    private final CapturedStream out;
    private final CapturedStream err;
    private final String host;
    private final int port;

    private LarchProcess(Process process, Path dataDir, CapturedStream out, CapturedStream err, String host, int port) {
        this.process = process;
        this.dataDir = dataDir;
        this.out = out;
        this.err = err;
        this.host = host;
        this.port = port;
    }

    /** {@code serve --data dataDir} with the options set on the returned builder. */
    static Builder serve(Path dataDir) {
        return new Builder(dataDir);
    }

    /** Runs {@code import|export|serve ...} to completion (for commands that end by themselves). */
    static ProcessResult run(Map<String, String> env, String... args) {
        return ProcessResult.run(LarchJvm.command(List.of(args)), env, null, COMMAND_TIMEOUT);
    }

    static ProcessResult run(String... args) {
        return run(Map.of(), args);
    }

    /** {@code command} run by {@code sh} under {@code mask}; {@code exec} keeps the process ID the JVM's. */
    static List<String> withUmask(String mask, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", "umask " + mask + " && exec \"$@\"", "sh"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** A port nobody listens on right now (the OS may hand it out again, so use it at once). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static final class Builder {
        private final Path dataDir;
        private final Map<String, String> env = new HashMap<>();
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private int port;
        private String umask;
        private boolean ignoringHangup;
        private Path launcher;
        private boolean withoutSelfWarmUp;

        private Builder(Path dataDir) {
            this.dataDir = dataDir;
            // The test JVM's environment must not decide the admin password.
            env.put("LARCH_ADMIN_PASSWORD", "");
        }

        /** {@code LARCH_ADMIN_PASSWORD}. */
        Builder adminPassword(String password) {
            env.put("LARCH_ADMIN_PASSWORD", password);
            return this;
        }

        Builder config(Path file) {
            if (withoutSelfWarmUp) {
                throw new IllegalStateException("put server.warm-up-seconds = 0 in " + file + " instead");
            }
            args.add("--config");
            args.add(file.toString());
            return this;
        }

        /**
         * Serves with {@code server.warm-up-seconds = 0}, through a config file of that one line next to
         * the data directory, for a test that serves a populated store and checks nothing the
         * self-warm-up does: it would spend seconds of the shared cores (up to 30) before the port
         * opens. A test with a config file of its own puts the line there instead.
         */
        Builder withoutSelfWarmUp() {
            if (args.contains("--config")) {
                throw new IllegalStateException("put server.warm-up-seconds = 0 in the test's config file instead");
            }
            withoutSelfWarmUp = true;
            return this;
        }

        /** An environment variable of the server process. */
        Builder env(String name, String value) {
            env.put(name, value);
            return this;
        }

        /**
         * Starts the server through {@code script} (the packaged launcher, {@code packaging/bin/larch-server})
         * instead of {@code java} directly: the script gets {@code serve --port N} and the options, and
         * finds this JVM's {@code java}, class path and the data directory in its environment.
         */
        Builder launchedBy(Path script) {
            this.launcher = script;
            return this;
        }

        /** Extra options for the server's JVM (heap size, native memory tracking). */
        Builder jvmOptions(String... options) {
            jvmOptions.addAll(List.of(options));
            return this;
        }

        /** Starts the server under this umask (through {@code sh}), whatever the test JVM's is. */
        Builder umask(String mask) {
            this.umask = mask;
            return this;
        }

        /** Starts the server with SIGHUP ignored, as {@code nohup} does. */
        Builder ignoringHangup() {
            this.ignoringHangup = true;
            return this;
        }

        /** {@code --port}; without it the server gets {@code --port 0} and the OS picks. */
        Builder port(int port) {
            this.port = port;
            return this;
        }

        /**
         * Starts the server and waits for {@code Larch listening on ldap://HOST:PORT}.
         *
         * @throws AssertionError with the server's output when it exits or does not listen in time
         */
        LarchProcess start() {
            List<String> options = new ArrayList<>(args);
            if (withoutSelfWarmUp) {
                Path file = dataDir.resolveSibling(dataDir.getFileName() + "-no-warm-up.conf");
                try {
                    Files.writeString(file, "server.warm-up-seconds = 0\n");
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                options.add("--config");
                options.add(file.toString());
            }
            List<String> serve =
                    new ArrayList<>(List.of("serve", "--data", dataDir.toString(), "--port", Integer.toString(port)));
            serve.addAll(options);
            List<String> command;
            if (launcher == null) {
                command = LarchJvm.command(jvmOptions, serve);
            } else {
                command = new ArrayList<>(List.of(launcher.toString(), "serve", "--port", Integer.toString(port)));
                command.addAll(options);
                env.put("JAVA", LarchJvm.javaBinary());
                env.put("LARCH_CLASSPATH", System.getProperty("java.class.path"));
                env.put("LARCH_DATA", dataDir.toString());
                env.put("LARCH_JAVA_OPTS", String.join(" ", jvmOptions));
            }
            List<String> full = new ArrayList<>(umask == null ? command : withUmask(umask, command));
            if (ignoringHangup) {
                full.add(0, "nohup");
            }
            ProcessBuilder builder = new ProcessBuilder(full);
            builder.environment().putAll(env);
            Process process;
            try {
                process = builder.start();
                RUNNING.add(process);
                Process started = process;
                process.onExit().thenRun(() -> RUNNING.remove(started));
                process.getOutputStream().close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + builder.command(), e);
            }
            CapturedStream out = new CapturedStream(process.getInputStream(), "larch-out-" + process.pid());
            CapturedStream err = new CapturedStream(process.getErrorStream(), "larch-err-" + process.pid());
            Optional<String> listening;
            try {
                listening = out.await(line -> LISTENING.matcher(line).matches(), START_TIMEOUT);
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while the server started", e);
            }
            if (listening.isEmpty()) {
                process.destroyForcibly();
                throw new AssertionError(
                        "the server did not print its listening line within " + START_TIMEOUT + " (alive: "
                                + process.isAlive() + ")\n--- stdout\n" + out.text() + "--- stderr\n" + err.text());
            }
            Matcher m = LISTENING.matcher(listening.get());
            m.matches();
            return new LarchProcess(process, dataDir, out, err, m.group(1), Integer.parseInt(m.group(2)));
        }
    }

    int port() {
        return port;
    }

    String url() {
        return "ldap://" + host + ":" + port;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The password this start printed as generated, if it printed one. */
    Optional<String> generatedPassword() {
        return out.lines().stream()
                .map(GENERATED_PASSWORD::matcher)
                .filter(Matcher::matches)
                .map(m -> m.group(1))
                .findFirst();
    }

    List<String> stdoutLines() {
        return out.lines();
    }

    /**
     * Sends SIGTERM and waits for the JVM to exit.
     *
     * @return the exit code
     * @throws AssertionError when it has not exited after {@link #STOP_TIMEOUT} (it is then killed)
     */
    int stop() {
        // SIGTERM through the handle: Process.destroy() sends the same signal but also closes our
        // ends of the pipes, losing what the server logs while it stops.
        process.toHandle().destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("the server ignored SIGTERM for " + STOP_TIMEOUT + "\n" + output());
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the server stopped", e);
        }
        out.awaitEnd(Duration.ofSeconds(10));
        err.awaitEnd(Duration.ofSeconds(10));
        return process.exitValue();
    }

    /**
     * Kills the server JVM with SIGKILL (no shutdown hook runs, nothing is flushed) and waits until
     * it is gone: a crash, as a power cut or the OOM killer would end it.
     */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the server survived SIGKILL for " + STOP_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the server was killed", e);
        }
        out.awaitEnd(Duration.ofSeconds(10));
        err.awaitEnd(Duration.ofSeconds(10));
    }

    /** Everything the server printed so far, for assertion messages. */
    String output() {
        return "--- server stdout (pid " + process.pid() + ")\n" + out.text() + "--- server stderr\n" + err.text();
    }

    /** Kills the server if a test left it running. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "Larch pid " + process.pid() + " at " + url() + " on " + dataDir;
    }
}
