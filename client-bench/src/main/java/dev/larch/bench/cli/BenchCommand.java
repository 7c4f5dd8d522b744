package dev.larch.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.larch.bench.data.DataSample;
import dev.larch.bench.data.LdifSampler;
import dev.larch.bench.mix.Mix;
import dev.larch.bench.mix.MixLoader;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.CsvReport;
import dev.larch.bench.report.HistogramLogFile;
import dev.larch.bench.report.HtmlReport;
import dev.larch.bench.report.JsonReport;
import dev.larch.bench.resource.JvmGauges;
import dev.larch.bench.run.BenchSession;
import dev.larch.bench.run.ConnectionSweep;
import dev.larch.bench.run.RunSettings;
import dev.larch.bench.run.ServerProbe;
import dev.larch.bench.run.ServerProcess;
import dev.larch.bench.run.ServerTarget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./larch bench}: checks every input, then replays a mix and writes the reports.
 *
 * <p>All checks (mix, data, output directory, server reachability and bind) happen before any
 * load, each failing with one message and exit code 2. Options are validated here rather than
 * marked required, so {@code bench compare} does not need them.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        subcommands = {CompareCommand.class, MergeCommand.class},
        description = "Replay a DirectoryMark mix (messaging, addressing or a mix file) against an LDAP server.")
