package dev.larch.server;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of long work (index builds at start, import, backup, verify): items done, rate and time
 * left. On a terminal it is one line rewritten in place ({@code \r}) a few times a second; otherwise
 * (a pipe, a log, a service manager's journal) a plain line every {@link #LINE_INTERVAL}, so logs stay
 * readable. Work that ends before the first line prints nothing at all.
 *
 * <p>Not thread-safe: one worker reports.
 */
public final class Progress {
    /** Between two plain lines when the output is not a terminal. */
    public static final Duration LINE_INTERVAL = Duration.ofSeconds(10);

    /** Between two rewrites of the terminal line. */
    public static final Duration TERMINAL_INTERVAL = Duration.ofMillis(250);

    /** Steps between two looks at the clock: reading it for every entry would cost more than the work. */
    private static final long CLOCK_EVERY = 256;

    private final PrintStream out;
    private final String what;
    private final long total;
    private final boolean terminal;
    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private final long startNanos;
    private long nextReportNanos;
    private long done;
    private boolean printed;
    private int lastWidth;

    /**
     * @param out where progress goes, or null for silence
     * @param what what is counted, as the line starts: "verified entries", "imported entries"
     * @param total how many items there will be; 0 or less when unknown (then no percentage or time left)
     * @param terminal whether {@code out} is a terminal: one line rewritten in place, else plain lines
     * @param nanoClock the clock, {@link System#nanoTime()} outside tests
     */
    public Progress(PrintStream out, String what, long total, boolean terminal, LongSupplier nanoClock) {
        this.out = out;
        this.what = what;
        this.total = total;
        this.terminal = terminal;
        this.nanoClock = nanoClock;
        this.intervalNanos = (terminal ? TERMINAL_INTERVAL : LINE_INTERVAL).toNanos();
        this.startNanos = nanoClock.getAsLong();
        this.nextReportNanos = startNanos + intervalNanos;
    }

    /** Progress on standard error, as a terminal line when the process has one. */
    public static Progress onStandardError(String what, long total) {
        return new Progress(System.err, what, total, interactive(), System::nanoTime);
    }

    /** {@link #onStandardError}, or silence when {@code out} is null; lines go to {@code out}. */
    public static Progress to(PrintStream out, String what, long total) {
        return new Progress(out, what, total, out != null && interactive(), System::nanoTime);
    }

    /**
     * Whether the process talks to a terminal. Up to JDK 21 {@link System#console()} is null unless
     * it does; from JDK 22 it may return a console on redirected streams too and says which through
     * {@code Console.isTerminal()}, looked up by reflection since the code is built for 21.
     */
    @SuppressWarnings("SystemConsoleNull") // handled: isTerminal() is asked where it exists
    static boolean interactive() {
        var console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = console.getClass().getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true;
        }
    }

    /** One more item done. */
    public void step() {
        done++;
        if (done % CLOCK_EVERY == 0) {
            maybeReport();
        }
    }

    /** {@code done} items done so far (for work that counts in batches). */
    public void advanceTo(long done) {
        this.done = done;
        maybeReport();
    }

    /** The work is over: the terminal line ends with a line break. */
    public void finish() {
        if (out != null && terminal && printed) {
            print(line(), true);
        }
    }

    private void maybeReport() {
        if (out == null) {
            return;
        }
        long now = nanoClock.getAsLong();
        if (now - nextReportNanos < 0) {
            return;
        }
        nextReportNanos = now + intervalNanos;
        print(line(now), false);
    }

    private String line() {
        return line(nanoClock.getAsLong());
    }

    private String line(long now) {
        return format(what, done, total, (now - startNanos) / 1e9);
    }

    private void print(String line, boolean last) {
        printed = true;
        if (terminal) {
            // Spaces wipe what a longer previous line left behind.
            String padded = line + " ".repeat(Math.max(0, lastWidth - line.length()));
            lastWidth = line.length();
            out.print("\r" + padded + (last ? System.lineSeparator() : ""));
        } else {
            out.println(line);
        }
        out.flush();
    }

    /**
     * The progress line: {@code larch: verified entries 120,000 of 1,000,000 (12%), 40,000/s, about 22 s
     * left}. Without a total: items done and rate.
     *
     * @param seconds time since the work began
     */
    static String format(String what, long done, long total, double seconds) {
        double rate = seconds > 0 ? done / seconds : 0;
        StringBuilder b = new StringBuilder("larch: ").append(what).append(' ');
        b.append(String.format(Locale.ROOT, "%,d", done));
        if (total > 0) {
            b.append(String.format(Locale.ROOT, " of %,d (%d%%)", total, Math.min(100, done * 100 / total)));
        }
        b.append(String.format(Locale.ROOT, ", %,.0f/s", rate));
        if (total > 0 && done < total) {
            b.append(
                    rate > 0
                            ? ", about " + duration(Math.round((total - done) / rate)) + " left"
                            : ", time left unknown");
        }
        return b.toString();
    }

    /** 42 s, 3 min 05 s, 2 h 07 min. */
    static String duration(long seconds) {
        if (seconds < 60) {
            return seconds + " s";
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, seconds % 3600 / 60);
    }
}
