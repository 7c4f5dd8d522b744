package dev.larch.bench.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.larch.bench.TestData;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.JsonReport;
import dev.larch.bench.report.Stats;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two load generators started together with --start-at against one in-memory server, merged with
 * bench merge and compared with bench compare. The merged percentiles are checked against the
 * union of both generators' histogram logs, read here with HdrHistogram's own reader.
 */
class SeveralGeneratorsIT {
    @TempDir
    static Path dir;

    static Path ldif;
    static InMemoryServer server;
    static double startAt;

    @BeforeAll
    static void runTwoGenerators() throws Exception {
        ldif = TestData.ldif(dir.resolve("data.ldif"), 500);
        server = new InMemoryServer(ldif);
        // a generous lead: the two processes' checks share two busy cores
        startAt = Math.ceil(System.currentTimeMillis() / 1000.0) + 8;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<CliRun> one = pool.submit(
                    () -> bench("messaging", dir.resolve("g1"), "1", "11", "--start-at", Double.toString(startAt)));
            Future<CliRun> two = pool.submit(
                    () -> bench("messaging", dir.resolve("g2"), "2", "22", "--start-at", Double.toString(startAt)));
            assertEquals(0, one.get().exitCode(), one.get().err());
            assertEquals(0, two.get().exitCode(), two.get().err());
        } finally {
            pool.shutdown();
        }
        CliRun other = bench("addressing", dir.resolve("addressing"), "1", "33");
        assertEquals(0, other.exitCode(), other.err());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static CliRun bench(String mix, Path out, String clients, String seed, String... extra) {
        return BenchArgs.of(mix, server.port(), ldif, out)
                .with("--clients", clients, "--threads", "1", "--warmup", "0.5", "--runs", "2", "--seed", seed)
                .with(extra)
                .run();
    }

    /** Every measured histogram tagged {@code suffix} in both generators' logs, added up independently. */
    private static Histogram union(String suffix, int... runs) throws Exception {
        Histogram union = new Histogram(3);
        for (String g : List.of("g1", "g2")) {
            try (HistogramLogReader reader = new HistogramLogReader(
                    new File(dir.resolve(g).resolve("histograms.hlog").toString()))) {
                for (EncodableHistogram e = reader.nextIntervalHistogram();
                        e != null;
                        e = reader.nextIntervalHistogram()) {
                    for (int run : runs) {
                        if (e.getTag().equals("run=" + run + ";phase=measure;" + suffix)) {
                            union.add((Histogram) e);
                        }
                    }
                }
            }
        }
        return union;
    }

    @Test
    void bothGeneratorsBeganAtTheCommonInstant() throws Exception {
        for (String g : List.of("g1", "g2")) {
            try (HistogramLogReader reader = new HistogramLogReader(
                    new File(dir.resolve(g).resolve("histograms.hlog").toString()))) {
                long firstStart = reader.nextIntervalHistogram().getStartTimeStamp();
                assertTrue(
                        firstStart >= startAt * 1000 - 50 && firstStart < startAt * 1000 + 1500,
                        g + " began at " + firstStart + ", --start-at " + startAt);
            }
        }
    }

    @Test
    void mergedThroughputIsTheSumAndPercentilesComeFromTheUnionOfHistograms() throws Exception {
        Path out = dir.resolve("merged");
        CliRun merge = CliRun.of(
                "bench",
                "merge",
                "--out",
                out.toString(),
                dir.resolve("g1").toString(),
                dir.resolve("g2").toString());
        assertEquals(0, merge.exitCode(), merge.err());
        BenchResult m = JsonReport.read(out.resolve("result.json"));
        BenchResult a = JsonReport.read(dir.resolve("g1/result.json"));
        BenchResult b = JsonReport.read(dir.resolve("g2/result.json"));
        for (int k = 0; k < 2; k++) {
            BenchResult.Run rm = m.runs().get(k);
            BenchResult.Run ra = a.runs().get(k);
            BenchResult.Run rb = b.runs().get(k);
            assertEquals(ra.ops() + rb.ops(), rm.ops());
            assertEquals(ra.opsPerSecond() + rb.opsPerSecond(), rm.opsPerSecond(), 1e-6);
            assertEquals(ra.errors() + rb.errors(), rm.errors());
            assertEquals(3, rm.clients());
            Histogram union = union("all", k + 1);
            assertEquals(union.getTotalCount(), rm.ops());
            assertEquals(Stats.latency(union), rm.latencyMs());
            assertEquals(
                    Stats.latency(union("op=recipient-by-mail", k + 1)),
                    rm.operations().get(0).latencyMs());
            assertEquals(ra.intervals().size(), rm.intervals().size());
        }
        assertEquals(Stats.latency(union("all", 1, 2)), m.summary().latencyMs(), "summary = union of both runs");
        assertEquals(
                (m.runs().get(0).opsPerSecond() + m.runs().get(1).opsPerSecond()) / 2,
                m.summary().opsPerSecond(),
                1e-6);
        assertEquals(2, m.config().generators().size());
        assertEquals(3, m.config().clients());
        assertTrue(Files.readString(out.resolve("report.html")).contains("<svg"));
        assertTrue(Files.readString(out.resolve("result.csv")).contains("\nsummary,"));

        // the merged directory is itself a generator's output: merging it again adds up
        Path again = dir.resolve("merged-again");
        CliRun twice = CliRun.of(
                "bench",
                "merge",
                "--out",
                again.toString(),
                out.toString(),
                dir.resolve("g1").toString());
        assertEquals(0, twice.exitCode(), twice.err());
        BenchResult t = JsonReport.read(again.resolve("result.json"));
        assertEquals(
                m.runs().get(0).ops() + a.runs().get(0).ops(), t.runs().get(0).ops());
    }

