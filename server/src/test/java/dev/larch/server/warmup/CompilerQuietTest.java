package dev.larch.server.warmup;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompilerQuietTest {
    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(1_000 * MS);
    private final AtomicLong compiled = new AtomicLong();

    private CompilerQuiet quiet(long minimumMillis) {
        return new CompilerQuiet(
                compiled::get, now::get, Duration.ofMillis(minimumMillis), Duration.ofMillis(2_000), 100);
    }

    /** Polls every 250 ms for {@code millis}, the compilers working {@code busyPerPoll} ms in each. */
    private boolean pollFor(CompilerQuiet q, long millis, long busyPerPoll) {
        boolean last = false;
        for (long t = 0; t < millis; t += 250) {
            now.addAndGet(250 * MS);
            compiled.addAndGet(busyPerPoll);
            last = q.getAsBoolean();
        }
        return last;
    }

    @Test
    void busyCompilersAreNotQuiet() {
        CompilerQuiet q = quiet(0);
        assertFalse(pollFor(q, 10_000, 50));
        assertFalse(q.wentQuiet());
        assertEquals(400, q.lastWindowMillis(), "8 polls of 50 ms in the 2 s window");
    }

    @Test
    void quietOnceTheWindowHoldsLittleCompiling() {
        CompilerQuiet q = quiet(0);
        assertFalse(pollFor(q, 3_000, 200));
        // The busy polls leave the window one by one.
        assertFalse(pollFor(q, 1_000, 0));
        assertTrue(pollFor(q, 1_250, 0));
        assertEquals(0, q.lastWindowMillis());
        assertTrue(q.wentQuiet());
        // Once quiet, it stays so: the load has ended by then.
        assertTrue(pollFor(q, 2_000, 500));
    }

    @Test
    void notQuietBeforeAWholeWindowWasSeen() {
        CompilerQuiet q = quiet(0);
        assertFalse(pollFor(q, 1_750, 0));
        assertEquals(-1, q.lastWindowMillis());
        assertTrue(pollFor(q, 500, 0));
    }

    @Test
    void notQuietBeforeTheMinimum() {
        CompilerQuiet q = quiet(5_000);
        assertFalse(pollFor(q, 4_750, 0));
        assertTrue(pollFor(q, 250, 0));
    }

    @Test
    void aLittleCompilingIsStillQuiet() {
        CompilerQuiet q = quiet(0);
        // 12 ms a poll: 96 ms in a 2 s window, under the 100 allowed.
        assertTrue(pollFor(q, 4_000, 12));
    }

    @Test
    void neverQuietWhereTheJvmKeepsNoCompileTime() {
        CompilerQuiet q = new CompilerQuiet(() -> -1, now::get, Duration.ZERO, Duration.ofSeconds(2), 100);
        assertFalse(pollFor(q, 60_000, 0));
    }

    @Test
    void rarePollsStillMeasureTheWholeWindow() {
        CompilerQuiet q = quiet(0);
        now.addAndGet(5_000 * MS);
        assertFalse(q.getAsBoolean());
        now.addAndGet(5_000 * MS);
        compiled.addAndGet(500);
        assertFalse(q.getAsBoolean(), "500 ms compiled since the last poll");
        now.addAndGet(5_000 * MS);
        assertTrue(q.getAsBoolean());
    }

    @Test
    void refusesAnEmptyWindow() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new CompilerQuiet(compiled::get, now::get, Duration.ZERO, Duration.ZERO, 100));
    }
}
