package dev.larch.server.maintenance;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of long work over a known number of items, printed as plain lines (one every {@link
 * #EVERY} items) so that it reads the same on a terminal, in a pipe and in a log: items done, rate
 * and time left.
 *
 * <p>Not thread-safe: one worker reports.
 */
public final class Progress {
    /** Items between two lines. */
    public static final long EVERY = 100_000;

    private final PrintStream out;
    private final String what;
    private final long total;
    private final long startNanos = System.nanoTime();
    private long done;

    /** @param out where lines go, or null for silence */
    public Progress(PrintStream out, String what, long total) {
        this.out = out;
        this.what = what;
        this.total = total;
    }

    public void step() {
        done++;
        if (out != null && done % EVERY == 0) {
            double seconds = Math.max(1e-3, (System.nanoTime() - startNanos) / 1e9);
            double rate = done / seconds;
            long left = rate > 0 && total > done ? Math.round((total - done) / rate) : 0;
            out.printf(Locale.ROOT, "larch: %s %,d of %,d (%,.0f/s, about %d s left)%n", what, done, total, rate, left);
        }
    }
}
