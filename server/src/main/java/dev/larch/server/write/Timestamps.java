package dev.larch.server.write;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** The generalized time of the stamps the server maintains ({@link CreateStamps}, {@link ModifyStamps}). */
final class Timestamps {
    private static final DateTimeFormatter GENERALIZED_TIME =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'", Locale.ROOT);

    private Timestamps() {}

    /** The generalized time (RFC 4517 section 3.3.13) of a second since the epoch, in UTC. */
    static String format(long epochSecond) {
        return ZonedDateTime.ofInstant(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC)
                .format(GENERALIZED_TIME);
    }
}
