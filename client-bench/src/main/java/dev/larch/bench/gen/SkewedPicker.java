package dev.larch.bench.gen;

import java.util.Arrays;

/**
 * Picks list positions with a Zipf-like frequency: position {@code r} (0-based) has weight
 * {@code 1 / (r + 1)^skew}. A skew of 0 is uniform; about 0.7 gives a census-like spread where the
 * most common surname covers a percent or two of people rather than a tenth.
 *
 * <p>Immutable and thread-safe; the randomness comes from the caller's generator.
 */
public final class SkewedPicker {
    private final double[] cumulative;

    public SkewedPicker(int size, double skew) {
        if (size <= 0 || skew < 0 || Double.isNaN(skew)) {
            throw new IllegalArgumentException("size must be positive and skew >= 0");
        }
        cumulative = new double[size];
        double sum = 0;
        for (int r = 0; r < size; r++) {
            sum += Math.pow(r + 1, -skew);
            cumulative[r] = sum;
        }
        for (int r = 0; r < size; r++) {
            cumulative[r] /= sum;
        }
        cumulative[size - 1] = 1.0;
    }

    public int size() {
        return cumulative.length;
    }

    /** Returns a position in {@code [0, size())}. */
    public int pick(SplitMix64 rng) {
        int i = Arrays.binarySearch(cumulative, rng.nextDouble());
        // binarySearch returns -(insertion point) - 1 when the key is absent; the insertion point is the pick.
        return i >= 0 ? Math.min(i + 1, cumulative.length - 1) : -i - 1;
    }
}
