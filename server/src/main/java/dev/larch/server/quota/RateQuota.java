package dev.larch.server.quota;

/**
 * One quota: a rate, the buckets of the keys it holds and the message a refused client gets.
 * Thread-safe.
 */
final class RateQuota {
    private final Rate rate;
    private final BucketTable buckets;
    private final String exceededMessage;

    /**
     * @param perSecond operations per second one key may run, at least 1
     * @param burstSeconds seconds' worth of operations a full bucket holds, at least 1
     * @param per what a key is, for the message: "client address" or "identity"
     * @param configKey the setting that sets the rate, named in the message so an operator finds it
     * @param maxKeys most keys tracked, see {@link BucketTable}
     * @param now the clock's current time
     */
    RateQuota(int perSecond, int burstSeconds, String per, String configKey, int maxKeys, long now) {
        this.rate = Rate.of(perSecond, burstSeconds);
        this.buckets = new BucketTable(maxKeys, now);
        this.exceededMessage = "rate limit of " + perSecond + " operation" + (perSecond == 1 ? "" : "s")
                + " per second per " + per + " exceeded (" + configKey + "); try again later";
    }

    /** Counts one operation of {@code key}; false when it is over the quota. */
    boolean tryTake(QuotaKey key, long now) {
        return buckets.bucketFor(key, now).tryTake(now, rate);
    }

    /** What a client over this quota is told. */
    String exceededMessage() {
        return exceededMessage;
    }
}
