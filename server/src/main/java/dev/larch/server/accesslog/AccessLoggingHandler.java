package dev.larch.server.accesslog;

import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * Wraps a {@link RequestHandler} and writes the access log (see {@link AccessLog} for the text lines,
 * {@link JsonAccessLog} for the JSON ones) as operations end and connection events happen, then passes
 * each call on. Where the lines go (standard output, a rotated file) is {@link AccessLogOutput}'s job. Installed only when
 * {@code logging.access-log} is on, so a server without an access log does no work for it.
 * Thread-safe when the wrapped handler is.
 */
public final class AccessLoggingHandler implements RequestHandler {

    /** The SLF4J logger the lines go to, at INFO. */
    public static final String LOGGER_NAME = "larch.access";

    private final RequestHandler next;
    private final PasswordAttributes passwords;
    private final AccessLines lines;

    /** A text log that masks the standard password attributes. */
    public AccessLoggingHandler(RequestHandler next) {
        this(next, PasswordAttributes.STANDARD);
    }

    /** @param passwords the attributes whose assertion values are masked */
    public AccessLoggingHandler(RequestHandler next, PasswordAttributes passwords) {
        this(next, passwords, AccessLogFormat.TEXT);
    }

    /**
     * @param passwords the attributes whose assertion values are masked
     * @param format how the lines are written
     */
    public AccessLoggingHandler(RequestHandler next, PasswordAttributes passwords, AccessLogFormat format) {
        this.next = next;
        this.passwords = passwords;
        this.lines = format.lines();
    }

    @Override
    public void handle(Operation operation) {
        next.handle(operation);
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        lines.completed(
                operation.session(),
                operation.request(),
                response,
                operation.entriesSent(),
                operation.startNanos(),
                passwords);
        next.ended(operation, response);
    }

    @Override
    public void connectionEvent(Session session, ConnectionEvent event) {
        switch (event) {
            case ConnectionEvent.Opened o -> lines.opened(session);
            case ConnectionEvent.Closed c -> lines.closed(session);
            case ConnectionEvent.AbandonReceived a -> lines.abandon(session, a.request());
            case ConnectionEvent.UnbindReceived u -> lines.unbind(session, u.request());
            case ConnectionEvent.Refused r -> lines.refused(session, r.response(), r.startNanos());
            case ConnectionEvent.Disconnected d -> lines.disconnect(session, d.notice());
            case ConnectionEvent.TlsEstablished t -> lines.tls(session, t.tls());
        }
        next.connectionEvent(session, event);
    }
}
