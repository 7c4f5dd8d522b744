package dev.larch.bench.cli;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.sun.net.httpserver.HttpServer;
import dev.larch.bench.TestData;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.HistogramLogContent;
import dev.larch.bench.report.HistogramLogFile;
import dev.larch.bench.report.JsonReport;
import dev.larch.bench.report.Stats;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Both built-in mixes, a ramp and a failing server, end to end against the in-memory server. */
class InMemoryBenchIT {
    @TempDir
    static Path dir;

    static Path ldif;
    static InMemoryServer server;

    @BeforeAll
    static void start() throws Exception {
        ldif = TestData.ldif(dir.resolve("data.ldif"), 2_000);
        server = new InMemoryServer(ldif);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static BenchResult bench(String mix, Path out, String... extra) throws Exception {
        CliRun run = BenchArgs.of(mix, server.port(), ldif, out)
                .with("--clients", "2", "--threads", "2", "--warmup", "1", "--duration", "2")
                .with("--server-pid", Long.toString(ProcessHandle.current().pid()))
                .with(extra)
                .run();
        assertEquals(0, run.exitCode(), run.err());
        return JsonReport.read(out.resolve("result.json"));
    }

    @Test
    void messagingMixResolvesEveryRecipientToExactlyOneEntry() throws Exception {
        Path out = dir.resolve("messaging");
        // a metrics endpoint in Larch's text format (heap only: Larch's endpoint has no GC series)
        HttpServer metrics = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        metrics.createContext("/metrics", exchange -> {
            byte[] body = ("# TYPE larch_jvm_heap_used_bytes gauge\nlarch_jvm_heap_used_bytes 4.6137344E7\n"
                            + "# TYPE larch_jvm_heap_max_bytes gauge\nlarch_jvm_heap_max_bytes 5.36870912E8\n")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream o = exchange.getResponseBody()) {
                o.write(body);
            }
        });
        metrics.start();
        BenchResult r;
        try {
            r = bench(
                    "messaging",
                    out,
                    "--bind-dn",
                    InMemoryServer.ADMIN_DN,
                    "--bind-password",
                    InMemoryServer.ADMIN_PASSWORD,
                    "--server-metrics-url",
                    "http://127.0.0.1:" + metrics.getAddress().getPort() + "/metrics");
        } finally {
            metrics.stop(0);
        }
        BenchResult.Run run = r.runs().get(0);
        assertTrue(run.ops() > 100, "ops " + run.ops());
        assertEquals(0, run.errors(), run.errorsByResultCode().toString());
        assertEquals(0, run.wrongAnswers());
        assertEquals(1, run.operations().size(), "the zero-share operation is not reported");
        assertEquals(1.0, run.operations().get(0).entriesPerSearch(), 1e-9);
        assertEquals("persistent", r.config().connectionModel());
        assertEquals(2_000, r.config().dataPeople());
        assertEquals(64, r.config().mixSha256().length());
        assertEquals(1L, r.config().seed());
        assertEquals(InMemoryServer.ADMIN_DN, r.server().bindDn());
        assertNotNull(r.server().vendorName());
        assertNotNull(r.harnessVersion());
        assertTrue(run.intervals().stream().anyMatch(i -> i.phase().equals("warm-up")));
        assertTrue(run.intervals().stream().anyMatch(i -> i.phase().equals("measure")));
        assertTrue(run.cpu().harnessCpuSeconds() > 0);
        assertNotNull(run.cpu().serverCpuPercentOfOneCore(), "server sampled through /proc");
        assertTrue(run.cpu().serverRssMaxKb() > 0);
        // the "server" is this JVM: its CPU is the in-memory server's and the harness's together
        assertTrue(r.summary().opsPerServerCpuSecond() > 0, "ops per server CPU-second");
        BenchResult.Resources res = run.resources();
        assertEquals(
                run.ops() / (res.server().userCpuSeconds() + res.server().systemCpuSeconds()),
                res.opsPerServerCpuSecond(),
                1e-6);
        assertTrue(res.server().voluntaryContextSwitches() > 0);
        assertNotNull(res.server().diskWriteBytes(), "own /proc/PID/io is readable");
        assertTrue(res.machine().contextSwitches() > 0);
        assertTrue(res.machine().netReceivedBytes() > 0, "LDAP over loopback counts");
        assertEquals(46_137_344L, res.serverJvm().heapUsedMaxBytes());
        assertEquals(536_870_912L, res.serverJvm().heapMaxBytes());
        assertTrue(
                res.notes().stream().anyMatch(n -> n.contains("gives no GC time")),
                res.notes().toString());
        assertTrue(Files.readString(out.resolve("result.csv"))
                .lines()
                .findFirst()
                .orElseThrow()
                .endsWith(",server_gc_s"));
        assertTrue(Files.readString(out.resolve("report.html")).contains("Operations per server CPU-second"));
        checkFiles(out);
    }

