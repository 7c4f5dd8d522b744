package dev.larch.bench.run;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * CPU time used by this JVM, so a saturated load generator shows in every report.
 *
 * <p>Uses the {@code com.sun.management} extension every HotSpot JVM provides; returns -1 where
 * it is missing.
 */
public final class HarnessCpu {
    private HarnessCpu() {}

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** Process CPU time in nanoseconds, or -1 if this JVM cannot tell. */
    public static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }
}
