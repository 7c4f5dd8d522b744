package dev.larch.jmh;

import dev.larch.jmh.data.SplitMix64;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Which key the next operation uses: a uniform draw over a benchmark's whole key set, so lookups
 * spread over the store like a real client's instead of hitting one cached key. Each benchmark
 * thread has its own stream (a few nanoseconds a draw, no sharing), seeded by its index so a run
 * draws the same keys as the last.
 */
@State(Scope.Thread)
public class KeyDraw {
    private static final long SEED = 0x4C41_5243_484A_4D48L;

    private SplitMix64 rng;

    @Setup(Level.Trial)
    public void setUp(ThreadParams thread) {
        rng = new SplitMix64(SEED + thread.getThreadIndex());
    }

    /** The index of the next key, in [0, bound). */
    public int next(int bound) {
        return rng.nextInt(bound);
    }
}
