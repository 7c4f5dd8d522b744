package dev.larch.server.net;

/** User events the listener fires into each connection when stopping. */
enum ShutdownNotice {
    /**
     * The listener stopped taking requests and waits for those in flight: operations waiting for a
     * client that does not read (paused searches) are abandoned rather than waited for.
     */
    DRAINING,
    /** The wait is over: the dispatcher sends a Notice of Disconnection (unavailable) and closes. */
    INSTANCE
}
