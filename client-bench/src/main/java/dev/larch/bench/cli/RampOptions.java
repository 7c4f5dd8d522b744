package dev.larch.bench.cli;

import java.util.List;

import dev.larch.bench.run.BenchSession;
import dev.larch.bench.run.RampLoads;
import dev.larch.bench.run.RampPolicy;
import picocli.CommandLine.Option;

/**
 * The ramp's options ({@code --ramp} and its bounds) and {@code --then-runs}, a picocli mixin of
 * {@code bench}. {@link #plan} checks them and turns them into a {@link BenchSession.Plan}.
 */
final class RampOptions {
    static final int DEFAULT_MAX_CLIENTS = 64;

    @Option(
            names = "--ramp",
            description =
                    "Step the load up (clients, or clients x threads) until a bound is passed or throughput stops rising.")
    boolean ramp;

    @Option(names = "--ramp-step", description = "Clients added per ramp step (default: --clients).")
    Integer rampStep;

    @Option(
            names = "--ramp-max-clients",
            description = "Largest client count a ramp by --ramp-step tries (default " + DEFAULT_MAX_CLIENTS + ").")
    Integer rampMaxClients;

    @Option(
            names = "--ramp-clients",
            split = ",",
            paramLabel = "N[,N...]",
            description = "Client counts to try, e.g. 1,2,4,8 (instead of --clients/--ramp-step/--ramp-max-clients).")
    List<Integer> rampClients;

    @Option(
            names = "--ramp-threads",
            split = ",",
            paramLabel = "N[,N...]",
            description = "Threads per client to try, e.g. 2,4 (default: --threads); the steps are every pair, "
                    + "lightest first.")
    List<Integer> rampThreads;

    @Option(
            names = "--ramp-repeats",
            defaultValue = "1",
            description = "Runs per ramp step; a step's figures are their mean (default ${DEFAULT-VALUE}).")
    int repeats;

    @Option(
            names = "--ramp-p99-ms",
            defaultValue = "100",
            description = "p99 bound in ms that ends a ramp (default ${DEFAULT-VALUE}).")
    double p99Ms;

    @Option(
            names = "--ramp-min-gain",
            defaultValue = "2",
            description = "Percent a ramp step must beat the best lighter step by (default ${DEFAULT-VALUE}).")
    double minGain;

    @Option(
            names = "--ramp-max-errors",
            defaultValue = "0.1",
            paramLabel = "PCT",
            description = "Errors, in percent of requests, that end a ramp (default ${DEFAULT-VALUE}).")
    double maxErrorPercent;

    @Option(
            names = "--ramp-max-wrong",
            defaultValue = "0",
            paramLabel = "N",
            description =
                    "Wrong answers a ramp step may have; more end the ramp (default ${DEFAULT-VALUE}: any ends it).")
    long maxWrong;

    @Option(
            names = "--max-harness-cpu",
            defaultValue = "80",
            paramLabel = "PCT",
            description = "The harness's own CPU, in percent of the machine, that ends a ramp as generator-bound "
                    + "(default ${DEFAULT-VALUE}).")
    double maxHarnessCpu;

    @Option(
            names = "--then-runs",
            defaultValue = "0",
            paramLabel = "N",
            description =
                    "After a ramp, N runs at the peak; the summary is the mean of the last two (default ${DEFAULT-VALUE}).")
    int thenRuns;

    /**
     * The plan of this invocation.
     *
     * @throws BadInputException naming the option that is wrong
     */
    BenchSession.Plan plan(int clients, int threads, int runs) {
        if (!ramp) {
            if (rampStep != null || rampMaxClients != null || rampClients != null || rampThreads != null) {
                throw new BadInputException(
                        "--ramp-step, --ramp-max-clients, --ramp-clients and --ramp-threads need --ramp");
            }
            if (repeats != 1 || thenRuns != 0) {
                throw new BadInputException("--ramp-repeats and --then-runs need --ramp");
            }
            return new BenchSession.Plan(clients, threads, runs, false, List.of(), 1, 0, policy());
        }
        if (repeats < 1) {
            throw new BadInputException("--ramp-repeats must be at least 1");
        }
        if (thenRuns < 0 || thenRuns == 1) {
            throw new BadInputException(
                    "--then-runs must be 0 or at least 2 (the summary is the mean of the last two runs)");
        }
        if (p99Ms <= 0 || minGain < 0 || maxErrorPercent < 0 || maxWrong < 0 || maxHarnessCpu <= 0) {
            throw new BadInputException("--ramp-p99-ms and --max-harness-cpu must be > 0; --ramp-min-gain, "
                    + "--ramp-max-errors and --ramp-max-wrong >= 0");
        }
        List<RampLoads.Load> loads;
        if (rampClients != null) {
            if (rampStep != null || rampMaxClients != null) {
                throw new BadInputException(
                        "--ramp-clients lists the client counts; it does not go with --ramp-step or --ramp-max-clients");
            }
            loads = RampLoads.grid(positive("--ramp-clients", rampClients), threads(threads));
        } else {
            int step = rampStep == null ? clients : rampStep;
            int max = rampMaxClients == null ? Math.max(DEFAULT_MAX_CLIENTS, clients) : rampMaxClients;
            if (step < 1 || max < clients) {
                throw new BadInputException("--ramp-step must be >= 1 and --ramp-max-clients >= --clients");
            }
            List<RampLoads.Load> byClients = RampLoads.linear(clients, step, max, 1);
            loads = RampLoads.grid(
                    byClients.stream().map(RampLoads.Load::clients).toList(), threads(threads));
        }
        return new BenchSession.Plan(clients, threads, runs, true, loads, repeats, thenRuns, policy());
    }

    private List<Integer> threads(int threads) {
        return rampThreads == null ? List.of(threads) : positive("--ramp-threads", rampThreads);
    }

    private static List<Integer> positive(String option, List<Integer> values) {
        if (values.isEmpty() || values.stream().anyMatch(v -> v < 1)) {
            throw new BadInputException(option + " must list counts of at least 1, e.g. 1,2,4,8; got " + values);
        }
        return values;
    }

    private RampPolicy policy() {
        return new RampPolicy(p99Ms, minGain, maxErrorPercent, maxWrong, maxHarnessCpu);
    }
}
