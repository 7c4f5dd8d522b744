package dev.larch.server.read.sync;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.read.SyncRefresh;
import dev.larch.server.store.ChangeLogCursor;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.sync.SyncCookie;
import dev.larch.server.sync.SyncRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * Decides one refresh (RFC 4533 section 3.4) from the consumer's cookie and the change log, in the
 * snapshot the refresh reads:
 * <ul>
 *   <li>no state in the cookie: every entry in scope, parents before children, then a present phase's
 *       end (so the consumer removes whatever it holds beyond them);
 *   <li>a state the change log covers: the UUIDs of the entries deleted since, then the entries
 *       changed since (each once, as it is now), then a delete phase's end;
 *   <li>a state older than the log, with the reload hint: every entry in scope, those changed since in
 *       full and the others by UUID only, then a present phase's end; without the hint,
 *       e-syncRefreshRequired, as slapd answers.
 * </ul>
 * A state ahead of this server's own (a cookie from another directory, or from before a restore) is
 * refused with e-syncRefreshRequired too, so the consumer starts over rather than keeps a state this
 * server never had.
 *
 * <p>Memory: a delta refresh holds the IDs of the changed entries and the UUIDs of the deleted ones,
 * at most one per change log record ({@code replication.changelog-max-changes}); the other kinds hold
 * one batch of UUIDs. Used by one search at a time.
 */
final class Refresh implements SyncRefresh {
    private final int ourSid;
    private final SyncRequest request;
    private final int messageId;
    private final SyncProgress progress;
    private final boolean exemptFromLimits;

    /**
     * @param progress told of what the refresh sends, for monitoring
     * @param exemptFromLimits whether the search is held to no search limit
     */
    Refresh(int ourSid, SyncRequest request, int messageId, SyncProgress progress, boolean exemptFromLimits) {
        this.ourSid = ourSid;
        this.request = request;
        this.messageId = messageId;
        this.progress = progress;
        this.exemptFromLimits = exemptFromLimits;
    }

    @Override
    public boolean exemptFromLimits() {
        return exemptFromLimits;
    }

    @Override
    public Plan plan(ReadTxn txn, long baseId) {
        CsnVector context = contextOf(txn);
        CsnVector have =
                request.cookie() == null ? CsnVector.EMPTY : request.cookie().csns();
        refuseFuture(have, context);
        SyncCookie reply = reply(context);
        boolean persist = request.mode() == SyncRequest.Mode.REFRESH_AND_PERSIST;
        progress.refreshing(reply);
        if (have.isEmpty()) {
            return new Plan(
                    null, new RefreshShaper(messageId, CsnVector.EMPTY, false, reply, persist, List.of(), progress));
        }
        if (covered(txn, have, context)) {
            List<byte[]> deleted = new ArrayList<>();
            IdSet changed = changedSince(txn, have, deleted);
            return new Plan(changed, new RefreshShaper(messageId, null, true, reply, persist, deleted, progress));
        }
        if (!request.reloadHint()) {
            throw new ResultCodeException(
                    ResultCodeEnum.E_SYNC_REFRESH_REQUIRED,
                    "the cookie's state (csn=" + have.format() + ") is older than this server's change log"
                            + " (replication.changelog-max-changes, replication.changelog-max-age-seconds):"
                            + " refresh with the reload hint or without a cookie");
        }
        return new Plan(null, new RefreshShaper(messageId, have, false, reply, persist, List.of(), progress));
    }

    private SyncCookie reply(CsnVector context) {
        SyncCookie cookie = request.cookie();
        return cookie == null ? new SyncCookie(0, ourSid, context) : cookie.reply(ourSid, context);
    }

    /** The store's contextCSN in {@code txn}. */
    static CsnVector contextOf(ReadTxn txn) {
        List<Csn> csns = new ArrayList<>();
        for (byte[] csn : txn.contextCsns()) {
            csns.add(Csn.fromBytes(csn));
        }
        return CsnVector.of(csns);
    }

    /** A cookie claiming more of this server's changes than it ever made. */
    private void refuseFuture(CsnVector have, CsnVector context) {
        Csn claimed = have.get(ourSid);
        if (claimed == null) {
            return;
        }
        Csn ours = context.get(ourSid);
        if (ours == null || claimed.isAfter(ours)) {
            throw new ResultCodeException(
                    ResultCodeEnum.E_SYNC_REFRESH_REQUIRED,
                    "the cookie's CSN " + claimed + " of server " + ourSid + " is ahead of this server's ("
                            + (ours == null ? "none" : ours)
                            + "): it comes from another directory or from before a restore; refresh without a"
                            + " cookie");
        }
    }

    /**
     * Whether the log holds every change the consumer lacks: for each server ID of the contextCSN,
     * the consumer has its changes up to the log's floor at least, or all of them.
     */
    private static boolean covered(ReadTxn txn, CsnVector have, CsnVector context) {
        byte[] floorBytes = txn.changeLogFloor();
        if (floorBytes == null) {
            return true;
        }
        Csn floor = Csn.fromBytes(floorBytes);
        for (Csn latest : context.csns()) {
            Csn known = have.get(latest.sid());
            if (known == null) {
                return false;
            }
            if (known.compareTo(latest) < 0 && known.compareTo(floor) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Walks the log past the oldest CSN of the cookie: collects the UUIDs of deleted entries into
     * {@code deleted} and returns the IDs of entries added, modified or renamed, each change the
     * consumer lacks counted once.
     */
    private static IdSet changedSince(ReadTxn txn, CsnVector have, List<byte[]> deleted) {
        Csn oldest = null;
        for (Csn csn : have.csns()) {
            if (oldest == null || csn.compareTo(oldest) < 0) {
                oldest = csn;
            }
        }
        IdSet.Builder changed = new IdSet.Builder();
        try (ChangeLogCursor log = txn.changesAfter(oldest.toBytes())) {
            for (LoggedChange change = log.next(); change != null; change = log.next()) {
                Csn csn = Csn.fromBytes(change.csn());
                Csn known = have.get(csn.sid());
                if (known != null && !csn.isAfter(known)) {
                    continue;
                }
                if (change.kind() == LoggedChange.Kind.DELETE) {
                    deleted.add(change.uuid());
                } else {
                    changed.add(change.entryId());
                }
            }
        }
        return changed.build();
    }
}
