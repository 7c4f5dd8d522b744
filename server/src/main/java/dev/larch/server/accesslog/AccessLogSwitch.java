package dev.larch.server.accesslog;

import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * The access log with an on/off switch ({@code logging.access-log}, which a reload may flip): while
 * off, events go straight to the handler inside, as if the log were not there. An operation that
 * ends after the switch flipped is logged as the switch stands at its end.
 *
 * <p>Thread-safe: the switch is one volatile flag.
 */
public final class AccessLogSwitch implements RequestHandler {
    private final RequestHandler plain;
    private final AccessLoggingHandler logging;
    private volatile boolean on;

    /**
     * @param plain the handler the log wraps
     * @param logging the log around {@code plain}
     * @param on whether lines are written at first
     */
    public AccessLogSwitch(RequestHandler plain, AccessLoggingHandler logging, boolean on) {
        this.plain = plain;
        this.logging = logging;
        this.on = on;
    }

    public void turn(boolean on) {
        this.on = on;
    }

    public boolean isOn() {
        return on;
    }

    @Override
    public void handle(Operation operation) {
        (on ? logging : plain).handle(operation);
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        (on ? logging : plain).ended(operation, response);
    }

    @Override
    public void connectionEvent(Session session, ConnectionEvent event) {
        (on ? logging : plain).connectionEvent(session, event);
    }
}
