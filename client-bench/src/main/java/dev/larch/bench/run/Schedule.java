package dev.larch.bench.run;

/**
 * Intended start times of one connection's (or one thread's) requests: {@code start + phase + k ×
 * interval} for k = 0, 1, 2, ...
 *
 * <p>The times are fixed in advance and never moved: a request that could not start on time keeps
 * its intended time, so its latency includes the wait (the correction for coordinated omission),
 * and the schedule does not drift when the sender falls behind. Not thread-safe.
 */
final class Schedule {
    private final long firstNanos;
    private final double intervalNanos;
    private long k;

    /**
     * @param startNanos the run's start ({@link System#nanoTime()} scale)
     * @param ratePerSecond this schedule's own rate (the total rate divided among the schedules)
     * @param index this schedule's number among {@code count}, to stagger the phases
     * @param count how many schedules share the total rate
     */
    Schedule(long startNanos, double ratePerSecond, int index, int count) {
        this.intervalNanos = 1e9 / ratePerSecond;
        // Staggered phases: with 4 schedules at 100/s each, starts fall every 2.5 ms, not 4 at once every 10 ms.
        this.firstNanos = startNanos + (long) (intervalNanos * index / count);
    }

    /** The intended start of the next request; each call moves on by one. */
    long next() {
        return firstNanos + (long) (intervalNanos * k++);
    }

    /** The intended start the next call to {@link #next()} will return. */
    long peek() {
        return firstNanos + (long) (intervalNanos * k);
    }
}
