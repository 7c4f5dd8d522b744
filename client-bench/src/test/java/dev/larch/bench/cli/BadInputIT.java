package dev.larch.bench.cli;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.larch.bench.TestData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of bad input: one clear line, exit code 2, and no load (no results written). */
class BadInputIT {
    @TempDir
    static Path dir;

    static Path ldif;
    static InMemoryServer server;

    @BeforeAll
    static void start() throws Exception {
        ldif = TestData.ldif(dir.resolve("data.ldif"), 100);
        server = new InMemoryServer(ldif);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static CliRun bench(String mix, int port, Path data, String... extra) {
        return BenchArgs.of(mix, port, data, dir.resolve("out")).with(extra).run();
    }

    private static void assertRejected(CliRun run, String expected) {
        assertEquals(BenchMain.EXIT_BAD_INPUT, run.exitCode(), run.err());
        assertTrue(run.err().contains(expected), run.err());
        assertEquals(1, run.err().strip().lines().count(), "one line: " + run.err());
        assertFalse(run.err().contains("\tat "), "no stack trace");
        assertFalse(Files.exists(dir.resolve("out/result.json")), "no load ran");
    }

    @Test
    void unreachableServer() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        assertRejected(bench("messaging", closedPort, ldif), "cannot reach LDAP server 127.0.0.1:" + closedPort);
    }

    @Test
    void failedBind() {
        assertRejected(
                bench(
                        "messaging",
                        server.port(),
                        ldif,
                        "--bind-dn",
                        InMemoryServer.ADMIN_DN,
                        "--bind-password",
                        "wrong"),
                "failed: invalid credentials (49)");
    }

    @Test
    void writeMixWithoutBindDn() {
        assertRejected(bench("modify", server.port(), ldif), "give --bind-dn and --bind-password");
    }

    @Test
    void mixWithUnknownOperation() throws Exception {
        Path mix = Files.writeString(
                dir.resolve("unknown-op.json"),
                "{\"operations\":[{\"name\":\"m\",\"type\":\"rename\",\"share\":100,\"filter\":\"(cn=x)\",\"expect\":\"one\"}]}");
        assertRejected(bench(mix.toString(), server.port(), ldif), "unknown operation type 'rename'");
    }

    @Test
    void mixWhoseSharesDoNotAddUp() throws Exception {
        Path mix = Files.writeString(
                dir.resolve("shares.json"),
                "{\"operations\":[{\"name\":\"m\",\"share\":99,\"filter\":\"(cn=${cn})\",\"expect\":\"one\"}]}");
        assertRejected(bench(mix.toString(), server.port(), ldif), "not 100");
    }

    @Test
    void ldifLackingWhatTheMixNeeds() throws Exception {
        Path noGroups = dir.resolve("no-groups.ldif");
        Files.write(
                noGroups,
                Files.readAllLines(ldif).stream()
                        .filter(l -> !l.startsWith("member:"))
                        .toList());
        assertRejected(bench("addressing", server.port(), noGroups), "operation 'expand-group'");
    }

    @Test
    void missingFiles() {
        assertRejected(bench("messaging", server.port(), dir.resolve("nope.ldif")), "data file not found");
        assertRejected(bench(dir.resolve("nope.json").toString(), server.port(), ldif), "mix file not found");
        CliRun compare = CliRun.of(
                "bench",
                "compare",
                dir.resolve("a.json").toString(),
                dir.resolve("b.json").toString());
        assertRejected(compare, "result file not found");
    }

    @Test
    void missingRequiredOptionsAndBadGenArguments() {
        assertRejected(CliRun.of("bench", "--mix", "messaging"), "--port is required");
        assertRejected(
                CliRun.of(
                        "gen", "--entries", "0", "--out", dir.resolve("x.ldif").toString()),
                "at least 1");
        assertRejected(
                CliRun.of(
                        "gen",
                        "--entries",
                        "5",
                        "--suffix",
                        "cn=x",
                        "--out",
                        dir.resolve("x.ldif").toString()),
                "--suffix");
        assertFalse(Files.exists(dir.resolve("x.ldif")));
        assertFalse(Files.exists(dir.resolve("x.ldif.partial")));
    }

    @Test
    void rampAndResourceOptionsThatDoNotFit() throws Exception {
        assertRejected(bench("messaging", server.port(), ldif, "--ramp-repeats", "2"), "need --ramp");
        assertRejected(bench("messaging", server.port(), ldif, "--ramp-clients", "1,2"), "need --ramp");
        assertRejected(
                bench("messaging", server.port(), ldif, "--ramp", "--then-runs", "1"),
                "--then-runs must be 0 or at least 2");
        assertRejected(
                bench("messaging", server.port(), ldif, "--ramp", "--ramp-clients", "1,0"),
                "--ramp-clients must list counts");
        assertRejected(
                bench("messaging", server.port(), ldif, "--ramp", "--ramp-clients", "1,2", "--ramp-step", "2"),
                "does not go with --ramp-step");
        assertRejected(
                bench("messaging", server.port(), ldif, "--ramp", "--clients", "4", "--ramp-max-clients", "2"),
                "--ramp-max-clients >= --clients");
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        assertRejected(
                bench(
                        "messaging",
                        server.port(),
                        ldif,
                        "--server-metrics-url",
                        "http://127.0.0.1:" + closedPort + "/metrics"),
                "cannot read http://127.0.0.1:" + closedPort + "/metrics");
        assertRejected(
                bench("messaging", server.port(), ldif, "--server-metrics-url", "ftp://x/metrics"),
                "must be an http(s) URL");
        assertRejected(
                bench("messaging", server.port(), ldif, "--server-jmx", "nohost"), "--server-jmx wants host:port");
        assertRejected(
                bench("messaging", server.port(), ldif, "--server-jmx", "127.0.0.1:" + closedPort),
                "cannot reach --server-jmx 127.0.0.1:" + closedPort);
    }
}
