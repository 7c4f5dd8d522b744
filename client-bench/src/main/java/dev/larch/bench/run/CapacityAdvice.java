package dev.larch.bench.run;

import java.util.Locale;

import dev.larch.bench.report.BenchResult.Capacity;

/**
 * Recommended capacity after a ramp. DirectoryMark's rule is 50% of the peak; it states no CPU rule,
 * so ours is: the lower of 50% of the peak and the throughput at which the server would use half
 * the machine's CPU, extrapolated linearly from operations per server CPU-second. A server that
 * reaches its peak while using little CPU (bound by I/O, locks or the network) gets the first; one
 * that needs most of the machine for its peak gets the second, keeping CPU headroom for the rest.
 */
public final class CapacityAdvice {
    private CapacityAdvice() {}

    /**
     * @param peakOpsPerSecond the peak's throughput
     * @param opsPerServerCpuSecond at the peak, or null when the server's CPU is unknown
     * @param cores the machine's cores
     */
    public static Capacity of(double peakOpsPerSecond, Double opsPerServerCpuSecond, int cores) {
        double half = peakOpsPerSecond * 0.5;
        if (opsPerServerCpuSecond == null) {
            return new Capacity(half, "50% of peak (server CPU unknown: no --server-pid)", half, null);
        }
        double halfCpu = opsPerServerCpuSecond * cores * 0.5;
        if (halfCpu < half) {
            return new Capacity(
                    halfCpu,
                    String.format(
                            Locale.ROOT,
                            "server CPU at 50%% of the machine (%.1f ops per server CPU-second x %d cores x 0.5), "
                                    + "below 50%% of peak (%.1f ops/s)",
                            opsPerServerCpuSecond,
                            cores,
                            half),
                    half,
                    halfCpu);
        }
        return new Capacity(
                half,
                String.format(
                        Locale.ROOT,
                        "50%% of peak, below the %.1f ops/s at which server CPU would reach 50%% of the machine",
                        halfCpu),
                half,
                halfCpu);
    }
}
