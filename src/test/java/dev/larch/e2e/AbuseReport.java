package dev.larch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The figures the abuse, idle-connection and crash tests measured, printed and appended to
 * {@code target/abuse-report.txt} (in the e2e module), which starts empty in every test JVM.
 * Thread-safe.
 */
final class AbuseReport {
    static final Path FILE = Path.of("target", "abuse-report.txt");

    private static boolean started;

    private AbuseReport() {}

    static synchronized void record(String test, String figures) {
        String line = test + ": " + figures;
        System.out.println("[abuse-report] " + line);
        try {
            Files.createDirectories(FILE.getParent());
            if (!started) {
                Files.deleteIfExists(FILE);
                started = true;
            }
            Files.writeString(
                    FILE,
                    line + System.lineSeparator(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
