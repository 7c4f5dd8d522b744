package dev.larch.e2e;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResultEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code ./larch} launcher's server JVM: {@code ./larch warm-cache} writes a warm-up cache that
 * {@code ./larch serve} starts with (and one {@code ./larch bench} starts with), a cache of another build or a damaged one never stops a start, and
 * the heap and direct-memory caps are on the server's command line. The launcher runs from this
 * module's class path ({@code LARCH_CLASSPATH}, so it builds nothing) with this JVM's JDK, and keeps
 * its cache in a temporary directory ({@code LARCH_WARM_CACHE_DIR}), never in the developer's.
 */
class LauncherWarmCacheIT {
    private static final Path LARCH = Path.of("../../larch").toAbsolutePath().normalize();
    private static final String PASSWORD = "launcher-secret";
    private static final Duration WARM_CACHE_TIMEOUT = Duration.ofMinutes(5);
    private static final boolean AOT = Runtime.version().feature() >= 25;
    /**
     * LARCH_JAVA_OPTS of the servers whose JIT no check looks at (those that run without a cache):
     * the JIT kept at C1, as {@link LarchJvm} keeps the end-to-end servers, halves a start's CPU time
     * on a busy machine. The servers started with a cache run exactly as a user's.
     */
    private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    @TempDir
    static Path cacheDir;

    /** The server's cache {@code warm-cache} wrote, built once for the class. */
    private static Path cache;
    /** The bench harness's cache {@code warm-cache} wrote. */
    private static Path benchCache;

    @TempDir
    Path dir;

    @BeforeAll
    static void buildTheCache() throws IOException {
        ProcessResult r = ProcessResult.run(
                List.of(LARCH.toString(), "warm-cache", "--seconds", "3", "--entries", "300"),
                launcherEnv(),
                null,
                WARM_CACHE_TIMEOUT);
        assertEquals(0, r.exitCode(), r.describe());
        List<Path> written;
        try (Stream<Path> files = Files.list(cacheDir)) {
            written = files.toList();
        }
        assertEquals(2, written.size(), "two caches and nothing left of the training: " + written);
        cache = only(written, "server-");
        benchCache = only(written, "bench-");
        for (Path c : List.of(cache, benchCache)) {
            assertTrue(c.getFileName().toString().endsWith(AOT ? ".aot" : ".jsa"), c.toString());
            assertTrue(Files.size(c) > 1_000_000, "a real cache holds megabytes: " + Files.size(c));
            assertTrue(r.err().contains(c.toString()), r.describe());
        }
    }

    private static Path only(List<Path> files, String prefix) {
        List<Path> named = files.stream()
                .filter(f -> f.getFileName().toString().startsWith(prefix))
                .toList();
        assertEquals(1, named.size(), prefix + ": " + files);
        return named.get(0);
    }

    /**
     * The bench harness starts with the cache recorded for it, which the JVM accepts (told to fail
     * rather than run without it), and drives a server as it would without.
     */
    @Test
    void benchStartsWithItsOwnCacheTheJvmAccepts() throws Exception {
        Map<String, String> env = launcherEnv();
        Path ldif = dir.resolve("people.ldif");
        Path data = dir.resolve("data");
        ProcessResult gen = ProcessResult.run(
                List.of(LARCH.toString(), "gen", "--entries", "200", "--out", ldif.toString()),
                env,
                null,
                LarchProcess.COMMAND_TIMEOUT);
        assertEquals(0, gen.exitCode(), gen.describe());
        ProcessResult imported = ProcessResult.run(
                List.of(LARCH.toString(), "import", "--data", data.toString(), ldif.toString()),
                env,
                null,
                LarchProcess.COMMAND_TIMEOUT);
        assertEquals(0, imported.exitCode(), imported.describe());
        // The server's own cache is not what this checks: it starts without one.
        Map<String, String> serverEnv = new HashMap<>(env);
        serverEnv.put("LARCH_WARM_CACHE", "off");
        serverEnv.put("LARCH_JAVA_OPTS", C1_ONLY);
        try (Server server = Server.start(data, serverEnv, withoutSelfWarmUp())) {
            Map<String, String> benchEnv = new HashMap<>(env);
            benchEnv.put("LARCH_JAVA_OPTS", AOT ? "-XX:AOTMode=on" : "-Xshare:on");
            ProcessResult bench = ProcessResult.run(
                    List.of(
                            LARCH.toString(),
                            "bench",
                            "--mix",
                            "messaging",
                            "--host",
                            "127.0.0.1",
                            "--port",
                            Integer.toString(server.port),
                            "--clients",
                            "1",
                            "--threads",
                            "1",
                            "--warmup",
                            "0",
                            "--duration",
                            "1",
                            "--runs",
                            "1",
                            "--data",
                            ldif.toString(),
                            "--out",
                            dir.resolve("bench").toString()),
                    benchEnv,
                    null,
                    LarchProcess.COMMAND_TIMEOUT);
            assertEquals(0, bench.exitCode(), bench.describe());
            assertTrue(bench.err().contains("starting with the warm-up cache " + benchCache), bench.describe());
        }
    }

