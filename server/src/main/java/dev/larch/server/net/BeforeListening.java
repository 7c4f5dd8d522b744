package dev.larch.server.net;

/**
 * Work a listener runs on its own event loops after they start and before it binds its ports: the
 * server's self-warm-up. Nothing can connect to the server while it runs.
 */
@FunctionalInterface
public interface BeforeListening {
    /** Nothing: the ports are bound at once. */
    BeforeListening NOTHING = loopback -> {};

    /**
     * Runs before the ports are bound, on the starting thread. An exception it throws is logged by the
     * listener, which binds its ports anyway.
     *
     * @param loopback drives requests through the listener's connection pipeline over private loopback
     *     connections, on the listener's event loops
     */
    void run(LoopbackLoad loopback);
}
