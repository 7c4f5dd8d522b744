package dev.larch.server.quota;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenBucketTest {
    private static final long SECOND = 1_000_000_000L;

    /** 10 a second, a bucket of 10. */
    private static final Rate TEN_A_SECOND = Rate.of(10, 1);

    @Test
    void aFullBucketGivesExactlyItsCapacityThenRefuses() {
        long now = 42;
        TokenBucket bucket = new TokenBucket(now);
        for (int i = 0; i < 10; i++) {
            assertTrue(bucket.tryTake(now, TEN_A_SECOND), "take " + i);
        }
        assertFalse(bucket.tryTake(now, TEN_A_SECOND));
        assertFalse(bucket.tryTake(now, TEN_A_SECOND), "a refused take must not consume anything either");
    }

    @Test
    void oneTokenComesBackPerInterval() {
        long now = 0;
        TokenBucket bucket = new TokenBucket(now);
        for (int i = 0; i < 10; i++) {
            bucket.tryTake(now, TEN_A_SECOND);
        }
        now += SECOND / 10 - 1;
        assertFalse(bucket.tryTake(now, TEN_A_SECOND), "one nanosecond before the refill");
        now += 1;
        assertTrue(bucket.tryTake(now, TEN_A_SECOND));
        assertFalse(bucket.tryTake(now, TEN_A_SECOND));
    }

    @Test
    void aQuietBucketRefillsToItsCapacityAndNoFurther() {
        long now = 0;
        TokenBucket bucket = new TokenBucket(now);
        for (int i = 0; i < 10; i++) {
            bucket.tryTake(now, TEN_A_SECOND);
        }
        assertFalse(bucket.isFull(now));
        now += 60 * SECOND;
        assertTrue(bucket.isFull(now));
        int taken = 0;
        while (bucket.tryTake(now, TEN_A_SECOND)) {
            taken++;
        }
        assertEquals(10, taken);
    }

    @Test
    void burstSecondsMultiplyTheCapacityButNotTheRate() {
        Rate rate = Rate.of(10, 3);
        long now = 0;
        TokenBucket bucket = new TokenBucket(now);
        int taken = 0;
        while (bucket.tryTake(now, rate)) {
            taken++;
        }
        assertEquals(30, taken);
        now += SECOND;
        taken = 0;
        while (bucket.tryTake(now, rate)) {
            taken++;
        }
        assertEquals(10, taken);
    }

    @Test
    void worksWhereverTheClockStartsEvenAcrossItsWrap() {
        long now = Long.MAX_VALUE - SECOND / 20;
        TokenBucket bucket = new TokenBucket(now);
        for (int i = 0; i < 10; i++) {
            assertTrue(bucket.tryTake(now, TEN_A_SECOND));
        }
        assertFalse(bucket.tryTake(now, TEN_A_SECOND));
        now += SECOND / 10; // wraps to a negative value
        assertTrue(bucket.tryTake(now, TEN_A_SECOND));
        assertFalse(bucket.tryTake(now, TEN_A_SECOND));
    }

    @Test
    void concurrentTakesNeverGiveMoreThanTheCapacity() throws Exception {
        Rate rate = Rate.of(1_000, 1);
        TokenBucket bucket = new TokenBucket(0);
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 1_000; i++) {
                    if (bucket.tryTake(0, rate)) {
                        taken.incrementAndGet();
                    }
                }
            });
            threads[t].start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(1_000, taken.get());
    }
}
