package dev.larch.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.larch.bench.TestData;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.HistogramLogFile;
import dev.larch.bench.report.JsonReport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fixed rate, outstanding requests, TLS and the connection sweep, end to end against in-memory servers. */
class LoadModelsIT {
    @TempDir
    static Path dir;

    static Path ldif;

    @BeforeAll
    static void data() throws Exception {
        ldif = TestData.ldif(dir.resolve("data.ldif"), 1_000);
    }

    private static LoadTestServer server(LoadTestServer.Listener listener, LoadTestServer.Behaviour b)
            throws Exception {
        return new LoadTestServer(ldif, dir, listener, b);
    }

    private static String[] args(LoadTestServer server, String out, String... extra) {
        return BenchArgs.of("messaging", server.port(), ldif, dir.resolve(out))
                .with("--warmup", "1", "--duration", "2")
                .with(extra)
                .toArray();
    }

    private static BenchResult bench(LoadTestServer server, String out, String... extra) {
        CliRun run = CliRun.of(args(server, out, extra));
        assertEquals(0, run.exitCode(), run.err());
        return JsonReport.read(dir.resolve(out).resolve("result.json"));
    }

    private static CliRun refused(LoadTestServer server, String out, String... extra) {
        CliRun run = CliRun.of(args(server, out, extra));
        assertEquals(2, run.exitCode(), run.err());
        return run;
    }

    @Test
    void fixedRateHoldsItsRateWithinTwoPercent() throws Exception {
        try (LoadTestServer s = server(LoadTestServer.Listener.PLAIN, LoadTestServer.Behaviour.FAST)) {
            BenchResult r = bench(s, "rate", "--rate", "400", "--threads", "2", "--duration", "4");
            BenchResult.Run run = r.runs().get(0);
            // The schedule does not drift, so the window holds rate x seconds starts. The only other
            // answers in it are late ones from the warm-up (a busy test machine can pause the
            // generator): at most rate x the furthest any start fell behind.
            double lateness = run.pacing().missedStartMsMax();
            assertTrue(lateness < 250, "the generator kept up: " + run.pacing());
            assertEquals(400, run.opsPerSecond(), 8 + 400 * lateness / 1000 / run.measuredSeconds(), "achieved rate");
            assertEquals(0, run.errors() + run.wrongAnswers());
            assertEquals("rate", r.config().loadModel());
            assertEquals(400.0, r.config().rate());
            assertEquals(400, run.pacing().offeredOpsPerSecond());
            assertEquals("none", r.config().tls());
        }
    }

    @Test
    void fixedRateWithOutstandingRequestsHoldsItsRate() throws Exception {
        try (LoadTestServer s = server(LoadTestServer.Listener.PLAIN, LoadTestServer.Behaviour.FAST)) {
            BenchResult r = bench(
                    s,
                    "rate-outstanding",
                    "--rate",
                    "300",
                    "--threads",
                    "3",
                    "--outstanding",
                    "2",
                    "--driver-threads",
                    "1");
            BenchResult.Run run = r.runs().get(0);
            double lateness = run.pacing().missedStartMsMax(); // as in fixedRateHoldsItsRateWithinTwoPercent
            assertTrue(lateness < 250, "the generator kept up: " + run.pacing());
            assertEquals(300, run.opsPerSecond(), 6 + 300 * lateness / 1000 / run.measuredSeconds(), "achieved rate");
            assertEquals(0, run.errors() + run.wrongAnswers());
            assertEquals("rate+outstanding", r.config().loadModel());
            assertEquals(1, r.config().driverThreads());
            assertEquals(300, run.pacing().sentOpsPerSecond(), 6 + 300 * lateness / 1000 / run.measuredSeconds());
        }
    }

