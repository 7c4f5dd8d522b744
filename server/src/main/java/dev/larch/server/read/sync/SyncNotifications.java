package dev.larch.server.read.sync;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.directory.DirectoryChange;
import dev.larch.server.read.psearch.NotificationShaper;
import dev.larch.server.sync.SyncCookie;
import dev.larch.server.sync.SyncResponses;
import dev.larch.server.sync.SyncState;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.SearchResultEntryImpl;
import org.apache.directory.api.ldap.model.message.controls.ChangeType;

/**
 * The persist stage of a refreshAndPersist sync search: each later change, in commit order, as an
 * entry with a Sync State control carrying the change's cookie: add, modify (a rename too: slapd knows
 * no other state for it) or delete (the DN only, no attribute). Changes stamped by the consumer's own
 * server ID are not sent back to it; entries renamed only because an ancestor was are not sent either
 * (the consumer renames the ancestor and so moves them).
 *
 * <p>Runs on the writer thread (see {@link NotificationShaper}).
 */
final class SyncNotifications implements NotificationShaper {
    private final int ourSid;
    private final SyncCookie cookie;
    private final SyncProgress progress;
    private final Runnable onEnded;

    /**
     * @param cookie the consumer's cookie (its rid echoed, its sid not sent back to); null when it sent none
     * @param onEnded run once when the search stops waiting for changes
     */
    SyncNotifications(int ourSid, SyncCookie cookie, SyncProgress progress, Runnable onEnded) {
        this.ourSid = ourSid;
        this.cookie = cookie;
        this.progress = progress;
        this.onEnded = onEnded;
    }

    @Override
    public boolean wants(DirectoryChange change) {
        if (change.csn() == null) {
            return false;
        }
        // A cookie naming this server's own ID is one a client echoed back, not a peer's.
        boolean fromPeer = cookie != null && cookie.hasSid() && cookie.sid() != ourSid;
        return !fromPeer || Csn.fromBytes(change.csn()).sid() != cookie.sid();
    }

    @Override
    public SearchResultEntry shape(DirectoryChange change, SearchResultEntry screened) {
        Csn csn = Csn.fromBytes(change.csn());
        SyncCookie state =
                cookie == null ? new SyncCookie(0, ourSid, CsnVector.of(csn)) : cookie.reply(ourSid, CsnVector.of(csn));
        byte[] uuid = EntryStamps.uuid(change.entry());
        SearchResultEntry sent = EntryStamps.withoutComputed(screened);
        SyncState kind;
        if (change.type() == ChangeType.DELETE) {
            sent = new SearchResultEntryImpl(screened.getMessageId());
            sent.setObjectName(screened.getObjectName());
            kind = SyncState.DELETE;
        } else {
            kind = change.type() == ChangeType.ADD ? SyncState.ADD : SyncState.MODIFY;
        }
        sent.addControl(SyncResponses.state(kind, uuid, state));
        progress.sentChange(csn.toString());
        return sent;
    }

    @Override
    public void ended() {
        progress.ended();
        onEnded.run();
    }
}
