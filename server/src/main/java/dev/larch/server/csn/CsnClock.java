package dev.larch.server.csn;

import java.time.Clock;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Stamps this server's changes: each {@link #next()} is a CSN of this server's ID greater than every CSN
 * it made before and every CSN it was shown with {@link #observe(Csn)}, whatever the clock does.
 *
 * <p>The time is the clock's, in microseconds. When the clock gives the same or an earlier time than the
 * last CSN (a burst within one microsecond, or the clock stepped back), the last time is kept and the
 * change count bumped; when the count is exhausted ({@value Csn#MAX_COUNT}) the time moves one
 * microsecond on. So a clock stepped back by an hour stamps changes at the old time, counting, until it
 * catches up. At start the store shows the clock the highest CSN it holds ({@link #observe(Csn)}), so a
 * restart after a step back still continues upwards.
 *
 * <p>Thread-safe (synchronized); the single writer is its only expected caller.
 */
public final class CsnClock {

    private final int sid;
    private final LongSupplier epochMicros;

    /** The time and count of the highest CSN made or observed; {@code count == -1} before any. */
    private long lastMicros = Long.MIN_VALUE;

    private int lastCount = -1;

    /**
     * A clock for server {@code sid} reading {@code epochMicros} (microseconds since the epoch).
     *
     * @throws IllegalArgumentException when {@code sid} is not 0–{@value Csn#MAX_SID}
     */
    public CsnClock(int sid, LongSupplier epochMicros) {
        if (sid < 0 || sid > Csn.MAX_SID) {
            throw new IllegalArgumentException("a server ID must be 0-" + Csn.MAX_SID + ", not " + sid);
        }
        this.sid = sid;
        this.epochMicros = epochMicros;
    }

    /** A clock for server {@code sid} reading {@code clock} to the microsecond. */
    public static CsnClock of(int sid, Clock clock) {
        return new CsnClock(sid, () -> micros(clock.instant()));
    }

    /** A clock for server {@code sid} reading the system's UTC clock. */
    public static CsnClock system(int sid) {
        return of(sid, Clock.systemUTC());
    }

    public int sid() {
        return sid;
    }

    /** The next CSN: greater than any made or observed before. */
    public synchronized Csn next() {
        long now = epochMicros.getAsLong();
        if (lastCount < 0 || now > lastMicros) {
            lastMicros = now;
            lastCount = 0;
        } else if (lastCount < Csn.MAX_COUNT) {
            lastCount++;
        } else {
            lastMicros++;
            lastCount = 0;
        }
        return Csn.of(lastMicros, lastCount, sid, 0);
    }

    /**
     * Raises the floor to {@code seen} (a CSN already in the store, of any server): every later
     * {@link #next()} is greater than it. A CSN below the floor changes nothing.
     */
    public synchronized void observe(Csn seen) {
        long micros = seen.epochMicros();
        int count = seen.count();
        if (lastCount < 0 || micros > lastMicros || (micros == lastMicros && count > lastCount)) {
            lastMicros = micros;
            lastCount = count;
        }
    }

    private static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }
}
