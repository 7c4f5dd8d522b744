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
 * @param seed base seed; worker (client c, thread t) uses a seed derived from (seed, c, t)
 * @param warmupSeconds warm-up length (measured, printed, never counted)
 * @param durationSeconds measured length
 * @param intervalSeconds length of a printed interval
 * @param server the server process to sample, or null
 * @param jvm the server's JVM heap and GC gauges, or null
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
        JvmGauges jvm) {}
