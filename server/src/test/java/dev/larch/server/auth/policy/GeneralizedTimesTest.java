package dev.larch.server.auth.policy;

import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GeneralizedTimesTest {
    @Test
    void writesUtcWithMillisecondsAndReadsItBack() {
        Instant t = Instant.parse("2026-11-23T20:48:46.591Z");
        assertEquals("20261123204846.591Z", GeneralizedTimes.format(t));
        assertEquals(Optional.of(t), GeneralizedTimes.parse("20261123204846.591Z"));
    }

    @Test
    void readsWholeSecondsAndCommaFractions() {
        assertEquals(Optional.of(Instant.parse("2026-01-01T00:00:00Z")), GeneralizedTimes.parse("20260101000000Z"));
        assertEquals(Optional.of(Instant.parse("2026-01-01T00:00:00.5Z")), GeneralizedTimes.parse("20260101000000,5Z"));
    }

    @Test
    void offsetsAndGarbageAreNotTimes() {
        assertEquals(Optional.empty(), GeneralizedTimes.parse("20260101000000+0100"));
        assertEquals(Optional.empty(), GeneralizedTimes.parse("yesterday"));
        assertEquals(Optional.empty(), GeneralizedTimes.parse("20261301000000Z"));
    }
}
