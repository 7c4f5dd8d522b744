package dev.larch.bench.data;

import java.util.Arrays;

import dev.larch.bench.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyPickerTest {
    private static int[] counts(KeyPicker picker, int draws, long seed) {
        int[] n = new int[picker.size()];
        SplitMix64 rng = new SplitMix64(seed);
        for (int i = 0; i < draws; i++) {
            n[picker.pick(rng)]++;
        }
        return n;
    }

    @Test
    void skewZeroIsUniformWithinTolerance() {
        int[] n = counts(KeyPicker.of(100, 0, 1), 1_000_000, 2);
        for (int c : n) {
            assertEquals(10_000, c, 500, "every key about 1% of draws"); // 5 standard deviations
        }
    }

    @Test
    void skewConcentratesDrawsOnAFewHotKeysAsZipfSays() {
        int size = 100_000;
        KeyPicker picker = KeyPicker.of(size, 0.99, 7);
        int draws = 1_000_000;
        int[] n = counts(picker, draws, 3);
        // Zipf(0.99) over 100,000 keys: the hottest key takes 1/H = about 7.9% of draws.
        double harmonic = 0;
        for (int r = 1; r <= size; r++) {
            harmonic += Math.pow(r, -0.99);
        }
        assertEquals(draws / harmonic, n[picker.hottest()], draws * 0.003);
        int[] sorted = n.clone();
        Arrays.sort(sorted);
        long top1Percent = 0;
        for (int i = sorted.length - 1; i >= sorted.length - size / 100; i--) {
            top1Percent += sorted[i];
        }
        assertTrue(top1Percent > draws / 2, "the top 1% of keys take most draws: " + top1Percent);
        int[] uniform = counts(KeyPicker.of(size, 0, 7), draws, 3);
        assertTrue(Arrays.stream(uniform).max().getAsInt() < 40, "uniform has no hot key");
    }

    @Test
    void hotKeysAreShuffledBySeedNotTheFirstEntries() {
        KeyPicker a = KeyPicker.of(100_000, 0.99, 1);
        KeyPicker b = KeyPicker.of(100_000, 0.99, 2);
        assertNotEquals(0, a.hottest());
        assertNotEquals(a.hottest(), b.hottest());
        int[] n = counts(a, 200_000, 5);
        int firstHundred = 0;
        for (int i = 0; i < 100; i++) {
            firstHundred += n[i];
        }
        assertTrue(firstHundred < 2_000, "the file's first keys are not the hot ones: " + firstHundred);
    }

    @Test
    void sameSeedsGiveTheSameDraws() {
        KeyPicker a = KeyPicker.of(10_000, 0.8, 9);
        KeyPicker b = KeyPicker.of(10_000, 0.8, 9);
        SplitMix64 ra = new SplitMix64(1);
        SplitMix64 rb = new SplitMix64(1);
        for (int i = 0; i < 10_000; i++) {
            assertEquals(a.pick(ra), b.pick(rb));
        }
    }

    @Test
    void negativeOrNonFiniteSkewIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> KeyPicker.of(10, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> KeyPicker.of(10, Double.NaN, 1));
        assertThrows(IllegalArgumentException.class, () -> KeyPicker.of(10, Double.POSITIVE_INFINITY, 1));
    }
}
