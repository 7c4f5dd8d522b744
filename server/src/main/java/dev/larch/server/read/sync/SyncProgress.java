package dev.larch.server.read.sync;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.larch.server.sync.SyncCookie;
import dev.larch.server.sync.SyncRequest;

/**
 * What one consumer's sync search has done, for {@code cn=Monitor} and the metrics endpoint: who it
 * is, its mode and phase, how many entries it was sent and the state it was sent up to. Written by
 * the search's threads, read by the monitor's; thread-safe.
 */
public final class SyncProgress {
    /** Where a sync search stands. */
    public enum Phase {
        REFRESH,
        PERSIST,
        ENDED
    }

    private final String identity;
    private final long connection;
    private final SyncRequest.Mode mode;
    private final AtomicLong entriesSent = new AtomicLong();
    /** Shared by every sync search of the server: what all of them sent since start. */
    private final AtomicLong allSent;

    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.REFRESH);
    private final AtomicReference<String> sentUpTo = new AtomicReference<>("");

    /**
     * @param identity the consumer's bind DN ("" for anonymous)
     * @param connection the connection's ID
     * @param allSent counts the entries sent by every sync search; this one's are added to it
     */
    SyncProgress(String identity, long connection, SyncRequest.Mode mode, AtomicLong allSent) {
        this.identity = identity;
        this.connection = connection;
        this.mode = mode;
        this.allSent = allSent;
    }

    void refreshing(SyncCookie target) {
        phase.set(Phase.REFRESH);
    }

    void sent() {
        entriesSent.incrementAndGet();
        allSent.incrementAndGet();
    }

    /** The refresh reached {@code cookie}'s state; in refreshAndPersist mode changes follow. */
    void refreshed(SyncCookie cookie) {
        sentUpTo.set(cookie.csns().format());
        phase.set(mode == SyncRequest.Mode.REFRESH_AND_PERSIST ? Phase.PERSIST : Phase.ENDED);
    }

    /** A change stamped {@code csn} was sent. */
    void sentChange(String csn) {
        entriesSent.incrementAndGet();
        allSent.incrementAndGet();
        sentUpTo.set(csn);
    }

    void ended() {
        phase.set(Phase.ENDED);
    }

    public String identity() {
        return identity;
    }

    public long connection() {
        return connection;
    }

    public SyncRequest.Mode mode() {
        return mode;
    }

    public Phase phase() {
        return phase.get();
    }

    public long entriesSent() {
        return entriesSent.get();
    }

    /** The CSNs of the state the consumer was last sent (its last cookie's), "" before the first. */
    public String sentUpTo() {
        return sentUpTo.get();
    }
}
