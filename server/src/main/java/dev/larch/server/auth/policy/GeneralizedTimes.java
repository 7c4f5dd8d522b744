package dev.larch.server.auth.policy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * GeneralizedTime values (RFC 4517 section 3.3.13) of the policy state attributes. The server writes
 * UTC with milliseconds, because several failed binds may fall within one second and
 * {@code pwdFailureTime} may not hold the same value twice; it reads whole seconds and any fraction.
 */
final class GeneralizedTimes {
    private static final DateTimeFormatter WRITE =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyyMMddHHmmss", Locale.ROOT);

    private GeneralizedTimes() {}

    static String format(Instant instant) {
        return WRITE.format(instant);
    }

    /**
     * {@code times} (oldest first) as {@link #format} writes them, to the millisecond, each after the
     * one before: a clash at that precision moves the later one a millisecond on. A multi-valued
     * time ({@code pwdFailureTime}, {@code pwdGraceUseTime}) may not hold one value twice, and
     * failures within one millisecond must each count, or the store would lock later than it should.
     */
    static List<Instant> distinctAsWritten(List<Instant> times) {
        List<Instant> out = new ArrayList<>(times.size());
        Instant previous = null;
        for (Instant time : times) {
            Instant t = time.truncatedTo(ChronoUnit.MILLIS);
            Instant next = previous != null && !t.isAfter(previous) ? previous.plusMillis(1) : t;
            out.add(next);
            previous = next;
        }
        return out;
    }

    /**
     * The instant of a UTC GeneralizedTime ({@code YYYYMMDDHHMMSS[.fraction]Z}); empty when the value
     * has another form (a time-zone offset, no seconds), which the server never writes.
     */
    static Optional<Instant> parse(String value) {
        String text = value.trim();
        if (text.length() < 15 || !text.endsWith("Z")) {
            return Optional.empty();
        }
        try {
            Instant seconds =
                    LocalDateTime.parse(text.substring(0, 14), SECONDS).toInstant(ZoneOffset.UTC);
            String fraction = text.substring(14, text.length() - 1);
            if (fraction.isEmpty()) {
                return Optional.of(seconds);
            }
            if ((fraction.charAt(0) != '.' && fraction.charAt(0) != ',') || fraction.length() < 2) {
                return Optional.empty();
            }
            String digits = (fraction.substring(1) + "000000000").substring(0, 9);
            return Optional.of(seconds.plusNanos(Long.parseLong(digits)));
        } catch (DateTimeParseException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
