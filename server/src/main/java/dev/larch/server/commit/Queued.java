package dev.larch.server.commit;

/** What waits in the {@link WriteQueue}: a write, or an action to run between two write transactions. */
sealed interface Queued permits WriteTask, Queued.Between {

    /**
     * An action run on the writer thread with no write transaction open: every write queued before it
     * has finished, none queued after it has begun.
     */
    record Between(Runnable action) implements Queued {}
}
