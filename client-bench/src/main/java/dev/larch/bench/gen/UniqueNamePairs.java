package dev.larch.bench.gen;

import java.util.BitSet;

/**
 * Draws (given, family) name pairs with skewed frequency, never the same pair twice.
 *
 * <p>As in dbgen, a drawn pair that was already used is drawn again. Used pairs are remembered in
 * one bit per possible pair (8,606 × 13,419 bits, about 14 MB), so the memory does not grow with
 * the data set and no name strings are kept. Not thread-safe.
 */
public final class UniqueNamePairs {
    /** Draws beyond this many repeats fall back to a uniform scan, so a crowded table still ends. */
    private static final int MAX_REDRAWS = 64;

    private final SkewedPicker givenPicker;
    private final SkewedPicker familyPicker;
    private final BitSet used;
    private final long capacity;
    private long drawn;

    public UniqueNamePairs(int givenCount, int familyCount, double skew) {
        this.givenPicker = new SkewedPicker(givenCount, skew);
        this.familyPicker = new SkewedPicker(familyCount, skew);
        this.capacity = (long) givenCount * familyCount;
        if (capacity > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("name lists too large for the used-pair table");
        }
        this.used = new BitSet((int) capacity);
    }

    /** The largest number of pairs this table will hand out (a quarter of all pairs, so redraws stay rare). */
    public long limit() {
        return capacity / 4;
    }

    /**
     * Returns the next unused pair encoded as {@code given * familyCount + family}.
     *
     * @throws IllegalStateException once {@link #limit()} pairs have been drawn
     */
    public int next(SplitMix64 rng) {
        if (drawn >= limit()) {
            throw new IllegalStateException("more people than unique names allow (" + limit() + ")");
        }
        int familyCount = familyPicker.size();
        for (int attempt = 0; attempt < MAX_REDRAWS; attempt++) {
            int pair = givenPicker.pick(rng) * familyCount + familyPicker.pick(rng);
            if (!used.get(pair)) {
                return take(pair);
            }
        }
        int start = (int) (rng.nextDouble() * capacity);
        int pair = used.nextClearBit(start);
        if (pair >= capacity) {
            pair = used.nextClearBit(0);
        }
        return take(pair);
    }

    private int take(int pair) {
        used.set(pair);
        drawn++;
        return pair;
    }
}
