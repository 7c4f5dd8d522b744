package dev.larch.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Logging settings.
 *
 * @param accessLog whether one line is logged per completed operation
 * @param level the root log level, one of {@link #LEVELS}; never null
 * @param accessLogFormat how access lines are written, one of {@link #ACCESS_LOG_FORMATS}: {@code text}
 *     (the key=value lines) or {@code json} (one JSON object per line); never null
 * @param accessLogFile where access lines go instead of standard output, rotated by size and day; null
 *     for standard output
 * @param accessLogMaxFileSize bytes after which the access log file is rolled over; at least 1 KiB
 * @param accessLogMaxHistory how many days of rolled-over access log files are kept; at least 1
 * @param accessLogMaxTotalSize bytes the rolled-over access log files may take together before the oldest
 *     are deleted; 0 for no cap
 * @param accessLogCompress whether rolled-over access log files are gzipped
 * @param accessLogQueueLines how many access lines wait at most for the access log's writer thread;
 *     at least 16 (a thread that finds the queue full waits for room)
 * @param auditLogFile where the audit log (one LDIF change record per successful write: who, when,
 *     from where, the changes, passwords masked) goes; null for none
 * @param auditLogMaxFileSize bytes after which the audit log file is rolled over; at least 1 KiB
 * @param auditLogMaxHistory how many days of rolled-over audit log files are kept; at least 1
 */
public record Logging(
        boolean accessLog,
        String level,
        String accessLogFormat,
        Path accessLogFile,
        long accessLogMaxFileSize,
        int accessLogMaxHistory,
        long accessLogMaxTotalSize,
        boolean accessLogCompress,
        int accessLogQueueLines,
        Path auditLogFile,
        long auditLogMaxFileSize,
        int auditLogMaxHistory) {
    /** The accepted levels, in SLF4J spelling. */
    public static final List<String> LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

    /** {@code logging.access-log-format = text}: the key=value lines. */
    public static final String TEXT = "text";
    /** {@code logging.access-log-format = json}: one JSON object per line. */
    public static final String JSON = "json";
    /** The accepted access log formats. */
    public static final List<String> ACCESS_LOG_FORMATS = List.of(TEXT, JSON);
    /** The smallest {@code logging.access-log-queue-lines}. */
    public static final int MIN_ACCESS_LOG_QUEUE_LINES = 16;

    public Logging {
        Objects.requireNonNull(level, "level");
        if (!ACCESS_LOG_FORMATS.contains(accessLogFormat)) {
            throw new IllegalArgumentException("accessLogFormat must be one of " + ACCESS_LOG_FORMATS);
        }
        if (accessLogMaxFileSize < 1024) {
            throw new IllegalArgumentException("accessLogMaxFileSize must be at least 1024 bytes");
        }
        if (accessLogMaxHistory < 1) {
            throw new IllegalArgumentException("accessLogMaxHistory must be at least 1");
        }
        if (accessLogMaxTotalSize < 0) {
            throw new IllegalArgumentException("accessLogMaxTotalSize must be 0 (no cap) or more");
        }
        if (accessLogQueueLines < MIN_ACCESS_LOG_QUEUE_LINES) {
            throw new IllegalArgumentException("accessLogQueueLines must be at least " + MIN_ACCESS_LOG_QUEUE_LINES);
        }
        if (auditLogMaxFileSize < 1024) {
            throw new IllegalArgumentException("auditLogMaxFileSize must be at least 1024 bytes");
        }
        if (auditLogMaxHistory < 1) {
            throw new IllegalArgumentException("auditLogMaxHistory must be at least 1");
        }
    }

    /** Whether access lines are written as JSON. */
    public boolean jsonAccessLog() {
        return JSON.equals(accessLogFormat);
    }
}
