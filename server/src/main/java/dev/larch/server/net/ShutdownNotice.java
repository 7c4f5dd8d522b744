package dev.larch.server.net;

/**
 * User event the listener fires into each connection when stopping: the dispatcher answers it with a
 * Notice of Disconnection (unavailable) and closes.
 */
enum ShutdownNotice {
    INSTANCE
}
