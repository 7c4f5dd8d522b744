package dev.larch.bench.report;

import java.util.List;
import java.util.Map;

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
 * @param maxConnections the connection sweep, or null without {@code --find-max-connections}
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
        Ramp ramp,
        MaxConnections maxConnections) {

    /** A result without a connection sweep. */
    public BenchResult(
            String harness,
            String harnessVersion,
            String startedAt,
            Config config,
            Server server,
            List<String> notes,
            List<Run> runs,
            Summary summary,
            Ramp ramp) {
        this(harness, harnessVersion, startedAt, config, server, notes, runs, summary, ramp, null);
    }

    /**
     * What was run. The load-model fields come last and are null in results written before load
     * models existed (read those as closed loop without TLS):
     *
     * @param loadModel "closed", "rate", "outstanding", "rate+outstanding" or "find-max-connections"
     * @param rate the total scheduled rate in operations per second, or null (closed loop, or a
     *     connection sweep whose rate changes per step)
     * @param outstanding requests in flight per asynchronous connection, or null (synchronous)
     * @param driverThreads threads sending on the asynchronous connections, or null (synchronous)
     * @param tls "none", "ldaps" or "starttls"
     * @param connectionRate the per-connection rate of a connection sweep, or null
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
            String loadModel,
            Double rate,
            Integer outstanding,
            Integer driverThreads,
            String tls,
            Double connectionRate) {}

    /** The server; {@code pid} is null unless {@code --server-pid} was given. */
    public record Server(String host, int port, String vendorName, String vendorVersion, String bindDn, Long pid) {}

    /** Latency in milliseconds. */
    public record Latency(double mean, double p50, double p90, double p99, double p999, double max) {
        public static final Latency NONE = new Latency(0, 0, 0, 0, 0, 0);
    }

    /**
     * One operation over one measured run. {@code ops} counts successes (partial ones included);
     * wrong answers and errors are counted apart and are not in the latency figures.
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
            Map<String, Long> errorsByResultCode) {}

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

    /** One measured run (warm-up excluded). {@code connections} is connection setup (connect + bind). */
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
            Pacing pacing) {}

    /**
     * How the sending went, beside latency. Under a schedule, a run's latency counts from each
     * request's intended start (coordinated omission corrected) and {@code serviceLatencyMs} from
     * its real send; in closed loop both count from the send. A start later than 1 ms after its
     * intended time is a late start; {@code missedStartMsMax} is the furthest behind any start was.
     * Many late starts with a low service time mean the generator, not the server, fell behind.
     *
     * @param loadModel as in {@link Config#loadModel()}
     * @param offeredOpsPerSecond the scheduled rate (0 in closed loop)
     * @param sentOpsPerSecond requests sent per second (all outcomes)
     * @param serviceLatencyMs successful requests, from real send to answer
     * @param sent requests sent
     * @param lateStarts requests sent more than 1 ms after their intended start
     * @param missedStartMsMax the latest start, in ms behind its schedule
     * @param maxInFlightPerConnection most requests seen in flight on one connection
     */
    public record Pacing(
            String loadModel,
            double offeredOpsPerSecond,
            double sentOpsPerSecond,
            Latency serviceLatencyMs,
            long sent,
            long lateStarts,
            double missedStartMsMax,
            int maxInFlightPerConnection) {}

    /** Headline figures of one operation: throughput and latency averaged over the summarised runs. */
    public record OperationSummary(String name, double opsPerSecond, Latency latencyMs, double spreadPercent) {}

    /**
     * The headline. {@code basis} says which runs it averages; {@code spreadPercent} is
     * |a − b| / mean × 100 of the two runs' throughput (0 with one run).
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

    /**
     * One step of {@code --find-max-connections}: {@code connections} connections each offered the
     * same rate. {@code failed} names the bound it broke, or is null when the step was sustained.
     */
    public record ConnectionStep(
            int connections,
            double offeredOpsPerSecond,
            double opsPerSecond,
            double p99Ms,
            long errors,
            long wrongAnswers,
            long lateStarts,
            double missedStartMsMax,
            double harnessCpuPercentOfMachine,
            String failed) {}

    /**
     * The connection sweep: its steps, its bounds, why it stopped and the most connections that
     * held every bound ({@code maxSustainedConnections}, null if not even the first step did).
     */
    public record MaxConnections(
            List<ConnectionStep> steps,
            double connectionRateOpsPerSecond,
            double p99BoundMs,
            double errorBoundPercent,
            double rateShortfallPercent,
            String stopReason,
            Integer maxSustainedConnections) {}
}
