package dev.larch.bench.gen;

/**
 * A tiny seeded pseudo-random generator (Steele, Lea and Flood's SplitMix64).
 *
 * <p>Ours rather than the JDK's {@link java.util.SplittableRandom} because our output must not
 * depend on the JDK: data sets, samples and request scripts are reproduced from their seed on other
 * machines and compared across runs. SplittableRandom's javadoc promises statistical quality, not
 * a sequence; its algorithm is not part of its contract and may change in any release. (Today its
 * {@code nextLong()} matches ours but its {@code nextInt(bound)} does not, so switching would
 * already change every generated data set.) {@code SplitMix64Test} pins our output. Not
 * thread-safe; give each thread its own instance.
 */
public final class SplitMix64 {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    /** Derives an independent seed from a parent seed and a stream number (for per-thread scripts). */
    public static long derive(long seed, long stream) {
        return mix(seed + GOLDEN * (stream + 1));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public long nextLong() {
        state += GOLDEN;
        return mix(state);
    }

    /** Returns a uniform value in {@code [0, bound)}; {@code bound} must be positive. */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive: " + bound);
        }
        // Lemire's multiply-shift with rejection keeps the result unbiased.
        long m = (nextLong() >>> 32) * bound;
        long low = m & 0xFFFFFFFFL;
        if (low < bound) {
            long threshold = (0x1_0000_0000L - bound) % bound;
            while (low < threshold) {
                m = (nextLong() >>> 32) * bound;
                low = m & 0xFFFFFFFFL;
            }
        }
        return (int) (m >>> 32);
    }

    /** Returns a uniform value in {@code [lo, hi]} (both inclusive). */
    public int between(int lo, int hi) {
        return lo + nextInt(hi - lo + 1);
    }

    /** Returns a uniform double in {@code [0, 1)}. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    public void nextBytes(byte[] out) {
        for (int i = 0; i < out.length; i += 8) {
            long r = nextLong();
            for (int j = i; j < Math.min(out.length, i + 8); j++) {
                out[j] = (byte) r;
                r >>>= 8;
            }
        }
    }
}