    /**
     * With the JVM told to fail rather than run without the cache ({@code -XX:AOTMode=on}, or
     * {@code -Xshare:on} before JDK 25), the server starts, so the JVM accepted it.
     */
    @Test
    void serveStartsWithTheCacheTheJvmAccepts() throws Exception {
        Map<String, String> env = launcherEnv();
        env.put("LARCH_JAVA_OPTS", AOT ? "-XX:AOTMode=on" : "-Xshare:on");
        try (Server server = Server.start(dir.resolve("data"), env)) {
            assertTrue(server.err.text().contains("starting with the warm-up cache " + cache), server.output());
            assertTrue(
                    server.jvmArguments().contains((AOT ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + cache),
                    server.jvmArguments().toString());
            server.assertAnswers();
        }
    }

    /**
     * A cache file whose bytes are garbage (or whose jars changed in place) under the right name: the
     * launcher's trial start fails, so one notice, no cache flag, and the server serves.
     */
    @Test
    void aDamagedCacheIsIgnoredWithOneNotice() throws Exception {
        Path copy = dir.resolve("cache");
        Files.createDirectories(copy);
        Files.write(copy.resolve(cache.getFileName()), new byte[4096]);
        Map<String, String> env = launcherEnv();
        env.put("LARCH_WARM_CACHE_DIR", copy.toString());
        env.put("LARCH_JAVA_OPTS", C1_ONLY);
        try (Server server = Server.start(dir.resolve("data"), env, withoutSelfWarmUp())) {
            List<String> notices = server.err.lines().stream()
                    .filter(l -> l.contains("does not fit this JVM or its jars: ignored"))
                    .toList();
            assertEquals(1, notices.size(), server.output());
            assertFalse(
                    server.jvmArguments().stream().anyMatch(a -> a.startsWith(AOT ? "-XX:AOTCache=" : "-XX:Shared")),
                    server.jvmArguments().toString());
            server.assertAnswers();
        }
    }

    /**
     * No cache at all (a new checkout): one notice naming the command that builds it, and the server
     * serves. (LARCH_WARM_CACHE=off, which asks for no cache and gets no notice either, is checked on
     * the first server of {@link #heapAndDirectMemoryCapsAreOnTheServeCommandLine}.)
     */
    @Test
    void noCacheGetsOneNoticeNamingWarmCache() throws Exception {
        Path empty = dir.resolve("no-cache");
        Files.createDirectories(empty);
        Map<String, String> env = launcherEnv();
        env.put("LARCH_WARM_CACHE_DIR", empty.toString());
        env.put("LARCH_JAVA_OPTS", C1_ONLY);
        try (Server server = Server.start(dir.resolve("data"), env, withoutSelfWarmUp())) {
            List<String> notices = server.err.lines().stream()
                    .filter(l -> l.contains("no warm-up cache for this build") && l.contains("./larch warm-cache"))
                    .toList();
            assertEquals(1, notices.size(), server.output());
            server.assertAnswers();
        }
    }

    /** After a rebuild or a JDK change the cache's name no longer fits: one notice, no cache flag. */
    @Test
    void aCacheOfAnotherBuildIsIgnoredWithOneNotice() throws Exception {
        Path copy = dir.resolve("cache");
        Files.createDirectories(copy);
        Files.copy(cache, copy.resolve(cache.getFileName().toString().replaceFirst("-build\\d+", "-build1")));
        Map<String, String> env = launcherEnv();
        env.put("LARCH_WARM_CACHE_DIR", copy.toString());
        env.put("LARCH_JAVA_OPTS", C1_ONLY);
        try (Server server = Server.start(dir.resolve("data"), env, withoutSelfWarmUp())) {
            List<String> notices = server.err.lines().stream()
                    .filter(l -> l.contains("built for another build or JDK: ignored"))
                    .toList();
            assertEquals(1, notices.size(), server.output());
            assertFalse(
                    server.jvmArguments().stream().anyMatch(a -> a.startsWith("-XX:AOTCache=")),
                    server.jvmArguments().toString());
            server.assertAnswers();
        }
    }

    /**
     * The launcher's defaults, then LARCH_HEAP and LARCH_DIRECT_MEMORY, then the user's own heap and
     * collector in LARCH_JAVA_OPTS, and the JVM took the heap cap. All with LARCH_WARM_CACHE=off,
     * which asks for no cache: no cache flag and no notice about one.
     */
    @Test
    void heapAndDirectMemoryCapsAreOnTheServeCommandLine() throws Exception {
        Map<String, String> env = launcherEnv();
        env.put("LARCH_WARM_CACHE", "off");
        env.put("LARCH_JAVA_OPTS", C1_ONLY);
        try (Server server = Server.start(dir.resolve("defaults"), env, withoutSelfWarmUp())) {
            assertFalse(
                    server.err.text().contains("warm-up cache"),
                    "LARCH_WARM_CACHE=off asks for no cache: " + server.output());
            List<String> args = server.jvmArguments();
            assertTrue(args.contains("-Xmx256m"), args.toString());
            // The whole heap committed, so the collector cannot shrink it; G1 unless LARCH_GC says.
            assertTrue(args.contains("-Xms256m") && args.contains("-XX:+UseG1GC"), args.toString());
            assertTrue(args.contains("-XX:MaxDirectMemorySize=256m"), args.toString());
            assertFalse(args.stream().anyMatch(a -> a.startsWith("-XX:AOTCache")), "LARCH_WARM_CACHE=off: " + args);
            assertEquals(256L << 20, server.heapMax());
        }
        env.put("LARCH_HEAP", "300m");
        env.put("LARCH_DIRECT_MEMORY", "100m");
        try (Server server = Server.start(dir.resolve("set"), env, withoutSelfWarmUp())) {
            List<String> args = server.jvmArguments();
            assertTrue(args.contains("-Xmx300m") && args.contains("-XX:MaxDirectMemorySize=100m"), args.toString());
            assertTrue(args.contains("-Xms300m"), args.toString());
            assertEquals(300L << 20, server.heapMax());
        }
        // A heap size or collector of the user's own replaces the launcher's instead of clashing with it.
        env.put("LARCH_JAVA_OPTS", C1_ONLY + " -Xmx128m -XX:+UseSerialGC");
        try (Server server = Server.start(dir.resolve("own"), env, withoutSelfWarmUp())) {
            List<String> args = server.jvmArguments();
            assertFalse(args.contains("-Xms300m") || args.contains("-XX:+UseG1GC"), args.toString());
            // The serial collector reports its heap less one survivor space.
            long heapMax = server.heapMax();
            assertTrue(heapMax <= 128L << 20 && heapMax > 100L << 20, "Heap Max " + heapMax);
        }
    }

    @Test
    void aHeapSizeThatIsNoSizeIsRefusedNamingTheVariable() {
        Map<String, String> env = launcherEnv();
        env.put("LARCH_HEAP", "lots");
        ProcessResult r = ProcessResult.run(
                List.of(LARCH.toString(), "serve", "--data", dir.resolve("data").toString()),
                env,
                null,
                LarchProcess.COMMAND_TIMEOUT);
        assertEquals(2, r.exitCode(), r.describe());
        assertTrue(r.err().contains("LARCH_HEAP must be a size such as 512m or 2g, not 'lots'"), r.describe());
        assertFalse(Files.exists(dir.resolve("data")), "nothing started");
    }

    /**
     * {@code --config} with {@code server.warm-up-seconds = 0}, for the servers whose JIT no check
     * looks at (as {@link #C1_ONLY}): the self-warm-up would run for seconds before each port opens.
     */
    private String[] withoutSelfWarmUp() throws IOException {
        Path config = dir.resolve("no-warm-up.conf");
        Files.writeString(config, "server.warm-up-seconds = 0\n");
        return new String[] {"--config", config.toString()};
    }

    /**
     * This JVM's JDK, the jars of this module's class path (the server and the harness; class
     * directories cannot go into a cache) and the temporary cache directory.
     */
    private static Map<String, String> launcherEnv() {
        String jars = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.endsWith(".jar"))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(jars.contains("larch-server"), "the class path holds the larch-server jar: " + jars);
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("LARCH_CLASSPATH", jars);
        env.put("LARCH_WARM_CACHE_DIR", cacheDir.toString());
        env.put("LARCH_ADMIN_PASSWORD", PASSWORD);
        env.put("LARCH_ADMIN_PASSWORD_FILE", "");
        env.put("LARCH_JAVA_OPTS", "");
        return env;
    }

