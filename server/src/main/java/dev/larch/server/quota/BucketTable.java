package dev.larch.server.quota;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The token buckets of one quota, one per key, in a table of bounded size.
 *
 * <p>Bound: at most {@code maxKeys} buckets (plus, briefly, one per thread adding a key at the same
 * moment). One key costs about 100 bytes (the hash-table node 32, the {@link QuotaKey} 32, the
 * {@link TokenBucket} 24 and its share of the table's slot array), so {@link #DEFAULT_MAX_KEYS}
 * keys take under 7 MiB, whatever the keys are: addresses and DNs are reduced to 16 bytes.
 *
 * <p>A full bucket is the same as no bucket, so buckets are forgotten once full. When the table is
 * at its bound and a new key arrives, full buckets are dropped (at most once per
 * {@link #SWEEP_INTERVAL_NANOS}, by one thread, so a flood of new keys cannot make every request
 * walk the table); while it is still at its bound, new keys share one overflow bucket. A flood of
 * distinct addresses or identities therefore costs bounded memory and slows only the newcomers, never
 * a client already tracked.
 *
 * <p>Thread-safe without a global lock: lookups are {@link ConcurrentHashMap} reads. A bucket dropped
 * while another thread takes from it loses that one take, which lets at most one extra operation
 * through.
 */
final class BucketTable {

    /** How many keys a table tracks unless told otherwise. */
    static final int DEFAULT_MAX_KEYS = 65_536;

    static final long SWEEP_INTERVAL_NANOS = 1_000_000_000L;

    private final int maxKeys;
    private final ConcurrentHashMap<QuotaKey, TokenBucket> buckets = new ConcurrentHashMap<>();
    private final TokenBucket overflow;
    private final AtomicLong nextSweep;

    /** An empty table at {@code now} holding at most {@code maxKeys} buckets (at least 1). */
    BucketTable(int maxKeys, long now) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be positive");
        }
        this.maxKeys = maxKeys;
        this.overflow = new TokenBucket(now);
        this.nextSweep = new AtomicLong(now);
    }

    /** The bucket of {@code key}, created full if it has none; the shared overflow bucket when full. */
    TokenBucket bucketFor(QuotaKey key, long now) {
        TokenBucket bucket = buckets.get(key);
        if (bucket != null) {
            return bucket;
        }
        if (buckets.size() >= maxKeys && !dropFullBuckets(now)) {
            return overflow;
        }
        return buckets.computeIfAbsent(key, k -> new TokenBucket(now));
    }

    /** How many keys have their own bucket. */
    int size() {
        return buckets.size();
    }

    /** Drops the buckets that are full at {@code now} if it is time to; true when there is room. */
    private boolean dropFullBuckets(long now) {
        long due = nextSweep.get();
        if (now - due >= 0 && nextSweep.compareAndSet(due, now + SWEEP_INTERVAL_NANOS)) {
            // Removal checks the value, so a bucket replaced meanwhile is kept.
            buckets.values().removeIf(bucket -> bucket.isFull(now));
        }
        return buckets.size() < maxKeys;
    }
}
