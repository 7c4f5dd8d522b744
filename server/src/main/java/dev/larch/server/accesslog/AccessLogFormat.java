package dev.larch.server.accesslog;

import java.util.Locale;

import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/** How access lines are written ({@code logging.access-log-format}). */
public enum AccessLogFormat {
    /** {@code conn=7 op=2 SEARCH base="..." ...}: see {@link AccessLog}. */
    TEXT,
    /** One JSON object per line: see {@link JsonAccessLog}. */
    JSON;

    /** The format a config word names ({@code text} or {@code json}, any case). */
    public static AccessLogFormat of(String word) {
        return valueOf(word.toUpperCase(Locale.ROOT));
    }

    AccessLines lines() {
        return switch (this) {
            case TEXT -> AccessLog.TEXT;
            case JSON -> JsonAccessLog.JSON;
        };
    }

    /**
     * The line this format writes for a completed operation, without writing it: for benchmarks and
     * tests of the format.
     *
     * @param response the final response; null for an abandoned operation
     * @param startNanos the {@link System#nanoTime()} the operation started at
     */
    public String operationLine(
            Session session,
            Message request,
            ResultResponse response,
            int entries,
            long startNanos,
            PasswordAttributes passwords) {
        return lines().completedLine(session, request, response, entries, startNanos, passwords);
    }
}