    @Test
    void addressingMixRunsAllFiveOperationsWithRightAnswers() throws Exception {
        Path out = dir.resolve("addressing");
        BenchResult r = bench("addressing", out);
        BenchResult.Run run = r.runs().get(0);
        assertEquals(
                List.of("exact-name", "wildcard-name", "read-entry", "not-found", "expand-group"),
                run.operations().stream().map(BenchResult.Operation::name).toList());
        assertEquals(0, run.errors(), run.errorsByResultCode().toString());
        assertEquals(0, run.wrongAnswers());
        for (BenchResult.Operation op : run.operations()) {
            assertTrue(op.ops() > 0, op.name());
            assertTrue(op.latencyMs().p99() >= op.latencyMs().p50(), op.name());
        }
        BenchResult.Operation group = run.operations().get(4);
        assertEquals(1.0, group.entriesPerSearch(), 1e-9);
        assertEquals(0.0, run.operations().get(3).entriesPerSearch(), 1e-9);
        assertTrue(run.operations().get(1).entriesPerSearch() >= 1);
        assertTrue(run.connections().ops() > 0, "per-lookup sessions open connections");
        assertTrue(r.config().connectionModel().startsWith("per-lookup"));
        checkFiles(out);

        CliRun compare = CliRun.of(
                "bench",
                "compare",
                out.resolve("result.json").toString(),
                out.resolve("result.json").toString(),
                "--html",
                out.resolve("compare.html").toString());
        assertEquals(0, compare.exitCode(), compare.err());
        assertTrue(Files.readString(out.resolve("compare.html")).contains("<svg"));
    }

    @Test
    void rampStepsClientsUpAndReportsPeakAndCapacity() throws Exception {
        Path out = dir.resolve("ramp");
        BenchResult r = bench(
                "messaging",
                out,
                "--warmup",
                "0",
                "--duration",
                "1",
                "--clients",
                "1",
                "--ramp",
                "--ramp-max-clients",
                "3");
        BenchResult.Ramp ramp = r.ramp();
        assertNotNull(ramp);
        assertFalse(ramp.steps().isEmpty());
        assertEquals(1, ramp.steps().get(0).clients());
        assertEquals(ramp.capacity().opsPerSecond(), ramp.recommendedCapacityOpsPerSecond(), 1e-9);
        assertTrue(ramp.recommendedCapacityOpsPerSecond() <= ramp.peakOpsPerSecond() / 2 + 1e-9);
        assertEquals(ramp.steps().size(), r.runs().size());
        assertTrue(Files.readString(out.resolve("report.html")).contains("Ramp: throughput by client count"));
    }

