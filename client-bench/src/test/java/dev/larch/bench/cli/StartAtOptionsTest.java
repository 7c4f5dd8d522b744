package dev.larch.bench.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StartAtOptionsTest {
    private static final long NOW_MS = 1_750_000_000_000L;

    private static StartAtOptions at(double epochSeconds, long nowMillis) {
        StartAtOptions o = new StartAtOptions().withClock(() -> nowMillis);
        o.startAt = epochSeconds;
        return o;
    }

    @Test
    void aStartInThePastIsRefusedWithHowLate() {
        BadInputException e = assertThrows(
                BadInputException.class, () -> at(NOW_MS / 1000.0 - 10, NOW_MS).check());
        assertTrue(e.getMessage().contains("10.0 s in the past"), e.getMessage());
    }

    @Test
    void aStartWithinTheToleranceOrAheadIsAccepted() {
        assertDoesNotThrow(() -> at(NOW_MS / 1000.0 - 0.5, NOW_MS).check());
        assertDoesNotThrow(() -> at(NOW_MS / 1000.0 + 600, NOW_MS).check());
        assertDoesNotThrow(() -> new StartAtOptions().check(), "no --start-at, nothing to check");
    }

    @Test
    void aStartTooFarAheadIsRefused() {
        BadInputException e = assertThrows(
                BadInputException.class,
                () -> at(NOW_MS, NOW_MS).check()); // milliseconds given where seconds were meant
        assertTrue(e.getMessage().contains("ahead"), e.getMessage());
    }

    @Test
    void aStartThatPassedDuringTheChecksIsRefused() {
        StartAtOptions o = at(NOW_MS / 1000.0 + 5, NOW_MS);
        o.check();
        o.withClock(() -> NOW_MS + 8_000);
        BadInputException e = assertThrows(BadInputException.class, () -> o.awaitStart(quiet()));
        assertTrue(e.getMessage().contains("passed 3.0 s ago"), e.getMessage());
    }

    @Test
    void waitsUntilTheInstantAndNoLonger() {
        StartAtOptions o = new StartAtOptions();
        o.startAt = (System.currentTimeMillis() + 2_000) / 1000.0;
        o.check();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        o.awaitStart(new PrintStream(log, true, StandardCharsets.UTF_8));
        double waited = (System.nanoTime() - t0) / 1e9;
        assertTrue(waited >= 1.9 && waited < 3.5, "waited " + waited + " s");
        assertTrue(System.currentTimeMillis() >= (long) (o.startAt * 1000));
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("waiting"), log.toString(StandardCharsets.UTF_8));
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
