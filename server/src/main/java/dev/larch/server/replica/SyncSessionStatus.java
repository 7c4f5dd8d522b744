package dev.larch.server.replica;

import java.time.Instant;

/**
 * What one sync session is doing, as the monitor shows it: a snapshot, taken by {@link SyncSession#status()}.
 *
 * @param providerUrl the provider as configured
 * @param rid the replica ID
 * @param state what the session is doing now
 * @param lastCookie the last cookie the provider sent (handed to the sink); null before the first
 * @param changesReceived changes handed to the sink since start (entries, deletes, presents, ID sets,
 *     cookies and phase ends alike)
 * @param lastError the last failure, one line; null when none happened
 * @param lastErrorAt when it happened; null when none happened
 * @param connects connections established since start (TCP connected)
 */
public record SyncSessionStatus(
        String providerUrl,
        int rid,
        State state,
        String lastCookie,
        long changesReceived,
        String lastError,
        Instant lastErrorAt,
        long connects) {

    /** The states of a session. */
    public enum State {
        /** Connecting, negotiating TLS or binding. */
        CONNECTING,
        /** A sync search is in its refresh stage. */
        REFRESH,
        /** A refreshAndPersist search is in its persist stage. */
        PERSIST,
        /** refreshOnly: between two searches. */
        IDLE,
        /** Waiting before reconnecting after a failure. */
        RETRYING,
        /** Closed: it never reconnects. */
        CLOSED
    }
}
