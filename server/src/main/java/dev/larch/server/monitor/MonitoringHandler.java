package dev.larch.server.monitor;

import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.WireResultCode;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * Wraps a {@link RequestHandler} and counts into {@link ServerMetrics} what passes: each operation
 * when it arrives and when it ends (with its result code, entries sent and time taken), and connections
 * opening and closing; then passes each call on unchanged. Installed outside the rate quotas, so
 * requests refused for their rate are counted like any other. Each call costs a few counter increments
 * and, at the end of an operation, one histogram observation.
 *
 * <p>Thread-safe: one instance serves every connection.
 */
public final class MonitoringHandler implements RequestHandler {
    private final RequestHandler next;
    private final ServerMetrics metrics;

    public MonitoringHandler(RequestHandler next, ServerMetrics metrics) {
        this.next = next;
        this.metrics = metrics;
    }

    @Override
    public void handle(Operation operation) {
        OperationType type = OperationType.of(operation.request().getType());
        if (type != null) {
            metrics.initiated(type);
        }
        next.handle(operation);
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        OperationType type = OperationType.of(operation.request().getType());
        if (type != null) {
            if (response == null) {
                metrics.abandoned(type, operation.startNanos());
            } else {
                metrics.completed(type, WireResultCode.seen(response), operation.startNanos());
            }
            if (type == OperationType.SEARCH) {
                metrics.entriesSent(operation.entriesSent());
            }
        }
        next.ended(operation, response);
    }

    @Override
    public void connectionEvent(Session session, ConnectionEvent event) {
        switch (event) {
            case ConnectionEvent.Opened o -> metrics.connectionOpened();
            case ConnectionEvent.Closed c -> metrics.connectionClosed();
            case ConnectionEvent.AbandonReceived a -> metrics.done(OperationType.ABANDON);
            case ConnectionEvent.UnbindReceived u -> metrics.done(OperationType.UNBIND);
            case ConnectionEvent.Refused r -> {
                OperationType type = OperationType.of(r.response().getType());
                if (type != null) {
                    metrics.initiated(type);
                    metrics.completed(type, WireResultCode.seen(r.response()), r.startNanos());
                }
            }
            case ConnectionEvent.Disconnected d -> {}
            case ConnectionEvent.TlsEstablished t -> {}
        }
        next.connectionEvent(session, event);
    }
}
