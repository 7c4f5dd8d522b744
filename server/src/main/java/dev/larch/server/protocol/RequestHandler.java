package dev.larch.server.protocol;

import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * Serves decoded requests. The protocol layer calls {@link #handle} for every request except
 * Abandon and Unbind, which it handles itself, and tells the handler how each operation ended and
 * what else happened on the connection, so that cross-cutting concerns (the access log) can be
 * decorators around the handler rather than parts of the protocol layer.
 *
 * <p>All methods are called on the connection's event loop; an implementation must not block
 * there (hand slow work such as writes to its own executor). Thread-safe: one instance serves all
 * connections.
 */
@FunctionalInterface
public interface RequestHandler {

    void handle(Operation operation);

    /**
     * Called at most once per operation the protocol layer created, when it ended: right after its
     * final {@code response} was written, or with {@code response} null when it was abandoned
     * (by the client, a bind, an unbind or the connection closing). Also called for operations
     * answered without reaching {@link #handle}, such as those refused while the server shuts
     * down. Not called for a response dropped because the connection was already closing.
     */
    default void ended(Operation operation, ResultResponse response) {}

    /** Called for each connection-level event; see {@link ConnectionEvent}. */
    default void connectionEvent(Session session, ConnectionEvent event) {}
}
