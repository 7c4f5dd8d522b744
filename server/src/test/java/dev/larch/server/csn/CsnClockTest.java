package dev.larch.server.csn;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static dev.larch.server.csn.CsnTest.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CsnClockTest {

    private static final long T0 = Instant.parse("2026-11-28T15:26:07Z").getEpochSecond() * 1_000_000L + 123_456;

    @Test
    void aClockMovingOnStampsItsTimeWithCountZeroAndItsServerId() {
        AtomicLong now = new AtomicLong(T0);
        CsnClock clock = new CsnClock(7, now::get);

        Csn first = clock.next();
        now.addAndGet(5);
        Csn second = clock.next();

        assertEquals("20261128152607.123456Z#000000#007#000000", first.toString());
        assertEquals(T0 + 5, second.epochMicros());
        assertEquals(0, second.count());
        assertEquals(7, second.sid());
    }

    @Test
    void manyChangesInOneMicrosecondCountUpAndStayIncreasing() {
        CsnClock clock = new CsnClock(1, () -> T0);

        Csn previous = clock.next();
        for (int i = 1; i <= 10_000; i++) {
            Csn next = clock.next();
            assertTrue(next.isAfter(previous));
            assertEquals(T0, next.epochMicros());
            assertEquals(i, next.count());
            previous = next;
        }
    }

    @Test
    void aClockSteppedBackKeepsTheLastTimeAndCountsUntilItCatchesUp() {
        AtomicLong now = new AtomicLong(T0);
        CsnClock clock = new CsnClock(1, now::get);
        Csn before = clock.next();

        now.set(T0 - 3_600_000_000L); // an hour back
        Csn during1 = clock.next();
        Csn during2 = clock.next();
        now.set(T0 + 1);
        Csn after = clock.next();

        assertEquals(T0, during1.epochMicros());
        assertEquals(1, during1.count());
        assertEquals(2, during2.count());
        assertEquals(T0 + 1, after.epochMicros());
        assertEquals(0, after.count());
        assertStrictlyIncreasing(List.of(before, during1, during2, after));
    }

    @Test
    void anExhaustedCountMovesTheTimeOneMicrosecondOn() {
        CsnClock clock = new CsnClock(1, () -> T0);
        clock.observe(Csn.of(T0, Csn.MAX_COUNT - 1, 1, 0));

        Csn last = clock.next();
        Csn overflow = clock.next();
        Csn then = clock.next();

        assertEquals(Csn.MAX_COUNT, last.count());
        assertEquals(T0 + 1, overflow.epochMicros());
        assertEquals(0, overflow.count());
        assertEquals(1, then.count());
        assertStrictlyIncreasing(List.of(last, overflow, then));
    }

    @Test
    void aRestartAfterAStepBackContinuesAboveTheHighestCsnInTheStore() {
        Csn inStore = Csn.parse("20261128152607.123456Z#000005#002#000000"); // another server's, even
        CsnClock restarted = new CsnClock(1, () -> T0 - 60_000_000L);

        restarted.observe(inStore);
        Csn next = restarted.next();

        assertTrue(next.isAfter(inStore));
        assertEquals("20261128152607.123456Z#000006#001#000000", next.toString());
    }

    @Test
    void observingAnOlderCsnLowersNothing() {
        AtomicLong now = new AtomicLong(T0);
        CsnClock clock = new CsnClock(1, now::get);
        Csn made = clock.next();

        clock.observe(Csn.of(T0 - 10, 3, 1, 0));
        now.set(T0 - 100);

        assertTrue(clock.next().isAfter(made));
    }

    @Test
    void aJavaClockIsReadToTheMicrosecond() {
        Clock fixed = Clock.fixed(Instant.parse("2026-11-28T15:26:07.123456789Z"), ZoneOffset.UTC);

        assertEquals(
                "20261128152607.123456Z#000000#003#000000",
                CsnClock.of(3, fixed).next().toString());
    }

    @Test
    void aServerIdOutOfRangeIsRefused() {
        assertRefused("server ID", () -> new CsnClock(4096, () -> T0));
        assertRefused("server ID", () -> new CsnClock(-1, () -> T0));
    }

    @Test
    void threadsSharingTheClockNeverGetTheSameCsn() throws InterruptedException {
        CsnClock clock = new CsnClock(1, () -> T0);
        Set<Csn> seen = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < 5_000; i++) {
                        seen.add(clock.next());
                    }
                } catch (InterruptedException | RuntimeException e) {
                    failures.add(e);
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }

        assertEquals(List.of(), failures);
        assertEquals(20_000, seen.size());
    }

    private static void assertStrictlyIncreasing(List<Csn> csns) {
        for (int i = 1; i < csns.size(); i++) {
            assertTrue(csns.get(i).isAfter(csns.get(i - 1)), csns.get(i) + " after " + csns.get(i - 1));
        }
    }
}
