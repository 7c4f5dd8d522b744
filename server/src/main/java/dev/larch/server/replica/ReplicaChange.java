package dev.larch.server.replica;

import java.util.List;

import dev.larch.server.sync.SyncCookie;
import org.apache.directory.api.ldap.model.entry.Entry;

/**
 * One thing a provider sent in a sync search (RFC 4533 sections 3.3–3.4), as a sync session hands it
 * to its {@link ReplicaSink}, in the order received. UUIDs are the 16 bytes of the Sync State control
 * or syncIdSet. A cookie is null where the provider sent none (entries of a refresh usually carry
 * none; each change of the persist stage carries one).
 */
public sealed interface ReplicaChange {

    /** The cookie this change brings the replica to; null when it brings none. */
    SyncCookie cookie();

    /**
     * A new sync search begins (after every connect and every e-syncRefreshRequired): entries marked
     * present by an earlier, unfinished search no longer count.
     *
     * @param sent the cookie the search was sent with; null for none (a full refresh)
     */
    record RefreshStarted(SyncCookie sent) implements ReplicaChange {
        @Override
        public SyncCookie cookie() {
            return null;
        }
    }

    /**
     * An entry in full, with the state add or modify (or present, where a provider sends one with its
     * attributes): the replica holds it as sent, matched by UUID, and it counts as present.
     *
     * @param entry as the provider sent it, attributes not checked against any schema yet
     */
    record Upsert(byte[] uuid, Entry entry, SyncCookie cookie) implements ReplicaChange {}

    /** A Sync State delete: the entry of this UUID is gone ({@code dn} as the provider named it). */
    record Deleted(byte[] uuid, String dn, SyncCookie cookie) implements ReplicaChange {}

    /** A Sync State present without attributes: the entry of this UUID is unchanged and present. */
    record Present(byte[] uuid) implements ReplicaChange {
        @Override
        public SyncCookie cookie() {
            return null;
        }
    }

    /**
     * A syncIdSet Sync Info message: the entries of these UUIDs are present ({@code deletes} false) or
     * deleted ({@code deletes} true).
     */
    record IdSet(List<byte[]> uuids, boolean deletes, SyncCookie cookie) implements ReplicaChange {}

    /**
     * The end of a refresh phase: a refreshPresent or refreshDelete Sync Info message, or the Sync Done
     * control of a refreshOnly search's result. After a present phase ({@code presentPhase} true) every
     * replicated entry not marked present since {@link RefreshStarted} is deleted; after a delete phase
     * nothing more is.
     *
     * @param refreshDone whether the refresh stage is over (persist follows, or the search ended)
     */
    record PhaseEnd(boolean presentPhase, boolean refreshDone, SyncCookie cookie) implements ReplicaChange {}

    /** A newcookie Sync Info message: the state moved without an entry to carry it. */
    record NewCookie(SyncCookie cookie) implements ReplicaChange {}
}
