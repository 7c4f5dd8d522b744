package dev.larch.bench.run;

import dev.larch.bench.data.DataSample;
import dev.larch.bench.mix.Mix;
import dev.larch.bench.resource.JvmGauges;

/**
 * What every run of one invocation shares.
 *
 * @param mix the workload
 * @param data values to draw from
 * @param target the server
 * @param seed base seed; the script of run r, client c, thread t uses a seed derived from (seed, r, c, t)
 * @param warmupSeconds warm-up length (measured, printed, never counted)
 * @param durationSeconds measured length
 * @param intervalSeconds length of a printed interval
 * @param server the server process to sample, or null
 * @param jvm the server's JVM heap and GC gauges, or null
 * @param load when requests are sent (closed loop, fixed rate, outstanding requests)
 */
public record RunSettings(
        Mix mix,
        DataSample data,
        ServerTarget target,
        long seed,
        double warmupSeconds,
        double durationSeconds,
        double intervalSeconds,
        ServerProcess server,
        JvmGauges jvm,
        LoadModel load) {

    /** Closed-loop settings. */
    public RunSettings(
            Mix mix,
            DataSample data,
            ServerTarget target,
            long seed,
            double warmupSeconds,
            double durationSeconds,
            double intervalSeconds,
            ServerProcess server) {
        this(mix, data, target, seed, warmupSeconds, durationSeconds, intervalSeconds, server, null, LoadModel.CLOSED);
    }

    /** The same settings under another load model (a step of the connection sweep). */
    public RunSettings withLoad(LoadModel other) {
        return new RunSettings(
                mix, data, target, seed, warmupSeconds, durationSeconds, intervalSeconds, server, jvm, other);
    }
}
