package dev.larch.jmh.data;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SplitMix64Test {

    @Test
    void drawsStayInRangeAndReachEveryValue() {
        SplitMix64 rng = new SplitMix64(1);
        int[] seen = new int[10];
        for (int k = 0; k < 100_000; k++) {
            seen[rng.nextInt(10)]++;
        }
        for (int count : seen) {
            // Uniform: 10,000 each; six standard deviations (~570) apart would be a broken draw.
            assertTrue(Math.abs(count - 10_000) < 600, Arrays.toString(seen));
        }
    }

    @Test
    void theSameSeedGivesTheSameKeys() {
        SplitMix64 a = new SplitMix64(42);
        SplitMix64 b = new SplitMix64(42);
        for (int k = 0; k < 100; k++) {
            assertEquals(a.nextInt(100_000), b.nextInt(100_000));
        }
    }
}
