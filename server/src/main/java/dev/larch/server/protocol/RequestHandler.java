package dev.larch.server.protocol;

/**
 * Serves decoded requests. The protocol layer calls it for every request except Abandon and
 * Unbind, which it handles itself.
 *
 * <p>Called on the connection's event loop; an implementation must not block there (hand slow
 * work such as writes to its own executor). Thread-safe: one instance serves all connections.
 */
@FunctionalInterface
public interface RequestHandler {
    void handle(Operation operation);
}
