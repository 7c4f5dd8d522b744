package dev.larch.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.larch.bench.cli.BenchMain;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.JsonReport;
import dev.larch.config.LarchConfig;
import dev.larch.e2e.sync.SlapdServer;
import dev.larch.schema.LarchSchema;
import dev.larch.server.LarchServer;
import dev.larch.server.StoredDirectory;
import dev.larch.server.ldif.LdifImporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code client-bench/scripts/side-by-side.sh} against two real servers: it alternates the mixes
 * between them through {@code ./larch bench} (the launcher on this module's class path), binds for
 * the write mix, and writes one summary line per mix with both sides' throughput, p99, peak RssAnon
 * and the ratio; a malformed side is refused before anything runs.
 */
class SideBySideScriptIT {
    private static final Path SCRIPT = Path.of("../../client-bench/scripts/side-by-side.sh")
            .toAbsolutePath()
            .normalize();
    private static final Path CROSSCHECK = SCRIPT.resolveSibling("unboundid-crosscheck.sh");
    private static final Path CORE_SCALING = SCRIPT.resolveSibling("core-scaling.sh");
    private static final Path IMPORTS = SCRIPT.resolveSibling("import-side-by-side.sh");
    private static final Path RENAMES = SCRIPT.resolveSibling("rename-side-by-side.sh");
    private static final Path PAGED = SCRIPT.resolveSibling("paged-side-by-side.sh");
    private static final Path ALL = SCRIPT.resolveSibling("all-side-by-side.sh");
    /** "paged  one  1234.5 entries/s  12.34 us CPU/entry client  0.12 s CPU | two ... | two/one entries/s 1.02 CPU/entry 0.98" */
    private static final Pattern PAGED_SUMMARY =
            Pattern.compile("^paged +one +([0-9.]+) entries/s +([0-9.]+) us CPU/entry client +([0-9.]+) s CPU"
                    + " \\| two +([0-9.]+) entries/s +([0-9.]+) us CPU/entry client +([0-9.]+) s CPU"
                    + " \\| two/one entries/s ([0-9.]+) CPU/entry ([0-9.]+)$");
    /** "subtree  one     5.60 ms | two    10.96 ms | two/one 1.96" */
    private static final Pattern RENAME_SUMMARY =
            Pattern.compile("^(subtree|leaf) +one +([0-9.]+) ms \\| two +([0-9.]+) ms \\| two/one ([0-9.]+)$");
    /** "larch  wall   28.6 s  user   10.4 s  sys    0.9 s  peak RSS  1423 MiB  on disk    79 MiB" */
    private static final Pattern LOAD_SUMMARY = Pattern.compile(
            "^(slapd|larch) +wall +([0-9.]+) s +user +([0-9.]+) s +sys +([0-9.]+) s +peak RSS +(\\d+) MiB"
                    + " +on disk +(\\d+) MiB$");
    /** "cores   1  one     123.4 ops/s     123.4 per core | two ... | two/one 1.02" */
    private static final Pattern SCALING = Pattern.compile(
            "^cores +(\\d+) +one +([0-9.]+) ops/s +([0-9.]+) per core \\| two +([0-9.]+) ops/s +([0-9.]+) per core"
                    + " \\| two/one ([0-9.]+)$");

    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(5);
    /** "searchrate one 123.4 ops/s 0 errors 56.7 us CPU/op | two ... | two/one ops 1.02 CPU/op 0.98" */
    private static final Pattern CROSSCHECK_SUMMARY = Pattern.compile(
            "^(\\S+) +one +([0-9.]+) ops/s (\\d+) errors +([0-9.]+) us CPU/op \\| two +([0-9.]+) ops/s (\\d+) errors"
                    + " +([0-9.]+) us CPU/op \\| two/one ops ([0-9.]+) CPU/op ([0-9.]+)$");
    /** "messaging  one     123.4 ops/s p99  1.234 ms RssAnon<=  321 MiB | two ... | two/one 1.02" */
    private static final Pattern SUMMARY =
            Pattern.compile("^(\\S+) +one +([0-9.]+) ops/s p99 +([0-9.]+) ms RssAnon<= *(\\d+) MiB"
                    + " \\| two +([0-9.]+) ops/s p99 +([0-9.]+) ms RssAnon<= *(\\d+) MiB \\| two/one ([0-9.]+)$");

    @TempDir
    static Path dir;

    static Path ldif;
    static LarchServer one;
    static LarchServer two;

    @BeforeAll
    static void start() throws Exception {
        ldif = dir.resolve("people.ldif");
        assertEquals(
                0, BenchMain.commandLine().execute("gen", "--entries", "300", "--seed", "3", "--out", ldif.toString()));
        one = serve("one");
        two = serve("two");
    }

    private static LarchServer serve(String name) throws Exception {
        // No self-warm-up (server.warm-up-seconds): it would drive this JVM's JIT for up to 30 s
        // before the port opens, and what is checked here is the bench harness, not a warm server.
        LarchConfig config = LarchConfig.builder()
                .set("server.warm-up-seconds", 0)
                .build()
                .withDataDir(dir.resolve(name))
                .withPort(0);
        try (StoredDirectory open = StoredDirectory.open(config, LarchSchema.standard(), false)) {
            new LdifImporter(open, 1000).importFile(ldif, n -> {});
        }
        return LarchServer.start(config, Map.of("LARCH_ADMIN_PASSWORD", "secret"));
    }

    @AfterAll
    static void stop() {
        for (LarchServer s : Arrays.asList(one, two)) {
            if (s != null) {
                s.close();
            }
        }
    }

    @Test
    void eachMixRunsAlternatelyAndIsSummarisedInOneLine() throws Exception {
        Path out = dir.resolve("sbs");
        ProcessResult r = script(out.toString(), side("one", one), side("two", two), "messaging", "modify");
        assertEquals(0, r.exitCode(), r.describe());
        List<String> lines = Files.readAllLines(out.resolve("summary.txt"));
        assertEquals(2, lines.size(), lines.toString());
        for (int i = 0; i < 2; i++) {
            Matcher m = SUMMARY.matcher(lines.get(i));
            assertTrue(m.matches(), lines.get(i));
            assertEquals(List.of("messaging", "modify").get(i), m.group(1));
            double opsOne = Double.parseDouble(m.group(2));
            double opsTwo = Double.parseDouble(m.group(5));
            assertTrue(opsOne > 0 && opsTwo > 0, lines.get(i));
            assertEquals(opsTwo / opsOne, Double.parseDouble(m.group(8)), 0.01, lines.get(i));
            // both servers are this JVM: it holds more than a few MiB of its own
            assertTrue(Integer.parseInt(m.group(4)) > 10 && Integer.parseInt(m.group(7)) > 10, lines.get(i));
        }
        // the runs of each mix, in order, with the admin bind for the writes
        List<String> marks = Files.readAllLines(out.resolve("marks.txt")).stream()
                .map(l -> l.substring(l.indexOf(' ') + 1))
                .toList();
        assertEquals(
                List.of(
                        "messaging one 1 start",
                        "messaging one 1 end",
                        "messaging two 1 start",
                        "messaging two 1 end",
                        "modify one 1 start",
                        "modify one 1 end",
                        "modify two 1 start",
                        "modify two 1 end"),
                marks);
        for (String run : List.of("modify-one-1", "modify-two-1")) {
            BenchResult.Run result = JsonReport.read(out.resolve(run).resolve("result.json"))
                    .runs()
                    .get(0);
            assertEquals(0, result.errors(), run + ": " + result.errorsByResultCode());
            assertTrue(result.ops() > 0, run);
        }
    }

    @Test
    void theUnboundIdToolsRunAlternatelyWithEachServersCpuPerOperationAndTheBindPasswordsComeBack() throws Exception {
        RequiredTool.check(LdapUtils.installed(), "ldap-utils", "apt-get install -y ldap-utils");
        RequiredTool.check(SlapdServer.installed(), "slapd (slappasswd)", "apt-get install -y slapd");
        Path out = dir.resolve("crosscheck");
        Map<String, String> env = environment();
        env.put("WARMUP", "0");
        env.put("DURATION", "2");
        env.put("CONNECTIONS", "2");
        env.put("AUTH_USERS", "10");
        ProcessResult r = ProcessResult.run(
                List.of(
                        CROSSCHECK.toString(),
                        ldif.toString(),
                        out.toString(),
                        side("one", one),
                        side("two", two),
                        "searchrate",
                        "onelevel",
                        "authrate"),
                env,
                null,
                SCRIPT_TIMEOUT);
        assertEquals(0, r.exitCode(), r.describe());
        List<String> lines = Files.readAllLines(out.resolve("summary.txt"));
        List<String> tools = List.of("searchrate", "onelevel", "authrate");
        assertEquals(tools.size(), lines.size(), lines.toString());
        for (int i = 0; i < tools.size(); i++) {
            Matcher m = CROSSCHECK_SUMMARY.matcher(lines.get(i));
            assertTrue(m.matches(), lines.get(i));
            assertEquals(tools.get(i), m.group(1));
            double opsOne = Double.parseDouble(m.group(2));
            double opsTwo = Double.parseDouble(m.group(5));
            assertTrue(opsOne > 0 && opsTwo > 0, lines.get(i));
            assertEquals("0", m.group(3), lines.get(i));
            assertEquals("0", m.group(6), lines.get(i));
            // both servers are this JVM: it works for every operation
            assertTrue(Double.parseDouble(m.group(4)) > 0 && Double.parseDouble(m.group(7)) > 0, lines.get(i));
            assertEquals(opsTwo / opsOne, Double.parseDouble(m.group(8)), 0.01, lines.get(i));
        }
        // onelevel asked for the people of one parent, under that parent
        assertFalse(Files.readAllLines(out.resolve("onelevel-uids.txt")).isEmpty());
        // authrate bound everyone with one password; afterwards each has their own (their uid) again
        String dn = Files.readAllLines(out.resolve("auth-dns.txt")).get(0);
        String uid = Files.readAllLines(out.resolve("auth-uids.txt")).get(0);
        for (LarchServer server : List.of(one, two)) {
            ProcessResult bound = LdapUtils.anonymous(server.address().getPort())
                    .as(dn, uid)
                    .ldapsearch("-b", dn, "-s", "base", "1.1");
            assertEquals(0, bound.exitCode(), bound.describe());
        }
    }

    @Test
    void theRenameScriptTimesSubtreeAndLeafRenamesOnBothAndRemovesWhatItAdded() throws Exception {
        RequiredTool.check(LdapUtils.installed(), "ldap-utils", "apt-get install -y ldap-utils");
        Map<String, String> env = environment();
        env.put("DESCENDANTS", "30");
        env.put("RENAMES", "2");
        // Twice, the first keeping what it added: the second must not meet its entries (Larch keeps
        // uid unique), and removes only its own.
        Path out = null;
        for (String run : List.of("renames-1", "renames-2")) {
            out = dir.resolve(run);
            env.put("KEEP", run.equals("renames-1") ? "1" : "0");
            ProcessResult r = ProcessResult.run(
                    List.of(RENAMES.toString(), out.toString(), side("one", one), side("two", two)),
                    env,
                    null,
                    SCRIPT_TIMEOUT);
            assertEquals(0, r.exitCode(), r.describe());
        }
        List<String> lines = Files.readAllLines(out.resolve("summary.txt"));
        assertEquals(2, lines.size(), lines.toString());
        for (int i = 0; i < 2; i++) {
            Matcher m = RENAME_SUMMARY.matcher(lines.get(i));
            assertTrue(m.matches(), lines.get(i));
            assertEquals(List.of("subtree", "leaf").get(i), m.group(1));
            // Two renames against the tool's start and bind, which are taken off: at least zero.
            assertTrue(Double.parseDouble(m.group(2)) >= 0 && Double.parseDouble(m.group(3)) >= 0, lines.get(i));
        }
        // What was taken off (each round's ldapmodify that only started and bound) is recorded per side.
        for (String side : List.of("one", "two")) {
            List<String> fixed = Files.readAllLines(out.resolve("fixed-" + side + ".ms"));
            assertFalse(fixed.isEmpty(), side);
            for (String ms : fixed) {
                assertTrue(Double.parseDouble(ms) > 0, side + ": " + ms);
            }
        }
        // the second run's subtree and leaf are gone again from both; the first run's kept ones stay
        for (LarchServer server : List.of(one, two)) {
            ProcessResult left = LdapUtils.anonymous(server.address().getPort())
                    .ldapsearch("-s", "one", "-b", "dc=example,dc=com", "(|(ou=rename-*)(uid=rename-*))", "1.1");
            assertEquals(0, left.exitCode(), left.describe());
            assertEquals(2, left.out().split("dn: ", -1).length - 1, left.out());
            ProcessResult kept = LdapUtils.anonymous(server.address().getPort())
                    .ldapsearch("-b", "dc=example,dc=com", "(uid=rename-*)", "1.1");
            assertEquals(0, kept.exitCode(), kept.describe());
            assertEquals(31, kept.out().split("dn: ", -1).length - 1, "30 people and a leaf, kept");
        }
    }

    @Test
    void thePagedScriptReadsTheWholeTreeFromBothWithEachSidesCpuPerEntryAndRefusesAFailedSearch() throws Exception {
        RequiredTool.check(LdapUtils.installed(), "ldap-utils", "apt-get install -y ldap-utils");
        Map<String, String> env = environment();
        env.put("PAGE", "40");
        Path out = dir.resolve("paged");
        ProcessResult r = ProcessResult.run(
                List.of(PAGED.toString(), out.toString(), side("one", one), side("two", two)),
                env,
                null,
                SCRIPT_TIMEOUT);
        assertEquals(0, r.exitCode(), r.describe());

        ProcessResult all = LdapUtils.anonymous(one.address().getPort())
                .asAdmin("secret")
                .ldapsearch("-b", "dc=example,dc=com", "(objectClass=*)", "1.1");
        assertEquals(0, all.exitCode(), all.describe());
        int entries = all.out().split("dn: ", -1).length - 1;
        assertTrue(entries > 300, all.out());
        List<String> runs = Files.readAllLines(out.resolve("runs.txt"));
        assertEquals(
                List.of("one 1 " + entries, "two 1 " + entries),
                runs.stream()
                        .map(line ->
                                String.join(" ", Arrays.asList(line.split(" ")).subList(0, 3)))
                        .toList(),
                "every entry, more than one page of them, counted once on each side");
        List<String> summary = Files.readAllLines(out.resolve("summary.txt"));
        assertEquals(1, summary.size(), summary.toString());
        Matcher m = PAGED_SUMMARY.matcher(summary.get(0));
        assertTrue(m.matches(), summary.get(0));
        assertTrue(Double.parseDouble(m.group(1)) > 0 && Double.parseDouble(m.group(4)) > 0, summary.get(0));
        assertTrue(Files.readString(out.resolve("settings.txt")).contains("pr=40/noprompt"));

        env.put("BIND_PASSWORD", "wrong");
        ProcessResult refused = ProcessResult.run(
                List.of(PAGED.toString(), dir.resolve("paged-refused").toString(), side("one", one), side("two", two)),
                env,
                null,
                SCRIPT_TIMEOUT);
        assertEquals(1, refused.exitCode(), refused.describe());
        assertTrue(refused.err().contains("one: ldapsearch failed"), refused.describe());
        assertFalse(Files.exists(dir.resolve("paged-refused").resolve("summary.txt")));
    }

    @Test
    void coreScalingPinsBothServersToTheirCoresAndGivesThemTheirCpusBack() throws Exception {
        int cpus = Runtime.getRuntime().availableProcessors();
        assumeTrue(cpus >= 2, "one CPU for the servers and one for the load");
        String before = allowedCpus();
        Path out = dir.resolve("scaling");
        ProcessResult r = ProcessResult.run(
                List.of(CORE_SCALING.toString(), ldif.toString(), out.toString(), side("one", one), side("two", two)),
                environment(),
                null,
                SCRIPT_TIMEOUT);
        assertEquals(0, r.exitCode(), r.describe());
        List<String> lines = Files.readAllLines(out.resolve("scaling.txt"));
        assertEquals(cpus - 1, lines.size(), lines.toString()); // 1 .. cpus-1 server cores
        Matcher m = SCALING.matcher(lines.get(0));
        assertTrue(m.matches(), lines.get(0));
        assertEquals(1, Integer.parseInt(m.group(1)));
        assertEquals(Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)), 0.1, "one core: ops/s per core");
        assertTrue(
                Files.readString(out.resolve("cores-1/settings.txt"))
                        .contains("servers pinned to CPUs 0, the harness to CPUs "),
                "placement recorded");
        assertEquals(before, allowedCpus(), "the servers' own CPUs back after the runs");
    }

    @Test
    void bothLoadersRunAlternatelyIntoEmptyStoresAndAreTimed() throws Exception {
        RequiredTool.check(SlapdServer.installed(), "slapd (slappasswd)", "apt-get install -y slapd");
        Path out = dir.resolve("imports");
        Map<String, String> env = environment();
        env.put("ROUNDS", "2");
        ProcessResult r = ProcessResult.run(
                List.of(IMPORTS.toString(), ldif.toString(), out.toString()), env, null, SCRIPT_TIMEOUT);
        assertEquals(0, r.exitCode(), r.describe());
        List<String[]> loads = Files.readAllLines(out.resolve("loads.txt")).stream()
                .map(l -> l.split(" "))
                .toList();
        assertEquals(
                List.of("slapd 1", "larch 1", "slapd 2", "larch 2"),
                loads.stream().map(l -> l[0] + " " + l[1]).toList());
        List<String> summary = Files.readAllLines(out.resolve("summary.txt"));
        assertEquals(4, summary.size(), summary.toString());
        for (String line : summary.subList(1, 3)) {
            Matcher m = LOAD_SUMMARY.matcher(line);
            assertTrue(m.matches(), line);
            assertTrue(Integer.parseInt(m.group(5)) > 0, line);
        }
        // of two rounds, the median is the mean of the two loads' wall-clock seconds
        Map<String, Double> wall = new HashMap<>();
        loads.forEach(l -> wall.merge(l[0], Double.parseDouble(l[2]) / 2, Double::sum));
        assertTrue(summary.get(3).startsWith("larch / slapadd wall-clock: "), summary.get(3));
        assertEquals(
                wall.get("larch") / wall.get("slapd"),
                Double.parseDouble(summary.get(3).substring(summary.get(3).lastIndexOf(' ') + 1)),
                0.006,
                summary.get(3));
        // every entry of the LDIF went into each store: Larch's import and slapcat count them
        long entries = Files.readAllLines(ldif).stream()
                .filter(l -> l.startsWith("dn:"))
                .count();
        assertTrue(
                Files.readString(out.resolve("larch/import.log"))
                        .contains("Imported " + String.format(Locale.ROOT, "%,d", entries) + " entries"),
                "larch import log");
        ProcessResult slapcat = ProcessResult.run(
                List.of("/usr/sbin/slapcat", "-f", out.resolve("slapd.conf").toString()),
                Map.of(),
                null,
                SCRIPT_TIMEOUT);
        assertEquals(0, slapcat.exitCode(), slapcat.describe());
        assertEquals(
                entries, slapcat.out().lines().filter(l -> l.startsWith("dn:")).count());
        assertTrue(Files.readString(out.resolve("slapd.conf")).contains("tool-threads "), "slapadd's threads");
    }

    @Test
    void theWholeSittingLoadsBothStoresRunsEachComparisonAndGathersOneTable() throws Exception {
        RequiredTool.check(SlapdServer.installed(), "slapd (slappasswd)", "apt-get install -y slapd");
        RequiredTool.check(LdapUtils.installed(), "ldap-utils", "apt-get install -y ldap-utils");
        Path out = dir.resolve("all");
        int slapdPort = freePort();
        int larchPort = freePort();
        Map<String, String> env = environment();
        // The smallest sitting that still takes every step: logging to a file for the load
        // comparisons, then logging off for the paged search and the renames.
        env.putAll(Map.of(
                "LOGGINGS", "file",
                "CONNECTIONS", "2",
                "MIXES", "messaging",
                "TOOLS", "searchrate",
                "IMPORT_ROUNDS", "1",
                "SLAPD_PORT", String.valueOf(slapdPort),
                "LARCH_PORT", String.valueOf(larchPort),
                "PAGE", "40",
                "DESCENDANTS", "5",
                "RENAMES", "2"));
        ProcessResult r = ProcessResult.run(
                List.of(ALL.toString(), ldif.toString(), out.toString()), env, null, Duration.ofMinutes(8));
        assertEquals(0, r.exitCode(), r.describe());

        List<String> headings = Files.readAllLines(out.resolve("table.txt")).stream()
                .filter(l -> l.startsWith("== "))
                .toList();
        assertEquals(
                List.of(
                        "== bulk load (import-side-by-side.sh)",
                        "== logging file, 2 connections (2 clients x 1 threads): the harness (side-by-side.sh)",
                        "== logging file, 2 connections: UnboundID's tools (unboundid-crosscheck.sh)",
                        "== logging off: paged search of the whole tree (paged-side-by-side.sh)",
                        "== logging off: modify DN (rename-side-by-side.sh)"),
                headings);
        String table = Files.readString(out.resolve("table.txt"));
        assertTrue(table.contains("larch / slapadd wall-clock: "), table);
        assertTrue(
                Pattern.compile("(?m)^messaging +slapd +[0-9.]+ ops/s .* \\| larch/slapd [0-9.]+$")
                        .matcher(table)
                        .find(),
                table);
        assertTrue(
                Pattern.compile("(?m)^searchrate +slapd +[0-9.]+ ops/s 0 errors")
                        .matcher(table)
                        .find(),
                table);
        assertTrue(
                Pattern.compile("(?m)^paged +slapd .* \\| larch/slapd entries/s [0-9.]+")
                        .matcher(table)
                        .find(),
                table);
        assertTrue(
                Pattern.compile("(?m)^subtree +slapd .* \\| larch/slapd [0-9.]+$")
                        .matcher(table)
                        .find(),
                table);
        assertTrue(
                Files.readString(out.resolve("file/mixes-2/settings.txt")).contains("logging: file"),
                "both servers logged to a file for the harness");
        assertTrue(Files.readString(out.resolve("paged/settings.txt")).contains("logging: off"));
        for (int port : List.of(slapdPort, larchPort)) {
            assertFalse(listening(port), "the server on " + port + " is stopped at the end");
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** This JVM's CPUs, both servers' (every thread's affinity is the same unless a script changed it). */
    private static String allowedCpus() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aSideThatIsNotNamePortPidIsRefusedBeforeAnyRun() throws Exception {
        Path out = dir.resolve("refused");
        ProcessResult r = script(out.toString(), "one:" + one.address().getPort(), side("two", two));
        assertEquals(2, r.exitCode(), r.describe());
        assertTrue(r.err().contains("expected NAME:PORT:PID"), r.describe());
        ProcessResult same = script(out.toString(), side("one", one), side("one", two));
        assertEquals(2, same.exitCode(), same.describe());
        assertTrue(same.err().contains("different names"), same.describe());
        Map<String, String> everyCpu = environment();
        everyCpu.put("SERVER_CPUS", "0-" + (Runtime.getRuntime().availableProcessors() - 1));
        ProcessResult noLoadCpu = ProcessResult.run(
                List.of(SCRIPT.toString(), ldif.toString(), out.toString(), side("one", one), side("two", two)),
                everyCpu,
                null,
                SCRIPT_TIMEOUT);
        assertEquals(2, noLoadCpu.exitCode(), noLoadCpu.describe());
        assertTrue(noLoadCpu.err().contains("leaves no CPU for the load"), noLoadCpu.describe());
        assertFalse(Files.exists(out.resolve("summary.txt")), "nothing ran");
    }

    private static String side(String name, LarchServer server) {
        return name + ":" + server.address().getPort() + ":"
                + ProcessHandle.current().pid();
    }

    private static ProcessResult script(String... args) {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), ldif.toString()));
        command.addAll(List.of(args));
        return ProcessResult.run(command, environment(), null, SCRIPT_TIMEOUT);
    }

    /** The launcher on this module's class path and JDK (it builds nothing), one short round per mix. */
    private static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("LARCH_CLASSPATH", System.getProperty("java.class.path"));
        env.put("LARCH_WARM_CACHE", "off");
        env.put("LARCH_JAVA_OPTS", "");
        env.put("ROUNDS", "1");
        env.put("CLIENTS", "1");
        env.put("THREADS", "2");
        env.put("WARMUP", "1");
        env.put("DURATION", "2");
        return env;
    }
}
