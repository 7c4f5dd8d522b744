package dev.larch.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import dev.larch.bench.TestData;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.JsonReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness against OpenLDAP's slapd loaded with generated data: proves the data passes a
 * strict, schema-checking server and the harness needs nothing but LDAP. Without slapd it fails
 * under {@code ./larch test} and is skipped otherwise (see {@link RequiredTool}).
 */
class SlapdBenchIT {
    @TempDir
    static Path dir;

    static Path ldif;
    static Slapd slapd;

    @BeforeAll
    static void start() throws Exception {
        RequiredTool.check(Slapd.installed(), "slapd", "apt-get install -y slapd ldap-utils");
        ldif = TestData.ldif(dir.resolve("data.ldif"), 2_000);
        slapd = new Slapd(dir.resolve("slapd"), ldif);
    }

    @AfterAll
    static void stop() {
        if (slapd != null) {
            slapd.close();
        }
    }

    private static BenchResult bench(String mix, Path out) throws Exception {
        CliRun run = BenchArgs.of(mix, slapd.port(), ldif, out)
                .with("--bind-dn", "cn=admin,dc=example,dc=com", "--bind-password", "secret")
                .with("--clients", "2", "--threads", "2", "--warmup", "1", "--duration", "2")
                .with("--server-pid", Long.toString(slapd.pid()))
                .run();
        assertEquals(0, run.exitCode(), run.err());
        return JsonReport.read(out.resolve("result.json"));
    }

    @Test
    void addressingMixAgainstSlapdGetsRightAnswersOnly() throws Exception {
        BenchResult r = bench("addressing", dir.resolve("addressing"));
        BenchResult.Run run = r.runs().get(0);
        assertEquals(0, run.errors(), run.errorsByResultCode().toString());
        assertEquals(0, run.wrongAnswers());
        assertEquals(
                List.of("exact-name", "wildcard-name", "read-entry", "not-found", "expand-group"),
                run.operations().stream().map(BenchResult.Operation::name).toList());
        run.operations().forEach(op -> assertTrue(op.ops() > 0, op.name()));
        assertEquals(1.0, run.operations().get(4).entriesPerSearch(), 1e-9);
        assertTrue(run.cpu().serverCpuPercentOfOneCore() != null && run.cpu().serverRssMaxKb() > 0);
        assertEquals(slapd.pid(), r.server().pid());
        assertTrue(Files.readString(dir.resolve("addressing/report.html")).contains("<svg"));
    }

    @Test
    void messagingMixAgainstSlapdResolvesEveryMail() throws Exception {
        BenchResult.Run run =
                bench("messaging", dir.resolve("messaging")).runs().get(0);
        assertEquals(0, run.errors(), run.errorsByResultCode().toString());
        assertEquals(0, run.wrongAnswers());
        assertTrue(run.ops() > 100);
    }

    @Test
    void writeAndLoginMixesAgainstSlapdGetRightAnswersOnly() throws Exception {
        for (String mix : List.of("modify", "mixed", "authrate", "churn")) {
            BenchResult.Run run = bench(mix, dir.resolve(mix)).runs().get(0);
            assertEquals(0, run.errors(), mix + " " + run.errorsByResultCode());
            for (BenchResult.Operation op : run.operations()) {
                assertTrue(op.ops() > 0, mix + " " + op.name());
                assertEquals(0, op.wrongAnswers(), mix + " " + op.name() + ": " + op.wrongExamples());
            }
        }
    }
}
