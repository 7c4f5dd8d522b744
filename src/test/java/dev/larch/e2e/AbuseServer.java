package dev.larch.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A server for the abuse tests: a {@link GeneratedTree} imported offline, served with the given
 * config lines, {@link #MAX_HEAP} of heap and Native Memory Tracking on, with a {@link ServerMemory}
 * attached. Not thread-safe.
 */
final class AbuseServer implements AutoCloseable {
    static final String ADMIN_PASSWORD = "abuse-admin-secret";
    /**
     * The server's heap (-Xmx): a leak shows as an OutOfMemoryError, not as a slow machine. The
     * launcher's default ({@code ./larch serve}, {@code LARCH_HEAP}), so the abuses run against what
     * a server gets unless told otherwise.
     */
    static final String MAX_HEAP = "256m";

    /** The launcher's default cap on direct memory ({@code LARCH_DIRECT_MEMORY}). */
    static final String MAX_DIRECT = "256m";

    private final LarchProcess process;
    private final ServerMemory memory;

    private AbuseServer(LarchProcess process, ServerMemory memory) {
        this.process = process;
        this.memory = memory;
    }

    /**
     * Imports {@code tree} into {@code dir/data} and serves it with {@code config} (larch.conf lines)
     * and no self-warm-up ({@code server.warm-up-seconds = 0}).
     */
    static AbuseServer start(Path dir, GeneratedTree tree, List<String> config) throws IOException {
        Path ldif = dir.resolve("tree.ldif");
        tree.write(ldif);
        Path conf = dir.resolve("larch.conf");
        // Without the self-warm-up: it would drive the server for up to 30 s before the port opens;
        // the checks warm the request path with their own well-behaved client (AbuseChecks.warmUp).
        List<String> lines = new ArrayList<>(config);
        lines.add("server.warm-up-seconds = 0");
        Files.write(conf, lines, StandardCharsets.UTF_8);
        Path data = dir.resolve("data");
        ProcessResult imported =
                LarchProcess.run("import", "--config", conf.toString(), "--data", data.toString(), ldif.toString());
        if (imported.exitCode() != 0) {
            throw new AssertionError("import failed\n" + imported.describe());
        }
        List<String> jvm = new ArrayList<>(ServerMemory.JVM_OPTIONS);
        jvm.add("-Xmx" + MAX_HEAP);
        jvm.add("-XX:MaxDirectMemorySize=" + MAX_DIRECT);
        LarchProcess process = LarchProcess.serve(data)
                .config(conf)
                .adminPassword(ADMIN_PASSWORD)
                .jvmOptions(jvm.toArray(String[]::new))
                .start();
        try {
            return new AbuseServer(process, ServerMemory.attach(process.pid()));
        } catch (RuntimeException | AssertionError e) {
            process.close();
            throw e;
        }
    }

    LarchProcess process() {
        return process;
    }

    ServerMemory memory() {
        return memory;
    }

    int port() {
        return process.port();
    }

    @Override
    public void close() {
        memory.close();
        if (process.isAlive()) {
            process.stop();
        }
        process.close();
    }
}