    /** {@code ./larch serve} on a new data directory and a free port, until closed. */
    private static final class Server implements AutoCloseable {
        private final Process process;
        private final CapturedStream err;
        private final CapturedStream out;
        private final int port;

        private Server(Process process, CapturedStream out, CapturedStream err, int port) {
            this.process = process;
            this.out = out;
            this.err = err;
            this.port = port;
        }

        /** {@code ./larch serve --data DATA --port 0 OPTIONS...} in {@code env}, once it listens. */
        static Server start(Path data, Map<String, String> env, String... options)
                throws IOException, InterruptedException {
            List<String> command =
                    new ArrayList<>(List.of(LARCH.toString(), "serve", "--data", data.toString(), "--port", "0"));
            command.addAll(List.of(options));
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            CapturedStream out = new CapturedStream(process.getInputStream(), "launcher-out-" + process.pid());
            CapturedStream err = new CapturedStream(process.getErrorStream(), "launcher-err-" + process.pid());
            Optional<String> listening =
                    out.await(line -> LarchProcess.LISTENING.matcher(line).matches(), LarchProcess.START_TIMEOUT);
            if (listening.isEmpty()) {
                process.destroyForcibly();
                throw new AssertionError(
                        "./larch serve did not listen\n--- stdout\n" + out.text() + "--- stderr\n" + err.text());
            }
            Matcher m = LarchProcess.LISTENING.matcher(listening.get());
            m.matches();
            return new Server(process, out, err, Integer.parseInt(m.group(2)));
        }

