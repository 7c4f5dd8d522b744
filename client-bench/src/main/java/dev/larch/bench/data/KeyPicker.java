package dev.larch.bench.data;

import dev.larch.bench.gen.SplitMix64;

/**
 * Picks one of {@code size} keys, uniformly or Zipf-skewed, in constant time per draw.
 *
 * <p>With skew {@code s > 0} the key of rank {@code r} (0-based) has weight {@code 1 / (r + 1)^s}:
 * at s = 0.99 and a million keys the hottest key takes about 6.5% of draws and the top 1% of keys
 * about two thirds. Ranks are mapped to keys through a permutation shuffled by the seed, so the hot keys
 * are spread over the data set rather than being the file's first entries. Draws use Walker's alias
 * method (Vose's construction): one table slot and one coin per draw. The tables cost 16 bytes per
 * key (16 MB at a million); s = 0 keeps none.
 *
 * <p>Immutable and thread-safe; randomness comes from the caller's generator.
 */
public final class KeyPicker {
    private final int size;
    private final double skew;
    private final double[] keep; // null: uniform
    private final int[] alias;
    private final int[] keyOfRank;

    private KeyPicker(int size, double skew, double[] keep, int[] alias, int[] keyOfRank) {
        this.size = size;
        this.skew = skew;
        this.keep = keep;
        this.alias = alias;
        this.keyOfRank = keyOfRank;
    }

    /**
     * A picker over {@code size} keys.
     *
     * @param skew 0 for uniform, else the Zipf exponent (e.g. 0.99)
     * @param seed shuffles which keys are hot
     * @throws IllegalArgumentException if size is negative or skew negative or not finite
     */
    public static KeyPicker of(int size, double skew, long seed) {
        if (size < 0 || !(skew >= 0) || Double.isInfinite(skew)) {
            throw new IllegalArgumentException("size must be >= 0 and skew a finite number >= 0");
        }
        if (skew == 0 || size < 2) {
            return new KeyPicker(size, skew, null, null, null);
        }
        double[] weight = new double[size];
        double sum = 0;
        for (int r = 0; r < size; r++) {
            weight[r] = Math.pow(r + 1, -skew);
            sum += weight[r];
        }
        double[] keep = new double[size];
        int[] alias = new int[size];
        int[] small = new int[size];
        int[] large = new int[size];
        int smalls = 0;
        int larges = 0;
        for (int r = 0; r < size; r++) {
            keep[r] = weight[r] * size / sum;
            if (keep[r] < 1.0) {
                small[smalls++] = r;
            } else {
                large[larges++] = r;
            }
        }
        // Each slot holds its own rank with probability keep[r] and donates the rest to a large one.
        while (smalls > 0 && larges > 0) {
            int s = small[--smalls];
            int l = large[--larges];
            alias[s] = l;
            keep[l] -= 1.0 - keep[s];
            if (keep[l] < 1.0) {
                small[smalls++] = l;
            } else {
                large[larges++] = l;
            }
        }
        // Left-overs are 1 up to rounding.
        while (larges > 0) {
            keep[large[--larges]] = 1.0;
        }
        while (smalls > 0) {
            keep[small[--smalls]] = 1.0;
        }
        int[] keyOfRank = new int[size];
        for (int i = 0; i < size; i++) {
            keyOfRank[i] = i;
        }
        SplitMix64 shuffle = new SplitMix64(seed);
        for (int i = size - 1; i > 0; i--) { // Fisher-Yates
            int j = shuffle.nextInt(i + 1);
            int t = keyOfRank[i];
            keyOfRank[i] = keyOfRank[j];
            keyOfRank[j] = t;
        }
        return new KeyPicker(size, skew, keep, alias, keyOfRank);
    }

    public int size() {
        return size;
    }

    public double skew() {
        return skew;
    }

    /** A key in {@code [0, size())}; {@code size()} must be positive. */
    public int pick(SplitMix64 rng) {
        int slot = rng.nextInt(size);
        if (keep == null) {
            return slot;
        }
        int rank = rng.nextDouble() < keep[slot] ? slot : alias[slot];
        return keyOfRank[rank];
    }

    /** The key drawn most often (rank 0); for tests and messages. */
    public int hottest() {
        return keyOfRank == null ? 0 : keyOfRank[0];
    }
}
