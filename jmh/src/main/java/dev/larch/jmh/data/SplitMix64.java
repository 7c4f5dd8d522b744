package dev.larch.jmh.data;

/**
 * Steele, Lea and Flood's SplitMix64: a cheap, well-mixed 64-bit stream for drawing benchmark keys
 * and a person's values. Deterministic for a seed, so two runs draw the same sequence. One
 * instance per thread: not thread-safe.
 */
public final class SplitMix64 {
    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    public long nextLong() {
        long z = (state += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * A value in [0, bound), by Lemire's multiply-and-shift of the high 32 bits (no division on the
     * hot path; the bias is below 2^-32 · bound, far below anything a benchmark can see).
     *
     * @param bound positive
     */
    public int nextInt(int bound) {
        return (int) (((nextLong() >>> 32) * bound) >>> 32);
    }
}
