package dev.larch.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process ignores SIGHUP, read from Linux's {@code /proc/PID/status} ({@code SigIgn}, a hex
 * mask whose lowest bit is signal 1, HUP). A process started with SIGHUP ignored (under {@code
 * nohup}, or by a parent that ignores it) keeps ignoring it: the JVM does not install a handler over
 * an ignored SIGHUP, so such a server never reloads, and a {@code kill -HUP} to it succeeds and does
 * nothing. {@code ./larch reload} checks first, so that it can say so instead of "sent".
 */
final class IgnoredHangup {
    private static final String FIELD = "SigIgn:";

    private IgnoredHangup() {}

    /** Whether process {@code pid} ignores SIGHUP; false when that cannot be read (not Linux, gone). */
    static boolean ignoredBy(long pid) {
        try {
            return ignoredIn(Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether a {@code /proc/PID/status} text says SIGHUP is ignored. */
    static boolean ignoredIn(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith(FIELD)) {
                String mask = line.substring(FIELD.length()).strip();
                // The lowest hex digit holds signals 1 to 4; HUP is its lowest bit.
                return !mask.isEmpty() && (Character.digit(mask.charAt(mask.length() - 1), 16) & 1) == 1;
            }
        }
        return false;
    }
}
