package dev.larch.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.bench.TestData;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.JsonReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The write and bind operation types and the modify, mixed, authrate and churn mixes, end to end. */
class WriteAndBindMixesIT {
    @TempDir
    static Path dir;

    static Path ldif;
    static InMemoryServer server;

    @BeforeAll
    static void start() throws Exception {
        ldif = TestData.ldif(dir.resolve("data.ldif"), 500);
        server = new InMemoryServer(ldif);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static CliRun run(String mix, String name, boolean admin) {
        BenchArgs args =
                BenchArgs.of(mix, server.port(), ldif, dir.resolve(name)).with("--clients", "2", "--threads", "2");
        if (admin) {
            args.with("--bind-dn", InMemoryServer.ADMIN_DN, "--bind-password", InMemoryServer.ADMIN_PASSWORD);
        }
        return args.run();
    }

    /** Runs a mix and checks every operation ran with right answers only. */
    private static BenchResult.Run bench(String mix, String name) throws Exception {
        CliRun run = run(mix, name, true);
        assertEquals(0, run.exitCode(), run.err());
        BenchResult.Run r =
                JsonReport.read(dir.resolve(name).resolve("result.json")).runs().get(0);
        assertEquals(0, r.errors(), r.errorsByResultCode().toString());
        for (BenchResult.Operation op : r.operations()) {
            assertTrue(op.ops() > 0, op.name());
            assertEquals(0, op.wrongAnswers(), op.name() + ": " + op.wrongExamples());
        }
        return r;
    }

    private static String mix(String operations) throws Exception {
        Path f = Files.createTempFile(dir, "mix", ".json");
        Files.writeString(f, "{\"name\":\"t\",\"operations\":[" + operations + "]}");
        return f.toString();
    }

    @Test
    void modifyMixReplacesDescriptionsOfRealPeople() throws Exception {
        bench("modify", "modify");
        assertTrue(server.server
                        .search("dc=example,dc=com", SearchScope.SUB, "(description=changed by larch client-bench *)")
                        .getEntryCount()
                > 0);
    }

    @Test
    void mixedMixRunsLookupsAndModifies() throws Exception {
        BenchResult.Run r = bench("mixed", "mixed");
        assertEquals(
                List.of("recipient-by-mail", "modify-description"),
                r.operations().stream().map(BenchResult.Operation::name).toList());
        assertTrue(r.operations().get(0).ops() > r.operations().get(1).ops(), "80% against 20%");
    }

    @Test
    void authrateBindsAsPeopleAndReadsTheirEntries() throws Exception {
        bench("authrate", "authrate");
        bench(
                mix("{\"name\":\"login\",\"type\":\"authenticate\",\"share\":50,\"attributes\":[\"cn\",\"mail\"]},"
                        + "{\"name\":\"wrong-password\",\"type\":\"bind\",\"share\":25,\"password\":\"${uid}-wrong\","
                        + "\"expect\":\"invalidCredentials\"},"
                        + "{\"name\":\"bind\",\"type\":\"bind\",\"share\":25}"),
                "binds");
    }

    @Test
    void aBindRefusedWithTheDataFilesPasswordIsAWrongAnswer() throws Exception {
        String mix = mix("{\"name\":\"bind\",\"type\":\"bind\",\"share\":100,\"password\":\"not-${uid}\"}");
        CliRun run = run(mix, "bad-password", true);
        assertEquals(0, run.exitCode(), run.err());
        BenchResult.Operation op = JsonReport.read(dir.resolve("bad-password/result.json"))
                .runs()
                .get(0)
                .operations()
                .get(0);
        assertEquals(0, op.ops());
        assertTrue(op.wrongAnswers() > 0);
        assertTrue(op.wrongExamples().get(0).contains("invalid credentials where success was expected"));
    }

    @Test
    void churnConnectsBindsReadsAndUnbindsPerOperation() throws Exception {
        BenchResult.Run r = bench("churn", "churn");
        assertEquals(1.0, r.operations().get(0).entriesPerSearch(), 1e-9);
        assertEquals(4, r.connections().ops(), "the workers' own connections open once each");
    }

    @Test
    void addsDeletesAndRenamesKeepTheEntryCountSteadyAndNeverCollide() throws Exception {
        int before = server.server.countEntries();
        bench(
                mix("{\"name\":\"add\",\"type\":\"add\",\"share\":30},"
                        + "{\"name\":\"delete\",\"type\":\"delete\",\"share\":30},"
                        + "{\"name\":\"rename\",\"type\":\"modrdn\",\"share\":20},"
                        + "{\"name\":\"compare-mail\",\"type\":\"compare\",\"share\":10},"
                        + "{\"name\":\"compare-absent\",\"type\":\"compare\",\"share\":10,"
                        + "\"value\":\"${absentMail}\",\"expect\":\"false\"}"),
                "churn-entries");
        assertEquals(before, server.server.countEntries(), "what the run added it deleted");
    }
}
