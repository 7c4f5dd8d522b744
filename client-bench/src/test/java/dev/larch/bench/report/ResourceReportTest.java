package dev.larch.bench.report;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The resource and ramp figures in result.csv, result.json and report.html. */
class ResourceReportTest {
    private static final BenchResult.Resources RESOURCES = new BenchResult.Resources(
            5000.0,
            new BenchResult.ProcessUse(1.5, 0.5, 50, 1200L, 30L, null, 4096L, 1_048_576L, 2_097_152L),
            new BenchResult.MachineUse(2, 3, 1, 0.25, 80, 90_000, 0L, 8192L, 1_048_576L, 2_097_152L),
            new BenchResult.JvmUse("http://127.0.0.1:9090/metrics", 40L << 20, 50L << 20, 512L << 20, null),
            List.of("/proc/42/io unreadable: permission denied <as you were>"));

    private static BenchResult.Run withResources(BenchResult.Run r, BenchResult.Resources res) {
        return new BenchResult.Run(
                r.run(),
                r.clients(),
                r.threads(),
                r.measuredSeconds(),
                r.ops(),
                r.opsPerSecond(),
                r.latencyMs(),
                r.partial(),
                r.wrongAnswers(),
                r.errors(),
                r.errorsByResultCode(),
                r.operations(),
                r.connections(),
                r.intervals(),
                r.cpu(),
                r.histograms(),
                res,
                r.pacing());
    }

    private static BenchResult.RampStep step(int clients, int threads, double ops) {
        return new BenchResult.RampStep(
                clients, threads, ops, 2, 10, 2, 3.5, 0, 0, 5000.0, 40.0, List.of(clients * 10 + threads));
    }

    private static BenchResult result() {
        return Results.result(
                List.of(
                        withResources(Results.run(1, 100, 50), RESOURCES),
                        withResources(Results.run(2, 120, 60), RESOURCES)),
                new BenchResult.Ramp(
                        List.of(step(1, 2, 100), step(1, 4, 150), step(2, 2, 160)),
                        100,
                        "all 3 steps ran",
                        160,
                        2,
                        2,
                        80,
                        "last-step",
                        true,
                        new BenchResult.Capacity(80, "50% of peak, below the 5000.0 ops/s ...", 80, 5000.0),
                        0,
                        new BenchResult.RampBounds(2, 100, 2, 0.1, 0, 80)));
    }

    @Test
    void summaryOpsPerServerCpuSecondIsTheMeanOfTheRunsAndUnknownIfOneLacksIt() {
        BenchResult r = result();
        assertEquals(5000.0, r.summary().opsPerServerCpuSecond(), 1e-9);
        assertNull(Stats.summarize(List.of(withResources(Results.run(1, 100), RESOURCES), Results.run(2, 100)))
                .opsPerServerCpuSecond());
    }

    @Test
    void csvPutsTheResourcesOnEachRunsAllRow() {
        List<String> lines = CsvReport.results(result()).lines().toList();
        assertTrue(lines.get(0)
                .endsWith(",ops_per_server_cpu_s,server_user_cpu_s,server_system_cpu_s,"
                        + "server_voluntary_cs,server_involuntary_cs,server_disk_read_bytes,server_disk_write_bytes,"
                        + "server_net_rx_bytes,server_net_tx_bytes,machine_user_cpu_s,machine_system_cpu_s,machine_iowait_s,"
                        + "machine_cs,machine_disk_read_bytes,machine_disk_write_bytes,machine_net_rx_bytes,"
                        + "machine_net_tx_bytes,server_heap_used_max_bytes,server_gc_s"));
        String all = lines.stream()
                .filter(l -> l.startsWith("1,2,4,ALL,"))
                .findFirst()
                .orElseThrow();
        assertTrue(
                all.endsWith(",5000.000,1.500,0.500,1200,30,,4096,1048576,2097152,3.000,1.000,0.250,90000,0,8192,"
                        + "1048576,2097152,52428800,"),
                all);
        String summary = lines.get(lines.size() - 1);
        assertTrue(summary.startsWith("summary,") && summary.contains(",5000.000,"), summary);
        int columns = lines.get(0).split(",", -1).length;
        lines.forEach(l -> assertEquals(columns, l.split(",", -1).length, l));
    }

    @Test
    void jsonCarriesTheResourcesAndReadsBack() {
        String json = JsonReport.toJson(result());
        assertTrue(json.contains("\"opsPerServerCpuSecond\" : 5000.0"), json);
        assertTrue(json.contains("\"voluntaryContextSwitches\" : 1200"));
        assertFalse(json.contains("\"diskReadBytes\" : null"), "unknown figures are left out");
        assertTrue(json.contains("\"maxHarnessCpuPercentOfMachine\" : 80.0"), json);
    }

    @Test
    void htmlShowsResourcesCapacityRuleAndAGridRampByThreadsInAll() {
        String html = HtmlReport.render(result());
        assertTrue(html.contains("Operations per server CPU-second: <b>5000.0</b>"));
        assertTrue(html.contains("<td class='l'>server process</td><td>1.50</td><td>0.50</td>"), html);
        assertTrue(html.contains("1200 voluntary, 30 involuntary"));
        assertTrue(html.contains("<td>unknown</td>"), "the unreadable disk figure");
        assertTrue(html.contains("permission denied &lt;as you were&gt;"));
        assertTrue(html.contains("Server JVM (metrics endpoint 127.0.0.1:9090/metrics)"));
        assertFalse(html.contains("http://127.0.0.1"), "no network references, even as text");
        assertTrue(html.contains("Capacity rule: 50% of peak, below"));
        assertTrue(html.contains("Generator-bound"));
        assertTrue(html.contains("Ramp: throughput by clients x threads"));
        assertTrue(html.contains("<td>3.5</td>"), "the steps table shows the spread");
    }
}
