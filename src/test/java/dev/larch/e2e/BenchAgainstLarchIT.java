package dev.larch.e2e;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.larch.bench.cli.BenchMain;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.JsonReport;
import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.LarchServer;
import dev.larch.server.StoredDirectory;
import dev.larch.server.ldif.LdifImporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The DirectoryMark harness against a real Larch server loaded with generated data: both
 * built-in mixes run without errors or wrong answers and write their JSON, CSV and HTML reports.
 */
class BenchAgainstLarchIT {
    @TempDir
    static Path dir;

    static Path data;
    static LarchServer server;

    @BeforeAll
    static void start() throws Exception {
        data = dir.resolve("data.ldif");
        assertEquals(0, run("gen", "--entries", "2000", "--seed", "7", "--out", data.toString()));
        // No self-warm-up (server.warm-up-seconds): it would drive this JVM's JIT for up to 30 s
        // before the port opens, and what is checked here is the bench harness, not a warm server.
        LarchConfig config = LarchConfig.builder()
                .set("server.warm-up-seconds", 0)
                .build()
                .withDataDir(dir.resolve("var"))
                .withPort(0);
        try (StoredDirectory open = StoredDirectory.open(config, LarchSchema.standard(), false)) {
            new LdifImporter(open, 1000).importFile(data, n -> {});
        }
        server = LarchServer.start(config, Map.of("LARCH_ADMIN_PASSWORD", "secret"));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static int run(String... args) {
        CommandLine cmd = BenchMain.commandLine();
        StringWriter err = new StringWriter();
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        if (code != 0) {
            System.err.println(err);
        }
        return code;
    }

    private static BenchResult bench(String mix, Path out) {
        int code = run(
                "bench",
                "--mix",
                mix,
                "--host",
                "127.0.0.1",
                "--port",
                Integer.toString(server.address().getPort()),
                "--clients",
                "2",
                "--threads",
                "2",
                "--warmup",
                "1",
                "--duration",
                "3",
                "--runs",
                "1",
                "--interval",
                "1",
                "--data",
                data.toString(),
                "--server-pid",
                Long.toString(ProcessHandle.current().pid()),
                "--out",
                out.toString());
        assertEquals(0, code);
        return JsonReport.read(out.resolve("result.json"));
    }

    @Test
    void messagingMixResolvesEveryRecipientAgainstLarch() throws Exception {
        Path out = dir.resolve("messaging");
        BenchResult.Run run = bench("messaging", out).runs().get(0);
        assertTrue(run.ops() > 100, "ops " + run.ops());
        assertEquals(0, run.errors(), run.errorsByResultCode().toString());
        assertEquals(0, run.wrongAnswers());
        assertEquals(1.0, run.operations().get(0).entriesPerSearch(), 1e-9);
        checkFiles(out, "Larch");
    }

    @Test
    void addressingMixRunsAllFiveOperationsAgainstLarch() throws Exception {
        Path out = dir.resolve("addressing");
        BenchResult.Run run = bench("addressing", out).runs().get(0);
        assertEquals(
                List.of("exact-name", "wildcard-name", "read-entry", "not-found", "expand-group"),
                run.operations().stream().map(BenchResult.Operation::name).toList());
        assertEquals(0, run.errors(), run.errorsByResultCode().toString());
        assertEquals(0, run.wrongAnswers());
        for (BenchResult.Operation op : run.operations()) {
            assertTrue(op.ops() > 0, op.name());
        }
        assertEquals(0.0, run.operations().get(3).entriesPerSearch(), 1e-9);
        assertEquals(1.0, run.operations().get(4).entriesPerSearch(), 1e-9);
        checkFiles(out, "Larch");
    }

    private static void checkFiles(Path out, String vendor) throws Exception {
        assertTrue(Files.readString(out.resolve("result.csv")).startsWith("run,clients,threads,operation,"));
        assertTrue(Files.readString(out.resolve("intervals.csv")).contains(",warm-up,"));
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<svg") && html.contains("Throughput over time"));
        assertFalse(html.contains("<script"));
        String json = Files.readString(out.resolve("result.json"));
        assertTrue(
                json.contains("\"vendorName\" : \"" + vendor + "\"")
                        || json.contains("\"vendorName\":\"" + vendor + "\""),
                "vendor recorded from the root DSE");
    }
}
