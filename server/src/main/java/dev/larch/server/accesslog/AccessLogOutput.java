package dev.larch.server.accesslog;

import java.io.BufferedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import dev.larch.config.Logging;
import org.slf4j.LoggerFactory;

/**
 * Where the access lines go, set up on logback from the typed config at server start. The access
 * logger always gets an output of its own (logback.xml's standard output then carries the server log
 * only), behind a {@link QueuedAppender}: the thread that logs a line hands it to a bounded queue of
 * {@code logging.access-log-queue-lines} lines, and one writer thread formats and writes the lines in
 * batches, flushing whenever the queue runs empty. Where they go:
 *
 * <ul>
 *   <li>no file: standard output, through a {@value #BUFFER_BYTES}-byte buffer; text lines keep
 *       logback.xml's time and level prefix, JSON lines are the bare object;
 *   <li>a file: there only, through logback's rolling appender ({@link OwnerOnlyRollingFileAppender},
 *       buffered the same way), rolling over daily and at {@code logging.access-log-max-file-size},
 *       keeping {@code logging.access-log-max-history} days of rolled files within {@code
 *       logging.access-log-max-total-size}, gzipped only with {@code logging.access-log-compress} (gzip
 *       at each roll-over costs a busy server a few percent of its CPU).
 * </ul>
 *
 * The output is set up even when {@code logging.access-log} is off at start, so that a reload that
 * turns the log on ({@link AccessLogSwitch}) writes through it. The audit log ({@code
 * logging.audit-log-file}) gets its own rolling file, written synchronously as before (one line per
 * write operation, which the write itself far outweighs), its rolled files always gzipped and kept
 * {@code logging.audit-log-max-history} days with no cap on their size (an audit trail is not thinned
 * for disk); without one its logger has no appender and the server installs no {@link
 * AuditLoggingHandler}.
 *
 * {@link #close()} detaches and stops what {@link #install} attached: every line already queued is
 * written and flushed, and the files are closed. Not thread-safe; the server calls both from its start
 * and close.
 */
public final class AccessLogOutput implements AutoCloseable {
    /**
     * The pattern of logback.xml's standard output: text lines look the same in a file. The access
     * log writes it by hand ({@link AccessLineEncoder}); the pattern is the contract.
     */
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

    static final String JSON_PATTERN = "%msg%n";

    /** The name of the appender the access logger gets. */
    static final String ACCESS_APPENDER = "larch-access";

    /** The access log's buffer: a system call carries up to this many bytes of lines. */
    static final int BUFFER_BYTES = 64 * 1024;

    /** A logger and the appender this class gave it. */
    private record Attached(Logger logger, Appender<ILoggingEvent> appender) {}

    private final List<Attached> attached;

    private AccessLogOutput(List<Attached> attached) {
        this.attached = attached;
    }

    /**
     * Points the access logger where {@code logging} says, and the audit logger to its file when one
     * is set.
     *
     * @throws IllegalStateException when the access or audit log file cannot be opened for writing
     */
    public static AccessLogOutput install(Logging logging) {
        List<Attached> attached = new ArrayList<>();
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        try {
            OutputStreamAppender<ILoggingEvent> out = logging.accessLogFile() == null
                    ? standardOutput(context)
                    : rollingFile(
                            context,
                            "larch-access-file",
                            logging.accessLogFile(),
                            new Rolling(
                                    logging.accessLogMaxFileSize(),
                                    logging.accessLogMaxHistory(),
                                    logging.accessLogMaxTotalSize(),
                                    logging.accessLogCompress()));
            // The writer thread flushes when it has caught up; a flush per line is what this avoids.
            out.setImmediateFlush(false);
            start(
                    out,
                    logging.jsonAccessLog() ? AccessLineEncoder.json() : AccessLineEncoder.text(ZoneId.systemDefault()),
                    logging.accessLogFile() == null
                            ? "access log on standard output"
                            : "access log file " + logging.accessLogFile() + " (logging.access-log-file)");
            QueuedAppender queued = new QueuedAppender(out, logging.accessLogQueueLines());
            queued.setContext(context);
            queued.setName(ACCESS_APPENDER);
            queued.start();
            attached.add(attach(context, AccessLoggingHandler.LOGGER_NAME, queued));
            if (logging.auditLogFile() != null) {
                OutputStreamAppender<ILoggingEvent> audit = rollingFile(
                        context,
                        "larch-audit-file",
                        logging.auditLogFile(),
                        new Rolling(logging.auditLogMaxFileSize(), logging.auditLogMaxHistory(), 0, true));
                start(
                        audit,
                        pattern(context, JSON_PATTERN),
                        "audit log file " + logging.auditLogFile() + " (logging.audit-log-file)");
                attached.add(attach(context, AuditLoggingHandler.LOGGER_NAME, audit));
            }
        } catch (IllegalStateException e) {
            new AccessLogOutput(attached).close();
            throw e;
        }
        return new AccessLogOutput(List.copyOf(attached));
    }