    @Test
    void aStallShowsInFixedRateLatencyWhileClosedLoopHidesIt() throws Exception {
        // 150 ms of every second the server answers nothing.
        try (LoadTestServer s = server(LoadTestServer.Listener.PLAIN, new LoadTestServer.Behaviour(0, false, 150))) {
            BenchResult closed = bench(s, "stall-closed", "--threads", "1", "--duration", "3");
            BenchResult paced = bench(s, "stall-rate", "--rate", "100", "--threads", "2", "--duration", "3");
            BenchResult.Run c = closed.runs().get(0);
            BenchResult.Run p = paced.runs().get(0);
            // Closed loop: the one request caught in each stall is slow, the thousands after it are not.
            assertTrue(c.latencyMs().max() >= 100, "closed max " + c.latencyMs());
            assertTrue(c.latencyMs().p99() < 50, "closed loop hides the stall from p99: " + c.latencyMs());
            // Fixed rate: every request due during a stall (15% of them) waits for its end.
            assertTrue(p.latencyMs().p99() >= 100, "rate p99 " + p.latencyMs());
            assertTrue(p.latencyMs().p90() >= 20, "rate p90 " + p.latencyMs());
            assertTrue(
                    p.pacing().lateStarts() > 0 && p.pacing().missedStartMsMax() >= 100,
                    p.pacing().toString());
            // Service time counts from the real send, so it hides the wait behind the stalled request.
            assertTrue(
                    p.pacing().serviceLatencyMs().p90() < p.latencyMs().p90(),
                    p.pacing().serviceLatencyMs() + " vs " + p.latencyMs());
            assertEquals(100, p.opsPerSecond(), 5, "late requests are sent late, not skipped");
        }
    }

    @Test
    void outstandingKeepsKRequestsInFlightPerConnection() throws Exception {
        // 5 ms per search, one at a time per connection (the in-memory server reads a connection's
        // requests in order): K in flight queue at the server, so latency ~ K x 5 ms at ~200 ops/s per connection.
        try (LoadTestServer s = server(LoadTestServer.Listener.PLAIN, new LoadTestServer.Behaviour(5, false, 0))) {
            for (int k : new int[] {1, 4}) {
                BenchResult r = bench(
                        s,
                        "outstanding-" + k,
                        "--threads",
                        "2",
                        "--outstanding",
                        Integer.toString(k),
                        "--driver-threads",
                        "1");
                BenchResult.Run run = r.runs().get(0);
                assertEquals(
                        0,
                        run.errors() + run.wrongAnswers(),
                        run.errorsByResultCode().toString());
                assertEquals(k, run.pacing().maxInFlightPerConnection());
                // Little's law: requests in flight = throughput x time in the system.
                double inFlightPerConnection =
                        run.opsPerSecond() * run.latencyMs().mean() / 1000 / 2;
                assertEquals(k, inFlightPerConnection, 0.2 * k, "measured in flight per connection");
                assertEquals("outstanding", r.config().loadModel());
                assertEquals(k, r.config().outstanding());
            }
        }
    }

    @Test
    void churnSecuresEveryConnectionItOpensOverStartTls() throws Exception {
        try (LoadTestServer tls = server(LoadTestServer.Listener.STARTTLS, LoadTestServer.Behaviour.FAST)) {
            Path pem = tls.certificatePem(dir.resolve("churn-starttls.pem"));
            BenchResult r =
                    bench(tls, "churn-starttls", "--mix", "churn", "--starttls", "--trust-store", pem.toString());
            long logins = r.runs().stream().mapToLong(BenchResult.Run::ops).sum();
            assertTrue(logins > 0, "churned");
            assertEquals(0, r.runs().get(0).errors() + r.runs().get(0).wrongAnswers());
            // Each churn opens its own connection: without its own StartTLS it would be plain.
            assertTrue(tls.startTlsRequests() >= logins, tls.startTlsRequests() + " StartTLS for " + logins);
        }
    }

