package dev.larch.server.accesslog;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.encoder.Encoder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The hand-written access line holds to the logback pattern it replaces, byte for byte. */
class AccessLineEncoderTest {
    private final LoggerContext context = new LoggerContext();

    private PatternLayoutEncoder pattern(String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        return encoder;
    }

    private LoggingEvent event(String logger, Level level, String message, long millis) {
        LoggingEvent event = new LoggingEvent(
                AccessLineEncoderTest.class.getName(), context.getLogger(logger), level, message, null, null);
        event.setTimeStamp(millis);
        return event;
    }

    /** Lines in one second and across seconds, short and long milliseconds, levels, loggers, non-ASCII text. */
    private List<ILoggingEvent> events() {
        long t = 1_796_000_000_123L;
        return List.of(
                event("larch.access", Level.INFO, "conn=7 op=2 SEARCH base=\"dc=example,dc=com\" result=0", t),
                event("larch.access", Level.INFO, "conn=7 closed", t + 5),
                event("larch.access", Level.INFO, "conn=7 op=3 BIND dn=\"cn=Émile,dc=example\"", t + 877),
                event("larch.access", Level.INFO, "conn=8 open from=127.0.0.1:1", t + 1_000),
                event("larch.access", Level.INFO, "next second, 9 ms", t - 114 + 1_000 + 9),
                event("larch.access", Level.WARN, "a warning", t + 3_600_000),
                event("larch.access", Level.DEBUG, "five letters", t + 86_400_000),
                event("access", Level.INFO, "a logger without a dot", t + 86_400_001),
                event("larch.access", Level.INFO, "", 0),
                event("larch.access", Level.INFO, null, t));
    }

    private static void assertSameBytes(
            Encoder<ILoggingEvent> expected, Encoder<ILoggingEvent> actual, ILoggingEvent e) {
        assertEquals(
                new String(expected.encode(e), StandardCharsets.UTF_8),
                new String(actual.encode(e), StandardCharsets.UTF_8),
                "for " + e);
    }

    @Test
    void textLinesAreWhatTheTextPatternWrites() {
        PatternLayoutEncoder expected = pattern(AccessLogOutput.TEXT_PATTERN);
        AccessLineEncoder actual = AccessLineEncoder.text(ZoneId.systemDefault());
        for (ILoggingEvent e : events()) {
            assertSameBytes(expected, actual, e);
        }
    }

    @Test
    void jsonLinesAreTheBareMessage() {
        PatternLayoutEncoder expected = pattern(AccessLogOutput.JSON_PATTERN);
        AccessLineEncoder actual = AccessLineEncoder.json();
        for (ILoggingEvent e : events()) {
            assertSameBytes(expected, actual, e);
        }
    }

    @Test
    void aBatchIsItsLinesOneAfterAnother() {
        for (AccessLineEncoder encoder :
                List.of(AccessLineEncoder.text(ZoneId.systemDefault()), AccessLineEncoder.json())) {
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (ILoggingEvent e : events()) {
                expected.writeBytes(encoder.encode(e));
            }
            assertEquals(
                    expected.toString(StandardCharsets.UTF_8),
                    new String(encoder.encode(new LineBatch(events())), StandardCharsets.UTF_8));
            // and again: the encoder's buffer is reused, nothing of the last batch stays in it
            assertEquals(
                    new String(encoder.encode(events().get(1)), StandardCharsets.UTF_8),
                    new String(encoder.encode(new LineBatch(events().subList(1, 2))), StandardCharsets.UTF_8));
            assertEquals(0, encoder.encode(new LineBatch(List.of())).length);
        }
    }

    @Test
    void theTimeIsInTheZoneItIsGiven() {
        long noonUtc = 1_796_040_000_000L + 42;
        String line = new String(
                AccessLineEncoder.text(ZoneId.of("Asia/Kolkata"))
                        .encode(event("larch.access", Level.INFO, "x", noonUtc)),
                StandardCharsets.UTF_8);
        assertEquals("2026-11-30T17:30:00.042 INFO  access - x" + System.lineSeparator(), line);
    }
}