final class BenchCommand implements Callable<Integer> {
    @Option(
            names = "--mix",
            description = "messaging, addressing, modify, mixed, authrate, churn, or a mix file (JSON).")
    String mix;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Server host (default ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", description = "Server port.")
    Integer port;

    @Option(names = "--bind-dn", description = "DN to bind as (default: anonymous).")
    String bindDn;

    @Option(names = "--bind-password", description = "Password for --bind-dn.")
    String bindPassword;

    @Option(names = "--clients", defaultValue = "1", description = "Clients (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--threads", defaultValue = "1", description = "Threads per client (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(
            names = "--warmup",
            defaultValue = "10",
            description = "Warm-up seconds, printed but never counted (default ${DEFAULT-VALUE}).")
    double warmup;

    @Option(
            names = "--duration",
            defaultValue = "30",
            description = "Measured seconds per run (default ${DEFAULT-VALUE}).")
    double duration;

    @Option(
            names = "--interval",
            defaultValue = "1",
            description = "Seconds per printed interval, e.g. 1 or 5 (default ${DEFAULT-VALUE}).")
    double interval;

    @Option(
            names = "--runs",
            defaultValue = "3",
            description = "Measured runs; the summary is the mean of the last two (default ${DEFAULT-VALUE}).")
    int runs;

    @Mixin
    RampOptions rampOptions = new RampOptions();

    @Mixin
    ResourceOptions resourceOptions = new ResourceOptions();

    @Option(names = "--data", description = "The LDIF the server was loaded with; request values are sampled from it.")
    Path data;

    @Option(names = "--out", description = "Directory for result.json, result.csv, intervals.csv and report.html.")
    Path out;

    @Option(names = "--server-pid", description = "Server process id (same machine) to sample CPU and memory.")
    Long serverPid;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of the request scripts and sampling (default ${DEFAULT-VALUE}).")
    long seed;

    @Mixin
    KeyOptions keyOptions = new KeyOptions();

    @Option(
            names = "--response-timeout",
            defaultValue = "30",
            description = "Seconds before a request counts as a timeout (default ${DEFAULT-VALUE}).")
    double responseTimeout;

    @Mixin
    StartAtOptions startAt = new StartAtOptions();

    @Mixin
    LoadOptions load;

    @Override
    public Integer call() throws IOException {
        checkOptions();
        double keySkew = keyOptions.keySkew();
        BenchSession.Plan plan = rampOptions.plan(clients, threads, runs);
        boolean ramp = plan.ramp();
        load.check(ramp);
        Mix loaded = new MixLoader().load(mix);
        System.err.printf(
                Locale.ROOT,
                "bench: mix %s (%s), sampling %s ...%n",
                loaded.name(),
                loaded.connection().label(),
                data);
        DataSample sample = new LdifSampler().sample(data).withKeySkew(keySkew, seed);
        MixFit.check(loaded, sample, bindDn);
        Files.createDirectories(out);
        ServerProcess server = serverPid == null ? null : ServerProcess.of(serverPid);
        JvmGauges jvm = resourceOptions.open(); // closed at the end; a failed run ends the process anyway
        ServerTarget target =
                new ServerTarget(host, port, bindDn, bindPassword, (long) (responseTimeout * 1000), load.tls());
        if (load.trustAll) {
            System.err.println("bench: WARNING: --trust-all accepts any server certificate; TLS is not authenticated");
        }
        ServerProbe.Software software = ServerProbe.check(target);
        System.err.printf(
                Locale.ROOT,
                "bench: %s %s at %s; data %d people, %d groups, drawn %s%n",
                software.vendorName(),
                software.vendorVersion(),
                target.address(),
                sample.people(),
                sample.groups(),
                sample.keySkew() == 0 ? "uniformly" : "Zipf-skewed, --key-skew " + sample.keySkew());

        startAt.awaitStart(System.err);
        String startedAt = Instant.now().toString();
        RunSettings settings =
                new RunSettings(loaded, sample, target, seed, warmup, duration, interval, server, jvm, load.model());
        System.err.printf(
                Locale.ROOT,
                "bench: load %s, tls %s%n",
                load.describe(),
                target.tls().label());
        BenchSession.Outcome outcome;
        BenchResult.MaxConnections maxConnections = null;
        if (load.findMaxConnections) {
            ConnectionSweep.Outcome swept =
                    new ConnectionSweep(settings, System.out::println).execute(load.sweepPlan());
            outcome = new BenchSession.Outcome(swept.runs(), swept.summary(), null);
            maxConnections = swept.maxConnections();
        } else {
            try (HistogramLogFile hlog = HistogramLogFile.create(out.resolve(HistogramLogFile.NAME))) {
                outcome = new BenchSession(settings, System.out::println)
                        .histogramsTo(hlog)
                        .execute(plan);
            }
        }

        Map<String, Double> shares = new LinkedHashMap<>();
        loaded.operations().forEach(o -> shares.put(o.name(), o.share()));
        BenchResult result = new BenchResult(
                "larch client-bench",
                HarnessVersion.get(),
                startedAt,
                new BenchResult.Config(
                        loaded.name(),
                        loaded.source(),
                        loaded.sha256(),
                        loaded.connection().label(),
                        shares,
                        seed,
                        data.toString(),
                        sample.entries(),
                        sample.people(),
                        sample.groups(),
                        clients,
                        threads,
                        warmup,
                        duration,
                        interval,
                        ramp || load.findMaxConnections ? outcome.runs().size() : runs,
                        ramp,
                        List.of(new BenchResult.Generator(
                                LocalHost.name(), out.toAbsolutePath().toString(), clients, threads, startedAt)),
                        sample.keySkew(),
                        load.modelName(),
                        load.rateOrNull(),
                        load.outstandingOrNull(),
                        load.driverThreadsOrNull(),
                        target.tls().label(),
                        load.connectionRateOrNull()),
                new BenchResult.Server(host, port, software.vendorName(), software.vendorVersion(), bindDn, serverPid),
                notes(load.note(), !load.findMaxConnections),
                outcome.runs(),
                outcome.summary(),
                outcome.ramp(),
                maxConnections);
        JsonReport.write(result, out.resolve("result.json"));
        CsvReport.write(result, out);
        HtmlReport.write(result, out.resolve("report.html"));
        BenchResult.Summary s = result.summary();
        System.out.printf(
                Locale.ROOT,
                "summary (%s): %.1f ops/s, p50 %.3f ms, p99 %.3f ms, spread %.1f%%, wrong %d, errors %d%n",
                s.basis(),
                s.opsPerSecond(),
                s.latencyMs().p50(),
                s.latencyMs().p99(),
                s.spreadPercent(),
                s.wrongAnswers(),
                s.errors());
        for (BenchResult.OperationSummary op : s.operations()) {
            System.out.printf(
                    Locale.ROOT,
                    "  %-20s %10.1f ops/s  mean %8.3f  p50 %8.3f  p90 %8.3f  p99 %8.3f  p99.9 %8.3f ms%n",
                    op.name(),
                    op.opsPerSecond(),
                    op.latencyMs().mean(),
                    op.latencyMs().p50(),
                    op.latencyMs().p90(),
                    op.latencyMs().p99(),
                    op.latencyMs().p999());
        }
        WrongExamples.print(result, System.out);
        System.out.println("results: " + out.resolve("result.json") + ", result.csv, intervals.csv, report.html"
                + (load.findMaxConnections ? "" : ", " + HistogramLogFile.NAME));
        if (jvm != null) {
            jvm.close();
        }
        return 0;
    }

    private void checkOptions() {
        if (mix == null) {
            throw new BadInputException("--mix is required (messaging, addressing or a mix file)");
        }
        if (port == null || port < 1 || port > 65535) {
            throw new BadInputException("--port is required and must be between 1 and 65535");
        }
        if (data == null) {
            throw new BadInputException("--data is required: the LDIF the server was loaded with");
        }
        if (out == null) {
            throw new BadInputException("--out is required: a directory for the results");
        }
        if ((bindDn == null) != (bindPassword == null)) {
            throw new BadInputException("--bind-dn and --bind-password go together");
        }
        if (clients < 1 || threads < 1 || runs < 1) {
            throw new BadInputException("--clients, --threads and --runs must be at least 1");
        }
        if (warmup < 0 || duration <= 0 || interval <= 0 || responseTimeout <= 0) {
            throw new BadInputException("--warmup must be >= 0; --duration, --interval and --response-timeout > 0");
        }
        if (!Files.isRegularFile(data)) {
            throw new BadInputException("data file not found: " + data);
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new BadInputException("--out must be a directory: " + out);
        }
        startAt.check();
    }

    /** @param histogramLog whether this run wrote histograms.hlog (a connection sweep does not) */
    private static List<String> notes(String loadNote, boolean histogramLog) {
        List<String> notes = new ArrayList<>(List.of(
                loadNote,
                "ops/s and latency count successful requests only; wrong answers (checked against the data file: "
                        + "the wrong entry count, another entry than the one asked for, a requested attribute missing, "
                        + "a wildcard hit not matching its prefix, a group not listing all its members, noSuchObject "
                        + "for a base the data holds, an unexpected compare or bind result) and errors are counted "
                        + "apart; each operation lists its first wrong answers in wrongExamples.",
                "sizeLimitExceeded counts as a partial success (in ops/s, latency and the 'partial' column) when the "
                        + "entries returned satisfy the expected shape; for an exact or not-found lookup it is a wrong answer.",
                "connect+bind is connection setup, reported on its own and not included in ops/s.",
                "Clients are groups of threads in one load-generator JVM; each thread (each connection under "
                        + "--outstanding) runs its own script, seeded from (seed, run, client, thread), so every run "
                        + "sends different requests.",
                "Summary latency percentiles come from the summarised runs' histograms added together (the p99 of "
                        + "all their requests, not a mean of per-run p99s); summary ops/s is the mean of the runs' ops/s "
                        + "and the spread is that of their ops/s.",
                "Warm-up intervals are printed and kept in intervals.csv but never counted in totals."));
        if (histogramLog) {
            notes.add("histograms.hlog holds every interval's latency histograms (HdrHistogram log, ns, absolute epoch "
                    + "timestamps; tags run=R;phase=warm-up|measure;all|connect|op=NAME); bench merge combines "
                    + "several load generators' logs.");
        }
        return notes;
    }
}
