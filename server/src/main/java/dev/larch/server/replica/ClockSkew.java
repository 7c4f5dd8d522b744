package dev.larch.server.replica;

import java.time.Clock;
import java.time.Instant;
import java.util.Locale;

import dev.larch.server.csn.Csn;
import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a CSN stamped further ahead of this server's clock than a bound: applied, it would sort
 * above every change this server makes until its clock caught up, so one provider with a clock
 * running fast would win every conflict (and push this server's own CSNs into its future, as
 * {@link dev.larch.server.csn.CsnClock#observe} keeps them above every CSN seen).
 *
 * <p>Thread-safe (immutable).
 */
final class ClockSkew {
    private static final Logger LOG = LoggerFactory.getLogger(ClockSkew.class);

    private final int rid;
    private final long maxSkewMicros;
    private final Clock clock;

    /**
     * @param maxSkewSeconds how far ahead of {@code clock} a CSN may be, at least 0
     */
    ClockSkew(int rid, long maxSkewSeconds, Clock clock) {
        if (maxSkewSeconds < 0) {
            throw new IllegalArgumentException("the maximum clock skew must be at least 0 s, not " + maxSkewSeconds);
        }
        this.rid = rid;
        this.maxSkewMicros = Math.multiplyExact(maxSkewSeconds, 1_000_000L);
        this.clock = clock;
    }

    /**
     * @param what names where the CSN came from, for the log line and the failure
     * @throws ResultCodeException (other) when {@code csn} is too far ahead, after logging an error
     *     naming the CSN and the skew
     */
    void check(Csn csn, String what) {
        Instant now = clock.instant();
        long nowMicros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000);
        long ahead = csn.epochMicros() - nowMicros;
        if (ahead <= maxSkewMicros) {
            return;
        }
        String message = String.format(
                Locale.ROOT,
                "replica %03d refuses %s CSN %s: it is %.3f s ahead of this server's clock, more than the"
                        + " allowed clock skew of %d s (check the clocks of both servers)",
                rid,
                what,
                csn,
                ahead / 1e6,
                maxSkewMicros / 1_000_000L);
        LOG.error(message);
        throw new ResultCodeException(ResultCodeEnum.OTHER, message);
    }
}
