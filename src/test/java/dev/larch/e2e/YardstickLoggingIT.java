package dev.larch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import dev.larch.bench.cli.BenchMain;
import dev.larch.bench.report.JsonReport;
import dev.larch.e2e.sync.SlapdServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code client-bench/scripts/slapd-yardstick.sh} and {@code larch-yardstick.sh} make the two servers
 * log alike: with {@code LOGGING=file} each writes a line per operation to its log file, with
 * {@code LOGGING=off} neither writes any; and {@code side-by-side.sh} copies the configuration both
 * ran with beside its figures and refuses two sides that log differently.
 */
class YardstickLoggingIT {
    private static final Path SCRIPTS =
            Path.of("../../client-bench/scripts").toAbsolutePath().normalize();
    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration LOG_DELAY = Duration.ofSeconds(5);

    @TempDir
    static Path dir;

    static Path ldif;
    private final List<Long> started = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void generate() {
        RequiredTool.check(SlapdServer.installed(), "slapd", "apt-get install -y slapd");
        RequiredTool.check(LdapUtils.installed(), "ldap-utils", "apt-get install -y ldap-utils");
        ldif = dir.resolve("people.ldif");
        assertEquals(
                0, BenchMain.commandLine().execute("gen", "--entries", "300", "--seed", "5", "--out", ldif.toString()));
    }

    @AfterEach
    void stopServers() {
        for (long pid : started) {
            ProcessHandle.of(pid).ifPresent(p -> {
                p.destroy();
                p.onExit().join();
            });
        }
    }

    @Test
    void withLoggingFileBothServersLogEachOperationToAFileAndTheirConfigurationGoesBesideTheFigures() throws Exception {
        CompletableFuture<Server> starting = CompletableFuture.supplyAsync(() -> yardstick("slapd", "file"));
        Server larch = yardstick("larch", "file");
        Server slapd = starting.join();
        Path slapdLog = slapd.dir().resolve("slapd-access.log");
        Path larchLog = larch.dir().resolve("larch-access.log");
        long slapdBefore = lines(slapdLog);
        long larchBefore = lines(larchLog);

        Path out = dir.resolve("sbs-file");
        ProcessResult r = sideBySide(out, slapd.side(), larch.side(), "messaging");
        assertEquals(0, r.exitCode(), () -> r.describe() + runLogs(out));

        long slapdOps = measuredOps(out.resolve("messaging-slapd-1"));
        long larchOps = measuredOps(out.resolve("messaging-larch-1"));
        assertTrue(slapdOps > 0 && larchOps > 0, slapdOps + " " + larchOps);
        // slapd writes a request and a result line per search; Larch one line per operation, off the
        // request path, so it may land a moment after the answer
        assertTrue(lines(slapdLog) - slapdBefore >= 2 * slapdOps, slapdLog + " grew less than its operations");
        assertTrue(
                eventually(() -> lines(larchLog) - larchBefore >= larchOps),
                larchLog + " grew by " + (lines(larchLog) - larchBefore) + " lines for " + larchOps + " operations");
        assertTrue(Files.readString(slapdLog).contains("SRCH base=\"dc=example,dc=com\""), "slapd's stats lines");
        assertTrue(Files.readString(larchLog).contains("SEARCH base=\"dc=example,dc=com\""), "Larch's access lines");

        for (String file : List.of(
                "slapd-settings/slapd.conf",
                "slapd-settings/settings.txt",
                "larch-settings/larch.conf",
                "larch-settings/effective.conf",
                "larch-settings/settings.txt")) {
            assertTrue(Files.size(out.resolve(file)) > 0, file);
        }
        String slapdConf = Files.readString(out.resolve("slapd-settings/slapd.conf"));
        assertTrue(slapdConf.contains("index mail eq,sub") && slapdConf.contains("sizelimit 500"), slapdConf);
        assertTrue(Files.readString(out.resolve("larch-settings/larch.conf"))
                .contains("logging.access-log-file = " + larchLog));
        String settings = Files.readString(out.resolve("settings.txt"));
        assertTrue(settings.contains("logging: file (stats lines (-d stats, -s 0) to " + slapdLog + ")"), settings);
        assertTrue(
                settings.contains("logging: file (access log, one line per operation, to " + larchLog + ")"), settings);
        assertTrue(settings.contains("threads: 16 (set by THREADS)"), settings);
        assertTrue(settings.contains("started: /usr/sbin/slapd -d stats -s 0 -f "), settings);
        assertTrue(settings.contains("larch serve --config " + larch.dir().resolve("larch.conf")), settings);
        assertEquals(settings, r.out().substring(0, settings.length()), "the settings are printed first");
    }