    @Test
    void mergeRefusesOtherWorkloadsNamingTheDifferenceUnlessForced() {
        Path out = dir.resolve("mismatch");
        CliRun refused = CliRun.of(
                "bench",
                "merge",
                "--out",
                out.toString(),
                dir.resolve("g1").toString(),
                dir.resolve("addressing").toString());
        assertEquals(3, refused.exitCode(), refused.err());
        assertTrue(refused.err().contains("mix: messaging"), refused.err());
        assertTrue(refused.err().contains("connection model"), refused.err());
        assertFalse(Files.exists(out.resolve("result.json")));

        CliRun forced = CliRun.of(
                "bench",
                "merge",
                "--force",
                "--out",
                out.toString(),
                dir.resolve("g1").toString(),
                dir.resolve("addressing").toString());
        assertEquals(0, forced.exitCode(), forced.err());
        assertTrue(Files.exists(out.resolve("result.json")));
    }

    @Test
    void mergeOfAMissingLogIsBadInput() throws Exception {
        Path broken = dir.resolve("no-log");
        Files.createDirectories(broken);
        Files.copy(dir.resolve("g1/result.json"), broken.resolve("result.json"));
        CliRun run = CliRun.of(
                "bench",
                "merge",
                "--out",
                dir.resolve("x").toString(),
                dir.resolve("g1").toString(),
                broken.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("histogram log not found"), run.err());
    }

    @Test
    void compareRefusesDifferentLoadsNamingEachDifferenceUnlessForced() throws Exception {
        Path html = dir.resolve("cmp.html");
        CliRun clients = CliRun.of(
                "bench",
                "compare",
                dir.resolve("g1").toString(),
                dir.resolve("g2").toString(),
                "--html",
                html.toString());
        assertEquals(3, clients.exitCode(), clients.err());
        assertTrue(clients.err().contains("clients x threads: 1x1 vs 2x1"), clients.err());
        assertFalse(Files.exists(html));

        CliRun mix = CliRun.of(
                "bench",
                "compare",
                dir.resolve("g1").toString(),
                dir.resolve("addressing").toString(),
                "--html",
                html.toString());
        assertEquals(3, mix.exitCode(), mix.err());
        assertTrue(mix.err().contains("mix: messaging") && mix.err().contains("connection model"), mix.err());

        CliRun forced = CliRun.of(
                "bench",
                "compare",
                "--force",
                dir.resolve("g1").toString(),
                dir.resolve("g2").toString(),
                "--html",
                html.toString());
        assertEquals(0, forced.exitCode(), forced.err());
        String page = Files.readString(html);
        assertTrue(page.contains("g1") && page.contains("g2") && page.contains("<svg"));
        assertTrue(page.contains("clients x threads: 1x1 vs 2x1"), "the forced difference is on the page");
    }

    @Test
    void aStartInThePastIsRefusedBeforeAnyLoad() {
        Path out = dir.resolve("late");
        CliRun late =
                bench("messaging", out, "1", "1", "--start-at", Long.toString(System.currentTimeMillis() / 1000 - 60));
        assertEquals(2, late.exitCode(), late.err());
        assertTrue(late.err().contains("in the past"), late.err());
        assertFalse(Files.exists(out.resolve("result.json")));
    }
}
