package dev.larch.server.accesslog;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import ch.qos.logback.classic.Logger;
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

    /** What the access log writes to standard output while {@code run} runs, flushed by close. */
    private static String standardOutputOf(Logging logging, Runnable run) {
        PrintStream was = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            AccessLogOutput output = AccessLogOutput.install(logging);
            try {
                assertFalse(ACCESS.isAdditive());
                assertInstanceOf(QueuedAppender.class, ACCESS.getAppender(AccessLogOutput.ACCESS_APPENDER));
                run.run();
            } finally {
                output.close();
            }
        } finally {
            System.setOut(was);
        }
        assertTrue(ACCESS.isAdditive());
        assertNull(ACCESS.getAppender(AccessLogOutput.ACCESS_APPENDER));
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** The default output: logback.xml's prefix, the lines in order, all of them written by close. */
    @Test
    void textOnStandardOutputKeepsItsPrefixAndOrderAndIsAllWrittenByClose() {
        String out = standardOutputOf(logging(Logging.TEXT, null), () -> {
            for (int i = 0; i < 1000; i++) {
                ACCESS.info("conn=1 op={} UNBIND", i);
            }
        });
        // The test's root appender shares standard output: keep the access lines.
        List<String> lines = out.lines().filter(l -> l.contains(" access - ")).toList();
        assertEquals(1000, lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            assertTrue(
                    line.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  access - conn=1 op=" + i
                            + " UNBIND"),
                    line);
        }
    }

    @Test
    void jsonOnStandardOutputIsTheBareObjectPerLine() {
        String out = standardOutputOf(logging(Logging.JSON, null), () -> ACCESS.info("{\"conn\":1}"));
        assertTrue(out.lines().anyMatch(l -> l.equals("{\"conn\":1}")), out);
    }

    /** A reload may turn the log on later: its lines then take the same queued path. */
    @Test
    void anAccessLogOffAtStartStillHasItsOutputForAReloadToTurnOn() {
        Logging off =
                LarchConfig.builder().set("logging.access-log", false).build().logging();
        String out = standardOutputOf(off, () -> ACCESS.info("conn=2 closed"));
        assertTrue(out.lines().anyMatch(l -> l.endsWith(" INFO  access - conn=2 closed")), out);
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