    @Test
    void rampOverAGridOfClientsAndThreadsThenRunsAtThePeak() throws Exception {
        Path out = dir.resolve("ramp-grid");
        BenchResult r = bench(
                "messaging",
                out,
                "--warmup",
                "0",
                "--duration",
                "1",
                "--ramp",
                "--ramp-clients",
                "1,2",
                "--ramp-threads",
                "1,2",
                "--max-harness-cpu",
                "100", // harness and server share this JVM: its CPU is not the generator's alone
                "--ramp-p99-ms",
                "10000", // a busy shared machine must not end the ramp early
                "--then-runs",
                "2");
        BenchResult.Ramp ramp = r.ramp();
        List<String> loads =
                ramp.steps().stream().map(s -> s.clients() + "x" + s.threads()).toList();
        // lightest first; on two shared cores throughput may stop rising before the last step
        assertEquals(List.of("1x1", "1x2", "2x1", "2x2").subList(0, loads.size()), loads, ramp.stopReason());
        assertTrue(loads.size() == 4 || ramp.stopKind().equals("no-gain"), ramp.stopReason());
        int steps = loads.size();
        assertEquals(steps + 2, r.runs().size(), "the steps, then 2 runs");
        BenchResult.Run last = r.runs().get(steps + 1);
        assertEquals(ramp.peakClients(), last.clients());
        assertEquals(ramp.peakThreads(), last.threads());
        assertEquals(
                (r.runs().get(steps).opsPerSecond() + last.opsPerSecond()) / 2,
                r.summary().opsPerSecond(),
                1e-6);
        assertTrue(
                r.summary().basis().contains("then 2 runs: mean of runs " + (steps + 1) + " and " + (steps + 2)),
                r.summary().basis());
        assertNotNull(ramp.capacity().halfServerCpuOpsPerSecond(), "--server-pid gives the CPU rule");
    }

    @Test
    void serverThatDiesMidRunIsReportedByResultCode(@TempDir Path tmp) throws Exception {
        Path data = TestData.ldif(tmp.resolve("d.ldif"), 200);
        try (InMemoryServer dying = new InMemoryServer(data)) {
            CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of(
                    "bench",
                    "--mix",
                    "messaging",
                    "--port",
                    Integer.toString(dying.port()),
                    "--threads",
                    "2",
                    "--warmup",
                    "0",
                    "--duration",
                    "2",
                    "--runs",
                    "1",
                    "--response-timeout",
                    "2",
                    "--data",
                    data.toString(),
                    "--out",
                    tmp.resolve("out").toString()));
            // die mid-run: once the bench is answered, well before its two seconds are up
            await().until(() -> dying.searchesAnswered() >= 20);
            dying.server.shutDown(true);
            CliRun done = run.get();
            assertEquals(0, done.exitCode(), done.err());
            BenchResult.Run r =
                    JsonReport.read(tmp.resolve("out/result.json")).runs().get(0);
            assertTrue(r.ops() > 0);
            assertTrue(r.errors() > 0);
            assertTrue(
                    r.errorsByResultCode().keySet().stream().anyMatch(k -> k.startsWith("91 ") || k.startsWith("81 ")),
                    r.errorsByResultCode().toString());
        }
    }

    private static void checkFiles(Path out) throws Exception {
        String csv = Files.readString(out.resolve("result.csv"));
        assertTrue(csv.startsWith("run,clients,threads,operation,"));
        assertTrue(csv.contains("\nsummary,"));
        assertTrue(Files.readString(out.resolve("intervals.csv")).contains(",warm-up,"));
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(
                html.contains("<svg") && html.contains("Throughput over time") && html.contains("Latency percentiles"));
        assertFalse(html.contains("<script")
                || (html.contains("http://")
                        && html.replace("http://www.w3.org/2000/svg", "").contains("http://")));
        BenchResult r = JsonReport.read(out.resolve("result.json"));
        HistogramLogContent log = HistogramLogContent.read(out.resolve(HistogramLogFile.NAME));
        for (BenchResult.Run run : r.runs()) {
            assertEquals(run.ops(), log.measured(run.run()).all().getTotalCount(), "hlog holds every measured success");
            assertEquals(run.latencyMs(), Stats.latency(log.measured(run.run()).all()));
            assertEquals(
                    run.intervals().size(),
                    log.intervals(run.run(), "warm-up").size()
                            + log.intervals(run.run(), "measure").size());
        }
        assertEquals(1, r.config().generators().size());
        String json = Files.readString(out.resolve("result.json"));
        assertTrue(json.contains("\"mixSha256\"") && json.contains("\"vendorName\""));
    }
}
