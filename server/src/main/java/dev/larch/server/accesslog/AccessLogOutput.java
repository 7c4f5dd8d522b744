package dev.larch.server.accesslog;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeAndTimeBasedRollingPolicy;
import ch.qos.logback.core.util.FileSize;
import dev.larch.config.Logging;
import org.slf4j.LoggerFactory;

/**
 * Where the access lines go, set up on logback from the typed config at server start (logback.xml
 * sends every logger, the access log included, to standard output as text lines with a time and
 * level prefix; this class changes that only when the config asks):
 *
 * <ul>
 *   <li>text, no file: nothing changes;
 *   <li>json, no file: the access logger gets its own standard-output appender that writes the bare
 *       message, so each line is exactly one JSON object;
 *   <li>a file: the access logger writes there only, through logback's rolling appender, rolling over
 *       daily and at {@code logging.access-log-max-file-size}, gzipping rolled files and keeping
 *       {@code logging.access-log-max-history} days of them. Text lines keep their prefix there.
 * </ul>
 *
 * The audit log ({@code logging.audit-log-file}) gets its own rolling file the same way; without one
 * its logger has no appender and the server installs no {@link AuditLoggingHandler}.
 *
 * {@link #close()} detaches and stops what {@link #install} attached (flushing and closing the files).
 * Not thread-safe; the server calls both from its start and close.
 */
public final class AccessLogOutput implements AutoCloseable {
    /** The pattern of logback.xml's standard output: text lines look the same in a file. */
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

    static final String JSON_PATTERN = "%msg%n";

    /** A logger and the appender this class gave it. */
    private record Attached(Logger logger, OutputStreamAppender<ILoggingEvent> appender) {}

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
            if (logging.accessLog() && (logging.jsonAccessLog() || logging.accessLogFile() != null)) {
                OutputStreamAppender<ILoggingEvent> appender = logging.accessLogFile() == null
                        ? console(context)
                        : rollingFile(
                                context,
                                "larch-access-file",
                                logging.accessLogFile(),
                                logging.accessLogMaxFileSize(),
                                logging.accessLogMaxHistory());
                attached.add(attach(
                        context,
                        AccessLoggingHandler.LOGGER_NAME,
                        appender,
                        logging.jsonAccessLog() ? JSON_PATTERN : TEXT_PATTERN,
                        "access log file " + logging.accessLogFile() + " (logging.access-log-file)"));
            }
            if (logging.auditLogFile() != null) {
                attached.add(attach(
                        context,
                        AuditLoggingHandler.LOGGER_NAME,
                        rollingFile(
                                context,
                                "larch-audit-file",
                                logging.auditLogFile(),
                                logging.auditLogMaxFileSize(),
                                logging.auditLogMaxHistory()),
                        JSON_PATTERN,
                        "audit log file " + logging.auditLogFile() + " (logging.audit-log-file)"));
            }
        } catch (IllegalStateException e) {
            new AccessLogOutput(attached).close();
            throw e;
        }
        return new AccessLogOutput(List.copyOf(attached));
    }

    private static Attached attach(
            LoggerContext context,
            String loggerName,
            OutputStreamAppender<ILoggingEvent> appender,
            String pattern,
            String what) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        appender.setEncoder(encoder);
        appender.start();
        if (!appender.isStarted()) {
            encoder.stop();
            throw new IllegalStateException("cannot write the " + what);
        }
        Logger logger = context.getLogger(loggerName);
        logger.addAppender(appender);
        // Only here: the root's text appender would write every line a second time.
        logger.setAdditive(false);
        return new Attached(logger, appender);
    }

    private static OutputStreamAppender<ILoggingEvent> console(LoggerContext context) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("larch-access-stdout");
        return console;
    }

    private static OutputStreamAppender<ILoggingEvent> rollingFile(
            LoggerContext context, String name, Path file, long maxFileSize, int maxHistory) {
        RollingFileAppender<ILoggingEvent> rolling = new OwnerOnlyRollingFileAppender<>();
        rolling.setContext(context);
        rolling.setName(name);
        String path = file.toAbsolutePath().toString();
        rolling.setFile(path);
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(rolling);
        // The config refuses a '%' in the path: %d and %i are the pattern's only tokens.
        policy.setFileNamePattern(path + ".%d{yyyy-MM-dd}.%i.gz");
        policy.setMaxFileSize(new FileSize(maxFileSize));
        policy.setMaxHistory(maxHistory);
        policy.start();
        rolling.setRollingPolicy(policy);
        return rolling;
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
