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
     * What was run. {@code generators} lists the load-generator processes (one for a plain run,
     * several after {@code bench merge}, where {@code clients} is their sum); null in results
     * written before it existed. {@code keySkew} is the Zipf exponent people and groups were drawn
     * with (0: uniformly; null in results written before it existed). The load-model fields come last and are null in results written before load
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
            List<Generator> generators,
            Double keySkew,
            String loadModel,
            Double rate,
            Integer outstanding,
            Integer driverThreads,
            String tls,
            Double connectionRate) {}

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
            @JsonIgnore RunHistograms histograms,
            Resources resources,
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
     * throughput (0 with one run); {@code opsPerServerCpuSecond} is the mean over the same runs (null
     * unless every one of them knew the server's CPU).
     */
    public record Summary(
            String basis,
            double opsPerSecond,
            Latency latencyMs,
            double spreadPercent,
            long wrongAnswers,
            long errors,
            List<OperationSummary> operations,
            Double opsPerServerCpuSecond) {}

    /**
     * One ramp step: the means of its {@code repeats} runs (numbers in {@code runs}).
     *
     * @param spreadPercent (max − min) / mean × 100 of the repeats' throughput; 0 with one repeat
     * @param errorPercent errors per request sent (successes + wrong answers + errors), in percent
     * @param wrongAnswers wrong answers over all repeats
     * @param opsPerServerCpuSecond mean over the repeats, or null without the server's CPU
     * @param serverCpuPercentOfMachine mean over the repeats, or null without the server's CPU
     */
    public record RampStep(
            int clients,
            int threads,
            double opsPerSecond,
            double p99Ms,
            double harnessCpuPercentOfMachine,
            int repeats,
            double spreadPercent,
            double errorPercent,
            long wrongAnswers,
            Double opsPerServerCpuSecond,
            Double serverCpuPercentOfMachine,
            List<Integer> runs) {}

    /**
     * The ramp: steps, why it stopped, the peak, and the recommended capacity.
     *
     * @param stopKind p99, errors, wrong-answers, generator-bound, no-gain or last-step
     * @param generatorBound the load generator passed {@code --max-harness-cpu}: the peak is the
     *     generator's limit, a lower bound of the server's
     * @param capacity how {@code recommendedCapacityOpsPerSecond} was chosen
     * @param thenRuns runs made at the peak after the ramp ({@code --then-runs}), 0 if none
     * @param bounds the ramp's settings, so the result says how it was found
     */
    public record Ramp(
            List<RampStep> steps,
            double p99BoundMs,
            String stopReason,
            double peakOpsPerSecond,
            int peakClients,
            int peakThreads,
            double recommendedCapacityOpsPerSecond,
            String stopKind,
            boolean generatorBound,
            Capacity capacity,
            int thenRuns,
            RampBounds bounds) {}

    /** The ramp's settings: runs per step and every bound ({@code --ramp-*}, {@code --max-harness-cpu}). */
    public record RampBounds(
            int repeats,
            double p99Ms,
            double minGainPercent,
            double maxErrorPercent,
            long maxWrongAnswers,
            double maxHarnessCpuPercentOfMachine) {}

    /**
     * Capacity advice: the lower of half the peak and the throughput at which the server's CPU would
     * be half the machine (extrapolated linearly from operations per server CPU-second).
     *
     * @param opsPerSecond the advice
     * @param rule which limit applied, in words
     * @param halfOfPeakOpsPerSecond 50% of the peak
     * @param halfServerCpuOpsPerSecond opsPerServerCpuSecond × cores × 0.5, or null without the server's CPU
     */
    public record Capacity(
            double opsPerSecond, String rule, double halfOfPeakOpsPerSecond, Double halfServerCpuOpsPerSecond) {}

    /**
     * What a run cost, over its measurement phase. Null parts were not measured: {@code server}
     * needs {@code --server-pid}, {@code serverJvm} needs {@code --server-metrics-url} or
     * {@code --server-jmx}; {@code notes} says what could not be read.
     *
     * @param opsPerServerCpuSecond successful operations per second of server CPU (user + system)
     */
    public record Resources(
            Double opsPerServerCpuSecond, ProcessUse server, MachineUse machine, JvmUse serverJvm, List<String> notes) {

        /** Mean of the runs' figures, or null if any run lacks one (a mean of some runs would mislead). */
        public static Double meanOpsPerServerCpuSecond(List<Run> runs) {
            double sum = 0;
            for (Run r : runs) {
                if (r.resources() == null || r.resources().opsPerServerCpuSecond() == null) {
                    return null;
                }
                sum += r.resources().opsPerServerCpuSecond();
            }
            return runs.isEmpty() ? null : sum / runs.size();
        }
    }

    /**
     * The server process during the measurement. Disk bytes are null when /proc/PID/io is
     * unreadable (another user's process); network bytes are those of the process's network
     * namespace (Linux has no per-process socket byte counter).
     */
    public record ProcessUse(
            double userCpuSeconds,
            double systemCpuSeconds,
            double cpuPercentOfMachine,
            Long voluntaryContextSwitches,
            Long involuntaryContextSwitches,
            Long diskReadBytes,
            Long diskWriteBytes,
            Long netReceivedBytes,
            Long netSentBytes) {}

    /** The whole machine during the measurement (all cores; network over every interface, loopback included). */
    public record MachineUse(
            int cores,
            double userCpuSeconds,
            double systemCpuSeconds,
            double iowaitSeconds,
            double busyPercent,
            long contextSwitches,
            Long diskReadBytes,
            Long diskWriteBytes,
            Long netReceivedBytes,
            Long netSentBytes) {}

    /** A Java server's heap (sampled at each interval boundary) and GC time during the measurement. */
    public record JvmUse(
            String source, Long heapUsedMeanBytes, Long heapUsedMaxBytes, Long heapMaxBytes, Double gcSeconds) {}

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
