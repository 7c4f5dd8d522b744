package dev.larch.server.store;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StaleReaderSweeperTest {
    @Test
    void checksRepeatedlyAndKeepsGoingAfterAFailure() throws Exception {
        CountDownLatch threeChecks = new CountDownLatch(3);
        try (StaleReaderSweeper sweeper = new StaleReaderSweeper(
                () -> {
                    threeChecks.countDown();
                    throw new IllegalStateException("simulated");
                },
                Duration.ofMillis(5))) {
            assertTrue(threeChecks.await(30, TimeUnit.SECONDS));
            assertFalse(sweeper.isStopped());
        }
    }

    @Test
    void closeStopsTheChecks() throws Exception {
        AtomicInteger checks = new AtomicInteger();
        CountDownLatch first = new CountDownLatch(1);
        StaleReaderSweeper sweeper = new StaleReaderSweeper(
                () -> {
                    checks.incrementAndGet();
                    first.countDown();
                },
                Duration.ofMillis(5));
        assertTrue(first.await(30, TimeUnit.SECONDS));
        sweeper.close();
        assertTrue(sweeper.isStopped());
        int afterClose = checks.get();
        Thread.sleep(50);
        assertEquals(afterClose, checks.get());
    }
}
