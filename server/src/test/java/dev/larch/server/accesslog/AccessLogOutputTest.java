package dev.larch.server.accesslog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import dev.larch.config.LarchConfig;
import dev.larch.config.Logging;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccessLogOutputTest {
    private static final Logger ACCESS = (Logger) LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME);

    @TempDir
    Path dir;

    private static Logging logging(String format, Path file) {
        return LarchConfig.builder()
                .set("logging.access-log-format", format)
                .set("logging.access-log-file", file == null ? "" : file)
                .build()
                .logging();
    }

    @Test
    void textOnStandardOutputLeavesLogbackAsConfigured() {
        AccessLogOutput output = AccessLogOutput.install(logging(Logging.TEXT, null));
        assertTrue(ACCESS.isAdditive());
        assertFalse(ACCESS.iteratorForAppenders().hasNext());
        output.close();
    }

    @Test
    void jsonOnStandardOutputWritesBareMessagesOnlyThroughItsOwnAppender() {
        AccessLogOutput output = AccessLogOutput.install(logging(Logging.JSON, null));
        assertFalse(ACCESS.isAdditive());
        Appender<ILoggingEvent> appender = ACCESS.getAppender("larch-access-stdout");
        ConsoleAppender<?> console = assertInstanceOf(ConsoleAppender.class, appender);
        assertEquals("%msg%n", ((PatternLayoutEncoder) console.getEncoder()).getPattern());
        output.close();
        assertTrue(ACCESS.isAdditive());
        assertNull(ACCESS.getAppender("larch-access-stdout"));
    }

    /** The log names who bound from where and what they looked for: under umask 022 it was world-readable. */
    @Test
    void aNewAccessLogFileOnlyItsOwnerMayRead() throws Exception {
        Path file = dir.resolve("logs").resolve("access.log");
        AccessLogOutput output = AccessLogOutput.install(logging(Logging.TEXT, file));
        try {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        } finally {
            output.close();
        }
        // A file the operator made keeps the permissions the operator chose.
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        AccessLogOutput again = AccessLogOutput.install(logging(Logging.TEXT, file));
        again.close();
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void anUnwritableFileStopsTheStartWithTheKeyNamed() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("plain"), "x");
        IllegalStateException e = assertThrows(
                IllegalStateException.class,
                () -> AccessLogOutput.install(logging(Logging.JSON, notADirectory.resolve("access.log"))));
        assertTrue(e.getMessage().contains("(logging.access-log-file)"), e.getMessage());
        assertTrue(ACCESS.isAdditive());
    }
}
