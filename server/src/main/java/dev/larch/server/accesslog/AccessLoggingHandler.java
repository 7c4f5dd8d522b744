package dev.larch.server.accesslog;

import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * Wraps a {@link RequestHandler} and writes the access log (see {@link AccessLog} for the lines)
 * as operations end and connection events happen, then passes each call on. Installed only when
 * {@code logging.access-log} is on, so a server without an access log does no work for it.
 * Thread-safe when the wrapped handler is.
 */
public final class AccessLoggingHandler implements RequestHandler {

    /** The SLF4J logger the lines go to, at INFO. */
    public static final String LOGGER_NAME = "larch.access";

    private final RequestHandler next;
    private final PasswordAttributes passwords;

    /** A log that masks the standard password attributes. */
    public AccessLoggingHandler(RequestHandler next) {
        this(next, PasswordAttributes.STANDARD);
    }

    /** @param passwords the attributes whose assertion values are masked */
    public AccessLoggingHandler(RequestHandler next, PasswordAttributes passwords) {
        this.next = next;
        this.passwords = passwords;
    }

    @Override
    public void handle(Operation operation) {
        next.handle(operation);
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        AccessLog.completed(
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
            case ConnectionEvent.Opened o -> AccessLog.opened(session);
            case ConnectionEvent.Closed c -> AccessLog.closed(session);
            case ConnectionEvent.AbandonReceived a -> AccessLog.abandon(session, a.request());
            case ConnectionEvent.UnbindReceived u -> AccessLog.unbind(session, u.request());
            case ConnectionEvent.Refused r -> AccessLog.refused(session, r.response(), r.startNanos());
            case ConnectionEvent.Disconnected d -> AccessLog.disconnect(session, d.notice());
            case ConnectionEvent.TlsEstablished t -> AccessLog.tls(session, t.tls());
        }
        next.connectionEvent(session, event);
    }
}