    @Test
    void withLoggingOffNeitherServerLogsAnOperationAndAFileLoggingSideIsRefused() throws Exception {
        CompletableFuture<Server> starting = CompletableFuture.supplyAsync(() -> yardstick("slapd", "off"));
        Server larch = yardstick("larch", "off");
        Server slapd = starting.join();
        for (Server s : List.of(slapd, larch)) {
            for (int i = 0; i < 5; i++) {
                ProcessResult search =
                        LdapUtils.anonymous(s.port()).ldapsearch("-b", "dc=example,dc=com", "(uid=*1)", "uid");
                assertEquals(0, search.exitCode(), search.describe());
            }
        }
        assertFalse(Files.exists(slapd.dir().resolve("slapd-access.log")));
        assertFalse(Files.exists(larch.dir().resolve("larch-access.log")));
        // nor on their standard output, where a log without a file would go
        assertFalse(Files.readString(slapd.dir().resolve("slapd.out")).contains("conn="));
        assertFalse(Files.readString(larch.dir().resolve("larch.out")).contains("conn="));
        assertTrue(Files.readString(slapd.dir().resolve("settings.txt"))
                .contains("started: /usr/sbin/slapd -d 0 -s 0 -f "));
        assertTrue(Files.readString(slapd.dir().resolve("slapd.conf")).contains("\nloglevel 0\n"));
        assertTrue(Files.readString(larch.dir().resolve("larch.conf")).contains("logging.access-log = false"));

        Path filed = dir.resolve("recorded-as-file");
        Files.createDirectories(filed);
        Files.writeString(filed.resolve("settings.txt"), "server: larch\nlogging: file (access log)\n");
        Path out = dir.resolve("sbs-mixed");
        ProcessResult r =
                sideBySide(out, slapd.side(), "larch:" + larch.port() + ":" + larch.pid() + ":" + filed, "messaging");
        assertEquals(2, r.exitCode(), r.describe());
        assertTrue(r.err().contains("slapd logs off, larch logs file"), r.describe());
        assertFalse(Files.exists(out.resolve("summary.txt")), "nothing ran");
    }

    /**
     * One server set up by its yardstick script in {@code DIR/NAME}, stopped after the test. The
     * second test to run starts on the store the first loaded ({@code KEEP_DATA}): the logging, not
     * the load, is what differs. Both servers start at once: one is mostly a JVM's, the other slapadd's.
     */
    private Server yardstick(String name, String logging) {
        Path serverDir = dir.resolve(name);
        int port = LarchProcess.freePort();
        Map<String, String> env = environment();
        env.put("LOGGING", logging);
        env.put("KEEP_DATA", "1");
        // the server's JIT warm-up before it listens is not what this test is about
        env.put("LARCH_SETTINGS", "server.warm-up-seconds = 0");
        ProcessResult r = ProcessResult.run(
                List.of(
                        SCRIPTS.resolve(name + "-yardstick.sh").toString(),
                        serverDir.toString(),
                        ldif.toString(),
                        Integer.toString(port)),
                env,
                null,
                SCRIPT_TIMEOUT);
        assertEquals(0, r.exitCode(), r.describe());
        long pid = Long.parseLong(r.out().strip());
        started.add(pid);
        assertTrue(read(serverDir.resolve("settings.txt")).contains("logging: " + logging + " ("));
        return new Server(name, port, pid, serverDir);
    }

    private record Server(String name, int port, long pid, Path dir) {
        String side() {
            return name + ":" + port + ":" + pid + ":" + dir;
        }
    }

    /** Each harness run's own log: the script names a failed run's, which the temporary directory loses. */
    private static String runLogs(Path out) {
        try (Stream<Path> files = Files.list(out)) {
            StringBuilder logs = new StringBuilder();
            for (Path log :
                    files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                logs.append("\n--- ").append(log.getFileName()).append('\n').append(Files.readString(log));
            }
            return logs.toString();
        } catch (IOException e) {
            return "\n(the runs' logs could not be read: " + e + ")";
        }
    }

    private static ProcessResult sideBySide(Path out, String a, String b, String mix) {
        Map<String, String> env = environment();
        env.put("ROUNDS", "1");
        env.put("CLIENTS", "1");
        env.put("THREADS", "2");
        env.put("WARMUP", "1");
        env.put("DURATION", "2");
        return ProcessResult.run(
                List.of(SCRIPTS.resolve("side-by-side.sh").toString(), ldif.toString(), out.toString(), a, b, mix),
                env,
                null,
                SCRIPT_TIMEOUT);
    }

    /** The launcher on this module's class path and JDK: it builds nothing. */
    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("LARCH_CLASSPATH", System.getProperty("java.class.path"));
        env.put("LARCH_WARM_CACHE", "off");
        env.put("LARCH_JAVA_OPTS", "");
        return env;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long measuredOps(Path run) throws IOException {
        return JsonReport.read(run.resolve("result.json")).runs().get(0).ops();
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            return 0;
        }
    }

    private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + LOG_DELAY.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(100);
        }
        return condition.getAsBoolean();
    }
}
