package dev.larch.server.accesslog;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.encoder.EncoderBase;

/**
 * The bytes of one access line, as the access log's writer thread writes them. Text lines read
 * exactly as {@link AccessLogOutput#TEXT_PATTERN} writes them ({@code 2026-11-29T10:30:00.123 INFO
 * access - conn=7 ...}: local time to the millisecond, the level padded to five characters, the
 * logger's last name, the message); JSON lines are the bare message. Each ends with the line
 * separator, in UTF-8.
 *
 * <p>Why not logback's {@code PatternLayoutEncoder}: it runs its converter chain and formats the
 * date for every line (and a busy server logs tens of thousands a second), then copies the line
 * through a {@code StringBuilder} and a {@code String}. Here the date is formatted once a second,
 * the level and logger part once per logger, and the line is copied once. {@code
 * AccessLineEncoderTest} holds it to the pattern's output.
 *
 * <p>Not thread-safe: it keeps the last second's text. Only the writer thread encodes.
 */
final class AccessLineEncoder extends EncoderBase<ILoggingEvent> {
    private static final byte[] LINE_END = CoreConstants.LINE_SEPARATOR.getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOTHING = new byte[0];
    /** {@link AccessLogOutput#TEXT_PATTERN}'s date up to the milliseconds, which are added per line. */
    private static final String SECOND_PATTERN = "yyyy-MM-dd'T'HH:mm:ss.";

    /** Null for JSON lines: no prefix. */
    private final DateTimeFormatter seconds;

    private long second = Long.MIN_VALUE;
    private byte[] secondText = NOTHING;
    private Level level;
    private String loggerName;
    /** {@code " INFO  access - "} for the last level and logger seen. */
    private byte[] levelAndLogger = NOTHING;
    /**
     * Where a line, or a batch's lines, are put together; kept, so it grows no buffer once warm (to at
     * most a batch of lines, each value cut at {@link AccessLog#MAX_VALUE_CHARS} characters).
     */
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(AccessLogOutput.BUFFER_BYTES);

    private AccessLineEncoder(DateTimeFormatter seconds) {
        this.seconds = seconds;
    }

    /** Text lines, with the time in {@code zone} (logback's pattern uses the JVM's default zone). */
    static AccessLineEncoder text(ZoneId zone) {
        return new AccessLineEncoder(
                DateTimeFormatter.ofPattern(SECOND_PATTERN, Locale.ROOT).withZone(zone));
    }

    /** JSON lines: the message alone. */
    static AccessLineEncoder json() {
        return new AccessLineEncoder(null);
    }

    @Override
    public byte[] headerBytes() {
        return NOTHING;
    }

    @Override
    public byte[] footerBytes() {
        return NOTHING;
    }

    /** One line's bytes, or a {@link LineBatch}'s lines one after another in one array. */
    @Override
    public byte[] encode(ILoggingEvent event) {
        bytes.reset();
        if (event instanceof LineBatch batch) {
            for (ILoggingEvent line : batch.lines()) {
                write(line);
            }
        } else {
            write(event);
        }
        return bytes.toByteArray();
    }

    /** Appends one line to {@link #bytes}: each part copied once, straight into the buffer. */
    private void write(ILoggingEvent event) {
        if (seconds != null) {
            long millis = event.getTimeStamp();
            bytes.writeBytes(secondText(Math.floorDiv(millis, 1000)));
            int fraction = Math.floorMod(millis, 1000);
            bytes.write('0' + fraction / 100);
            bytes.write('0' + fraction / 10 % 10);
            bytes.write('0' + fraction % 10);
            bytes.writeBytes(levelAndLogger(event));
        }
        bytes.writeBytes(String.valueOf(event.getFormattedMessage()).getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(LINE_END);
    }

    private byte[] secondText(long epochSecond) {
        if (epochSecond != second) {
            secondText = seconds.format(Instant.ofEpochSecond(epochSecond)).getBytes(StandardCharsets.UTF_8);
            second = epochSecond;
        }
        return secondText;
    }

    /** {@code %-5level %logger{0} - }, with the space before it. */
    private byte[] levelAndLogger(ILoggingEvent event) {
        if (event.getLevel() != level || !event.getLoggerName().equals(loggerName)) {
            StringBuilder text = new StringBuilder(" ").append(event.getLevel());
            while (text.length() < 6) {
                text.append(' ');
            }
            String name = event.getLoggerName();
            text.append(' ').append(name.substring(name.lastIndexOf('.') + 1)).append(" - ");
            levelAndLogger = text.toString().getBytes(StandardCharsets.UTF_8);
            level = event.getLevel();
            loggerName = name;
        }
        return levelAndLogger;
    }
}
