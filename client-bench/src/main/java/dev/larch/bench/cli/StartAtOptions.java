package dev.larch.bench.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

import picocli.CommandLine.Option;

/**
 * {@code --start-at EPOCH_SECONDS}: begin the first run at a given wall-clock instant, so several
 * load generators started by any orchestrator (ssh, a container job) begin together. The instant
 * is checked twice: when the options are read (not in the past beyond {@link #TOLERANCE_SECONDS},
 * not more than {@link #MAX_AHEAD_SECONDS} ahead) and again after all other checks, since sampling
 * a large data file may take longer than the lead the user allowed. Hosts need synchronised clocks
 * (NTP); the harness cannot see their skew.
 */
final class StartAtOptions {
    /** How late a start may be before it is refused: a generator that starts later is not "together". */
    static final double TOLERANCE_SECONDS = 1.0;

    /** The farthest ahead a start may be; a larger value is more likely a typo than a plan. */
    static final double MAX_AHEAD_SECONDS = 3600.0;

    @Option(
            names = "--start-at",
            paramLabel = "EPOCH_SECONDS",
            description = "Begin the first run at this instant (seconds since 1970-01-01 UTC, as 'date +%%s' prints),"
                    + " after all checks; to start several load generators together.")
    Double startAt;

    private LongSupplier clockMillis = System::currentTimeMillis;

    /** For tests: a clock in milliseconds since the epoch. */
    StartAtOptions withClock(LongSupplier millis) {
        this.clockMillis = millis;
        return this;
    }

    /**
     * Refuses a start in the past or too far ahead; does nothing without {@code --start-at}.
     *
     * @throws BadInputException naming the problem
     */
    void check() {
        if (startAt == null) {
            return;
        }
        if (startAt.isNaN() || startAt.isInfinite()) {
            throw new BadInputException("--start-at must be a number of seconds since the epoch");
        }
        double ahead = startAt - now();
        if (ahead < -TOLERANCE_SECONDS) {
            throw new BadInputException(String.format(
                    Locale.ROOT,
                    "--start-at %.3f is %.1f s in the past (now %.3f); give an instant after this process's checks end",
                    startAt,
                    -ahead,
                    now()));
        }
        if (ahead > MAX_AHEAD_SECONDS) {
            throw new BadInputException(String.format(
                    Locale.ROOT,
                    "--start-at %.3f is %.0f s ahead, more than the %.0f s allowed (seconds, not milliseconds?)",
                    startAt,
                    ahead,
                    MAX_AHEAD_SECONDS));
        }
    }

    /**
     * Called after every other check: waits until the start instant, or refuses if the checks
     * ran past it. Returns at once without {@code --start-at}.
     *
     * @throws BadInputException if the instant passed more than {@link #TOLERANCE_SECONDS} ago
     */
    void awaitStart(PrintStream log) {
        if (startAt == null) {
            return;
        }
        double ahead = startAt - now();
        if (ahead < -TOLERANCE_SECONDS) {
            throw new BadInputException(String.format(
                    Locale.ROOT,
                    "--start-at %.3f passed %.1f s ago while this process was checking its inputs; give a later instant",
                    startAt,
                    -ahead));
        }
        if (ahead > 0) {
            log.printf(Locale.ROOT, "bench: checks done; waiting %.1f s for --start-at %.3f%n", ahead, startAt);
        }
        long target = (long) Math.ceil(startAt * 1000);
        for (long left = target - clockMillis.getAsLong(); left > 0; left = target - clockMillis.getAsLong()) {
            try {
                Thread.sleep(Math.min(left, 1000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for --start-at", e);
            }
        }
    }

    private double now() {
        return clockMillis.getAsLong() / 1000.0;
    }
}
