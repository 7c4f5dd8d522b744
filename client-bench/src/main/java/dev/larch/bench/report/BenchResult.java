package dev.larch.bench.report;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * Everything one {@code ./larch bench} invocation measured, as written to result.json and read
 * back by {@code bench compare}. Records nest so that the JSON reads top-down: what was run,
 * against what, each run, the summary and (when ramping) the ramp.
 *
 * @param harness always "larch client-bench"
 * @param harnessVersion version of the harness
 * @param startedAt ISO-8601 start time (UTC)
 * @param config what was run
 * @param server what it ran against
 * @param notes how to read the numbers (e.g. how sizeLimitExceeded counts)
 * @param runs each measured run in order
 * @param summary the headline numbers (mean of the last two runs, or the ramp's peak step)
 * @param ramp the ramp, or null without {@code --ramp}
 */
public record BenchResult(
        String harness,
        String harnessVersion,
        String startedAt,
        Config config,
        Server server,
        List<String> notes,
        List<Run> runs,
        Summary summary,
        Ramp ramp) {

    /**
     * What was run. {@code generators} lists the load-generator processes (one for a plain run,
     * several after {@code bench merge}, where {@code clients} is their sum); null in results
     * written before it existed. {@code keySkew} is the Zipf exponent people and groups were drawn
     * with (0: uniformly; null in results written before it existed).
     */
    public record Config(
            String mix,
            String mixSource,
            String mixSha256,
            String connectionModel,
            Map<String, Double> shares,
            long seed,
            String dataFile,
            long dataEntries,
            long dataPeople,
            long dataGroups,
            int clients,
            int threads,
            double warmupSeconds,
            double durationSeconds,
            double intervalSeconds,
            int runs,
            boolean ramp,
            List<Generator> generators,
            Double keySkew) {}

    /**
     * One load-generator process that contributed to a result: the one process of a plain bench
     * run, or each process a {@code bench merge} combined.
     *
     * @param host the generator's host name
     * @param outDir its {@code --out} directory (as that process saw it)
     * @param clients its clients
     * @param threads its threads per client
     * @param startedAt ISO-8601 start time of that process's first run
     */
    public record Generator(String host, String outDir, int clients, int threads, String startedAt) {}

    /** The server; {@code pid} is null unless {@code --server-pid} was given. */
    public record Server(String host, int port, String vendorName, String vendorVersion, String bindDn, Long pid) {}

    /** Latency in milliseconds. */
    public record Latency(double mean, double p50, double p90, double p99, double p999, double max) {
        public static final Latency NONE = new Latency(0, 0, 0, 0, 0, 0);
    }

    /**
     * One operation over one measured run. {@code ops} counts successes (partial ones included);
     * wrong answers and errors are counted apart and are not in the latency figures.
     * {@code wrongExamples} holds the first few wrong answers' problems (what was asked, what came
     * back); empty in results written before it existed.
     */
    public record Operation(
            String name,
            long ops,
            double opsPerSecond,
            Latency latencyMs,
            double entriesPerSearch,
            long partial,
            long wrongAnswers,
            long errors,
            Map<String, Long> errorsByResultCode,
            List<String> wrongExamples) {
        public Operation {
            wrongExamples = wrongExamples == null ? List.of() : List.copyOf(wrongExamples);
        }

        /** An operation without wrong-answer examples (e.g. one combined from several results). */
        public Operation(
                String name,
                long ops,
                double opsPerSecond,
                Latency latencyMs,
                double entriesPerSearch,
                long partial,
                long wrongAnswers,
                long errors,
                Map<String, Long> errorsByResultCode) {
            this(
                    name,
                    ops,
                    opsPerSecond,
                    latencyMs,
                    entriesPerSearch,
                    partial,
                    wrongAnswers,
                    errors,
                    errorsByResultCode,
                    List.of());
        }
    }

    /**
     * One printed interval; {@code phase} is "warm-up" or "measure". CPU figures are percent of one
     * core (200 = two cores busy) and null when unknown; RSS is null without {@code --server-pid}.
     */
    public record Interval(
            String phase,
            double startSeconds,
            double seconds,
            double opsPerSecond,
            double p50Ms,
            double p99Ms,
            long errors,
            long wrongAnswers,
            Map<String, Double> opsPerSecondByOperation,
            Double harnessCpuPercent,
            Double serverCpuPercent,
            Long serverRssKb) {}

    /**
     * Load-generator and server resources during the measurement. Percentages of one core (100 = one
     * core busy); the machine percentage divides by the core count. Server figures are null without
     * {@code --server-pid}.
     */
    public record Cpu(
            int cores,
            double harnessCpuSeconds,
            double harnessCpuPercentOfOneCore,
            double harnessCpuPercentOfMachine,
            Double serverCpuPercentOfOneCore,
            Long serverRssMaxKb,
            Long serverRssMeanKb) {}

    /**
     * One measured run (warm-up excluded). {@code connections} is connection setup (connect + bind).
     * {@code histograms} holds the run's latency histograms in memory so summaries and merges can
     * combine runs exactly; it is never written to result.json (histograms.hlog holds them) and is
     * null for a run read back from JSON.
     */
    public record Run(
            int run,
            int clients,
            int threads,
            double measuredSeconds,
            long ops,
            double opsPerSecond,
            Latency latencyMs,
            long partial,
            long wrongAnswers,
            long errors,
            Map<String, Long> errorsByResultCode,
            List<Operation> operations,
            Operation connections,
            List<Interval> intervals,
            Cpu cpu,
            @JsonIgnore RunHistograms histograms) {}

    /**
     * Headline figures of one operation over the summarised runs: mean throughput, latency from the
     * runs' merged histogram, the throughput spread, and the answers that were not plain successes
     * (summed) with the mean entries per successful search.
     */
    public record OperationSummary(
            String name,
            double opsPerSecond,
            Latency latencyMs,
            double spreadPercent,
            long partial,
            long wrongAnswers,
            long errors,
            double entriesPerSearch) {}

    /**
     * The headline. {@code basis} says which runs it covers; throughput is their mean, latency comes
     * from their merged histograms; {@code spreadPercent} is |a − b| / mean × 100 of the two runs'
     * throughput (0 with one run).
     */
    public record Summary(
            String basis,
            double opsPerSecond,
            Latency latencyMs,
            double spreadPercent,
            long wrongAnswers,
            long errors,
            List<OperationSummary> operations) {}

    /** One ramp step. */
    public record RampStep(
            int clients, int threads, double opsPerSecond, double p99Ms, double harnessCpuPercentOfMachine) {}

    /** The ramp: steps, the peak, and recommended capacity at 50% of the peak. */
    public record Ramp(
            List<RampStep> steps,
            double p99BoundMs,
            String stopReason,
            double peakOpsPerSecond,
            int peakClients,
            int peakThreads,
            double recommendedCapacityOpsPerSecond) {}
}