    @Test
    void startTlsAndLdapsWorkWithTheServersCertificateAndRefuseAnUntrustedOne() throws Exception {
        try (LoadTestServer tls = server(LoadTestServer.Listener.STARTTLS, LoadTestServer.Behaviour.FAST);
                LoadTestServer ldaps = server(LoadTestServer.Listener.LDAPS, LoadTestServer.Behaviour.FAST);
                LoadTestServer plain = server(LoadTestServer.Listener.PLAIN, LoadTestServer.Behaviour.FAST)) {
            Path pem = tls.certificatePem(dir.resolve("starttls.pem"));
            BenchResult r = bench(tls, "starttls", "--starttls", "--trust-store", pem.toString(), "--duration", "1");
            assertTrue(r.runs().get(0).ops() > 0);
            assertEquals(0, r.runs().get(0).errors());
            assertEquals("starttls", r.config().tls());

            Path p12 = ldaps.certificateStore(dir.resolve("ldaps.p12"));
            r = bench(
                    ldaps,
                    "ldaps",
                    "--ldaps",
                    "--trust-store",
                    p12.toString(),
                    "--trust-store-password",
                    LoadTestServer.PIN,
                    "--outstanding",
                    "2",
                    "--duration",
                    "1");
            assertTrue(r.runs().get(0).ops() > 0);
            assertEquals(0, r.runs().get(0).errors());
            assertEquals("ldaps", r.config().tls());

            // The StartTLS server's certificate does not vouch for the LDAPS server.
            CliRun untrusted = refused(ldaps, "untrusted", "--ldaps", "--trust-store", pem.toString());
            assertTrue(untrusted.err().contains("is not trusted"), untrusted.err());
            assertTrue(untrusted.err().contains("--trust-all"), untrusted.err());

            CliRun noStartTls = refused(plain, "no-starttls", "--starttls", "--trust-all");
            assertTrue(noStartTls.err().contains("refused StartTLS"), noStartTls.err());

            CliRun notLdaps = refused(plain, "not-ldaps", "--ldaps", "--trust-all");
            assertTrue(notLdaps.err().contains("LDAPS"), notLdaps.err());

            r = bench(ldaps, "trust-all", "--ldaps", "--trust-all", "--duration", "1");
            assertTrue(r.runs().get(0).ops() > 0);
        }
    }

    @Test
    void findMaxConnectionsReportsTheLargestSustainedStep() throws Exception {
        try (LoadTestServer s = server(LoadTestServer.Listener.PLAIN, LoadTestServer.Behaviour.FAST)) {
            BenchResult r = bench(
                    s,
                    "sweep-fast",
                    "--find-max-connections",
                    "--connection-rate",
                    "10",
                    "--max-connections-start",
                    "10",
                    "--max-connections-step",
                    "10",
                    "--max-connections-limit",
                    "30",
                    "--max-p99-ms",
                    "1000",
                    "--max-rate-shortfall",
                    "10",
                    "--warmup",
                    "0.5",
                    "--duration",
                    "2");
            // Bounds generous enough for a busy two-core test machine: every step should hold them.
            BenchResult.MaxConnections m = r.maxConnections();
            assertNotNull(m);
            assertEquals(
                    List.of(10, 20, 30),
                    m.steps().stream()
                            .map(BenchResult.ConnectionStep::connections)
                            .toList(),
                    m.stopReason());
            assertEquals(30, m.maxSustainedConnections(), m.stopReason());
            assertTrue(m.stopReason().contains("reached --max-connections-limit 30"), m.stopReason());
            assertEquals("find-max-connections", r.config().loadModel());
            assertEquals(10.0, r.config().connectionRate());
            assertEquals(3, r.runs().size());
            for (int i = 0; i < 3; i++) {
                BenchResult.ConnectionStep step = m.steps().get(i);
                assertEquals(step.connections(), r.runs().get(i).clients());
                assertEquals(step.connections() * 10.0, step.offeredOpsPerSecond());
                assertEquals(
                        step.offeredOpsPerSecond(), r.runs().get(i).pacing().offeredOpsPerSecond());
                assertEquals(step.offeredOpsPerSecond(), step.opsPerSecond(), step.offeredOpsPerSecond() * 0.1);
            }
            assertTrue(
                    r.summary().basis().contains("30 connections"), r.summary().basis());
            // A sweep keeps no histogram log, and its notes do not say it does.
            assertFalse(Files.exists(dir.resolve("sweep-fast").resolve(HistogramLogFile.NAME)));
            assertTrue(
                    r.notes().stream().noneMatch(n -> n.contains(HistogramLogFile.NAME)),
                    r.notes().toString());
        }
    }