    private static PatternLayoutEncoder pattern(LoggerContext context, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.setCharset(StandardCharsets.UTF_8);
        return encoder;
    }

    /** Gives {@code appender} its encoder and starts it. */
    private static void start(
            OutputStreamAppender<ILoggingEvent> appender, Encoder<ILoggingEvent> encoder, String what) {
        encoder.setContext(appender.getContext());
        encoder.start();
        appender.setEncoder(encoder);
        appender.start();
        if (!appender.isStarted()) {
            encoder.stop();
            throw new IllegalStateException("cannot write the " + what);
        }
    }

    private static Attached attach(LoggerContext context, String loggerName, Appender<ILoggingEvent> appender) {
        Logger logger = context.getLogger(loggerName);
        logger.addAppender(appender);
        // Only here: the root's text appender would write every line a second time.
        logger.setAdditive(false);
        return new Attached(logger, appender);
    }

    /** Standard output behind a buffer that only the access log's writer thread fills. */
    private static OutputStreamAppender<ILoggingEvent> standardOutput(LoggerContext context) {
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setName("larch-access-stdout");
        appender.setOutputStream(new BufferedOutputStream(new StandardOutput(System.out), BUFFER_BYTES));
        return appender;
    }

    /**
     * How a log file rolls over and what is kept of it.
     *
     * @param maxFileSize bytes after which the file rolls over
     * @param maxHistory days of rolled files kept
     * @param maxTotalSize bytes the rolled files may take together; 0 for no cap
     * @param gzip whether rolled files are gzipped
     */
    private record Rolling(long maxFileSize, int maxHistory, long maxTotalSize, boolean gzip) {}

    private static RollingFileAppender<ILoggingEvent> rollingFile(
            LoggerContext context, String name, Path file, Rolling rolling) {
        RollingFileAppender<ILoggingEvent> appender = new OwnerOnlyRollingFileAppender<>();
        appender.setContext(context);
        appender.setName(name);
        String path = file.toAbsolutePath().toString();
        appender.setFile(path);
        appender.setBufferSize(new FileSize(BUFFER_BYTES));
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(appender);
        // The config refuses a '%' in the path: %d and %i are the pattern's only tokens. Logback
        // gzips rolled files when the pattern ends in .gz, and renames them otherwise.
        policy.setFileNamePattern(path + ".%d{yyyy-MM-dd}.%i" + (rolling.gzip() ? ".gz" : ""));
        policy.setMaxFileSize(new FileSize(rolling.maxFileSize()));
        policy.setMaxHistory(rolling.maxHistory());
        if (rolling.maxTotalSize() > 0) {
            policy.setTotalSizeCap(new FileSize(rolling.maxTotalSize()));
        }
        policy.start();
        appender.setRollingPolicy(policy);
        return appender;
    }

    /** Where the lines go, for the start-up summary. */
    public static String describe(Logging logging) {
        if (!logging.accessLog()) {
            return "off";
        }
        return logging.accessLogFormat()
                + (logging.accessLogFile() == null
                        ? " on standard output"
                        : " to " + logging.accessLogFile().toAbsolutePath());
    }

    @Override
    public void close() {
        for (Attached a : attached) {
            a.logger().detachAppender(a.appender());
            a.logger().setAdditive(true);
            a.appender().stop();
        }
    }
}
