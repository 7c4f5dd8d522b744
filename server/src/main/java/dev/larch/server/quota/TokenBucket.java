package dev.larch.server.quota;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One client's token bucket, held as a single number: the time at which the bucket will be full
 * again (the "theoretical arrival time" of the generic cell rate algorithm). Taking a token pushes
 * that time one refill interval further; a take is refused when it would push it more than the
 * bucket's capacity beyond now. This is exactly a token bucket of {@code capacity / interval} tokens
 * refilled one per interval, without a separate token count or a timer.
 *
 * <p>Thread-safe and lock-free: a take is one compare-and-set, retried only when another thread took
 * from the same bucket at the same moment. Times are {@link System#nanoTime()} values and are only
 * ever compared by difference, so the clock's origin does not matter.
 */
final class TokenBucket {
    private static final VarHandle FULL_AT;

    static {
        try {
            FULL_AT = MethodHandles.lookup().findVarHandle(TokenBucket.class, "fullAt", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // When the bucket is full again; not after now means full.
    private volatile long fullAt;

    /** A full bucket at {@code now}. */
    TokenBucket(long now) {
        this.fullAt = now;
    }

    /**
     * Takes one token if the bucket has one.
     *
     * @param rate how fast the bucket refills and how much it holds
     * @return false when the bucket is empty: the operation is over the quota
     */
    boolean tryTake(long now, Rate rate) {
        while (true) {
            long current = fullAt;
            long next = (current - now < 0 ? now : current) + rate.intervalNanos();
            if (next - now > rate.capacityNanos()) {
                return false;
            }
            if (FULL_AT.compareAndSet(this, current, next)) {
                return true;
            }
        }
    }

    /** True when the bucket is full at {@code now}: forgetting it changes nothing for its client. */
    boolean isFull(long now) {
        return fullAt - now <= 0;
    }
}