    @Test
    void findMaxConnectionsStopsAtAServersCapacity() throws Exception {
        // One search at a time, 4 ms each: about 250 ops/s whatever the connection count. The p99
        // bound is loose (100 ms): past capacity the sweep stops on the rate shortfall and a p99 of
        // hundreds of ms, while a loaded machine has given the first step (4 connections, a third of
        // capacity) a p99 of 42 ms from late starts alone.
        try (LoadTestServer s = server(LoadTestServer.Listener.PLAIN, new LoadTestServer.Behaviour(4, true, 0))) {
            BenchResult r = bench(
                    s,
                    "sweep-slow",
                    "--find-max-connections",
                    "--connection-rate",
                    "20",
                    "--max-connections-start",
                    "4",
                    "--max-connections-step",
                    "4",
                    "--max-connections-limit",
                    "40",
                    "--max-p99-ms",
                    "100",
                    "--warmup",
                    "0.5",
                    "--duration",
                    "1.5");
            BenchResult.MaxConnections m = r.maxConnections();
            BenchResult.ConnectionStep last = m.steps().get(m.steps().size() - 1);
            assertNotNull(last.failed(), m.toString());
            assertTrue(last.connections() < 40, "stopped early: " + m.stopReason());
            assertNotNull(m.maxSustainedConnections(), m.toString());
            assertTrue(m.maxSustainedConnections() * 20 <= 260, "beyond the server's capacity: " + m);
        }
    }

    @Test
    void badLoadOptionsAreRefusedBeforeAnyLoad() throws Exception {
        try (LoadTestServer s = server(LoadTestServer.Listener.PLAIN, LoadTestServer.Behaviour.FAST)) {
            String[][] cases = {
                {"--rate", "0"},
                {"--ldaps", "--starttls", "--trust-all"},
                {"--ldaps"},
                {"--trust-all"},
                {"--ldaps", "--trust-store", dir.resolve("missing.pem").toString()},
                {"--find-max-connections"},
                {"--find-max-connections", "--connection-rate", "5", "--rate", "10"},
                {"--connection-rate", "5"},
                {"--outstanding", "-1"},
                {"--driver-threads", "2"},
                {"--ldaps", "--trust-store", ldif.toString()},
            };
            String[] expected = {
                "--rate",
                "exclude",
                "--trust-store FILE",
                "need --ldaps",
                "not found",
                "--connection-rate",
                "excludes",
                "needs --find-max-connections",
                "--outstanding",
                "--driver-threads needs",
                "cannot read trust store"
            };
            for (int i = 0; i < cases.length; i++) {
                CliRun run = refused(s, "bad", cases[i]);
                assertTrue(run.err().contains(expected[i]), String.join(" ", cases[i]) + ": " + run.err());
            }
            assertEquals(0, s.searches(), "nothing was sent");
        }
    }

    @Test
    void closedLoopRecordsItsModel() throws Exception {
        try (LoadTestServer s = server(LoadTestServer.Listener.PLAIN, LoadTestServer.Behaviour.FAST)) {
            BenchResult r = bench(s, "closed", "--duration", "1");
            assertEquals("closed", r.config().loadModel());
            assertNull(r.config().outstanding());
            assertNull(r.config().rate());
            assertNull(r.maxConnections());
            assertEquals(0, r.runs().get(0).pacing().lateStarts());
        }
    }
}
