package dev.larch.server.quota;

/**
 * A quota's rate as a {@link TokenBucket} uses it: the time one token takes to refill and the time
 * a whole bucket takes to refill (its capacity).
 *
 * @param intervalNanos nanoseconds per token, at least 1
 * @param capacityNanos nanoseconds of tokens a full bucket holds, at least {@code intervalNanos}
 */
record Rate(long intervalNanos, long capacityNanos) {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    Rate {
        if (intervalNanos < 1 || capacityNanos < intervalNanos) {
            throw new IllegalArgumentException("interval " + intervalNanos + " ns, capacity " + capacityNanos + " ns");
        }
    }

    /**
     * {@code perSecond} operations a second, with a bucket holding {@code burstSeconds} seconds' worth
     * of them ({@code perSecond × burstSeconds} operations).
     */
    static Rate of(int perSecond, int burstSeconds) {
        if (perSecond < 1 || burstSeconds < 1) {
            throw new IllegalArgumentException("perSecond and burstSeconds must be positive");
        }
        long interval = NANOS_PER_SECOND / perSecond;
        return new Rate(interval, interval * perSecond * burstSeconds);
    }
}
