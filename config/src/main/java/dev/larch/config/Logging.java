package dev.larch.config;

import java.util.List;
import java.util.Objects;

/**
 * Logging settings.
 *
 * @param accessLog whether one line is logged per completed operation
 * @param level the root log level, one of {@link #LEVELS}; never null
 */
public record Logging(boolean accessLog, String level) {
    /** The accepted levels, in SLF4J spelling. */
    public static final List<String> LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF");

    public Logging {
        Objects.requireNonNull(level, "level");
    }
}
