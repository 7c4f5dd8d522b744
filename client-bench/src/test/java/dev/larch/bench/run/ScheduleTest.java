package dev.larch.bench.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ScheduleTest {
    @Test
    void startsFollowTheRateFromTheRunsStartWithoutDrift() {
        Schedule s = new Schedule(1_000, 100, 0, 1); // every 10 ms
        assertEquals(1_000, s.next());
        assertEquals(10_001_000, s.next());
        assertEquals(20_001_000, s.peek());
        for (int k = 3; k < 100_000; k++) {
            s.next();
        }
        assertEquals(1_000 + 99_999 * 10_000_000L, s.next(), "the 100,000th start is exactly on the grid");
    }

    @Test
    void schedulesSharingARateAreStaggered() {
        long[] first = new long[4];
        for (int i = 0; i < 4; i++) {
            first[i] = new Schedule(0, 25, i, 4).next(); // 4 x 25/s: one start every 10 ms in all
        }
        assertEquals(0, first[0]);
        assertEquals(10_000_000, first[1]);
        assertEquals(20_000_000, first[2]);
        assertEquals(30_000_000, first[3]);
    }

    @Test
    void peekDoesNotConsumeAStart() {
        Schedule s = new Schedule(0, 1_000, 0, 1);
        assertEquals(s.peek(), s.peek());
        assertEquals(s.peek(), s.next());
        assertEquals(1_000_000, s.next());
    }
}