        /**
         * The server JVM's command line: the launcher execs java, so it is the launcher's process. Read
         * from {@code /proc} (ProcessHandle.Info has no arguments for a process that exec'd another
         * program).
         */
        List<String> jvmArguments() throws IOException {
            String cmdline = Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            return Arrays.asList(cmdline.split("\0"));
        }

        /** The JVM's maximum heap as {@code cn=Monitor} reports it. */
        long heapMax() throws Exception {
            try (LDAPConnection c = new LDAPConnection("127.0.0.1", port, TestData.ADMIN_DN, PASSWORD)) {
                SearchResultEntry e = c.getEntry("cn=Heap Max,cn=JVM,cn=Monitor", "monitorCounter");
                assertNotNull(e, output());
                return e.getAttributeValueAsLong("monitorCounter");
            }
        }

        /** The administrator reads the suffix the server created. */
        void assertAnswers() throws Exception {
            try (LDAPConnection c = new LDAPConnection("127.0.0.1", port, TestData.ADMIN_DN, PASSWORD)) {
                assertNotNull(c.getEntry(TestData.SUFFIX), output());
            }
        }

        String output() {
            return "--- stdout\n" + out.text() + "--- stderr\n" + err.text();
        }

        @Override
        public void close() {
            process.toHandle().destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
            try {
                out.awaitEnd(Duration.ofSeconds(10));
            } catch (UncheckedIOException e) {
                // Output after the stop is not needed.
            }
        }
    }
}
