package dev.larch.server.accesslog;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

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
 * {@link #close()} detaches and stops what {@link #install} attached (flushing and closing the file).
 * Not thread-safe; the server calls both from its start and close.
 */
public final class AccessLogOutput implements AutoCloseable {
    /** The pattern of logback.xml's standard output: text lines look the same in a file. */
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSS} %-5level %logger{0} - %msg%n";

    static final String JSON_PATTERN = "%msg%n";

    private static final AccessLogOutput UNCHANGED = new AccessLogOutput(null, null);

    private final Logger logger;
    private final OutputStreamAppender<ILoggingEvent> appender;

    private AccessLogOutput(Logger logger, OutputStreamAppender<ILoggingEvent> appender) {
        this.logger = logger;
        this.appender = appender;
    }

    /**
     * Points the access logger where {@code logging} says.
     *
     * @throws IllegalStateException when the access log file cannot be opened for writing
     */
    public static AccessLogOutput install(Logging logging) {
        if (!logging.accessLog() || (!logging.jsonAccessLog() && logging.accessLogFile() == null)) {
            return UNCHANGED;
        }
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(logging.jsonAccessLog() ? JSON_PATTERN : TEXT_PATTERN);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender = logging.accessLogFile() == null
                ? console(context)
                : rollingFile(context, logging.accessLogFile(), logging);
        appender.setEncoder(encoder);
        appender.start();
        if (!appender.isStarted()) {
            encoder.stop();
            throw new IllegalStateException(
                    "cannot write the access log file " + logging.accessLogFile() + " (logging.access-log-file)");
        }
        Logger logger = context.getLogger(AccessLoggingHandler.LOGGER_NAME);
        logger.addAppender(appender);
        // Only here: the root's text appender would write every line a second time.
        logger.setAdditive(false);
        return new AccessLogOutput(logger, appender);
    }

    private static OutputStreamAppender<ILoggingEvent> console(LoggerContext context) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("larch-access-stdout");
        return console;
    }

    private static OutputStreamAppender<ILoggingEvent> rollingFile(LoggerContext context, Path file, Logging logging) {
        RollingFileAppender<ILoggingEvent> rolling = new OwnerOnlyRollingFileAppender<>();
        rolling.setContext(context);
        rolling.setName("larch-access-file");
        String name = file.toAbsolutePath().toString();
        rolling.setFile(name);
        SizeAndTimeBasedRollingPolicy<ILoggingEvent> policy = new SizeAndTimeBasedRollingPolicy<>();
        policy.setContext(context);
        policy.setParent(rolling);
        // The config refuses a '%' in the path: %d and %i are the pattern's only tokens.
        policy.setFileNamePattern(name + ".%d{yyyy-MM-dd}.%i.gz");
        policy.setMaxFileSize(new FileSize(logging.accessLogMaxFileSize()));
        policy.setMaxHistory(logging.accessLogMaxHistory());
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
        if (appender == null) {
            return;
        }
        logger.detachAppender(appender);
        logger.setAdditive(true);
        appender.stop();
    }
}
