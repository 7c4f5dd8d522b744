package dev.larch.server.read.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.read.ResultShaper;
import dev.larch.server.sync.SyncCookie;
import dev.larch.server.sync.SyncResponses;
import dev.larch.server.sync.SyncState;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;

/**
 * What a refresh sends: each entry in full with a Sync State control (state add), or, in a present
 * phase, an entry the consumer already has by its UUID only, in syncIdSet batches of {@value
 * SyncResponses#MAX_SYNC_ID_SET}; the UUIDs of deleted entries first, in a delete phase; and at the end
 * the phase's end with the new cookie: a Sync Info message with refreshDone in refreshAndPersist mode,
 * a Sync Done control on the search's result in refreshOnly mode.
 *
 * <p>Memory: one batch of UUIDs, and the deleted UUIDs handed in. Used by one thread at a time.
 */
final class RefreshShaper implements ResultShaper {
    private final int messageId;
    private final CsnVector have;
    private final boolean deletePhase;
    private final SyncCookie reply;
    private final boolean persist;
    private final List<byte[]> deleted;
    private final SyncProgress progress;
    private List<byte[]> present = new ArrayList<>();

    /**
     * @param have the consumer's state: entries no newer go by UUID only; empty or null to send every
     *     entry in full
     * @param deletePhase whether this refresh is a delete phase (the consumer keeps what it is not
     *     sent) rather than a present phase (it removes what it is not sent)
     * @param reply the cookie of the state the refresh reaches
     * @param deleted the UUIDs of entries deleted since the consumer's state, sent first
     */
    RefreshShaper(
            int messageId,
            CsnVector have,
            boolean deletePhase,
            SyncCookie reply,
            boolean persist,
            List<byte[]> deleted,
            SyncProgress progress) {
        this.messageId = messageId;
        this.have = have;
        this.deletePhase = deletePhase;
        this.reply = reply;
        this.persist = persist;
        this.deleted = deleted;
        this.progress = progress;
    }

    @Override
    public List<Response> atStart() {
        List<Response> batches = new ArrayList<>();
        for (int from = 0; from < deleted.size(); from += SyncResponses.MAX_SYNC_ID_SET) {
            List<byte[]> batch = deleted.subList(from, Math.min(deleted.size(), from + SyncResponses.MAX_SYNC_ID_SET));
            batches.add(SyncResponses.syncIdSet(messageId, null, true, batch));
        }
        return batches;
    }

    @Override
    public Response forEntry(StoredEntry entry, Supplier<SearchResultEntry> full) {
        byte[] uuid = EntryStamps.uuid(entry);
        if (unchanged(entry)) {
            present.add(uuid);
            if (present.size() < SyncResponses.MAX_SYNC_ID_SET) {
                return null;
            }
            return flushPresent();
        }
        SearchResultEntry response = EntryStamps.withoutComputed(full.get());
        response.addControl(SyncResponses.state(SyncState.ADD, uuid, null));
        progress.sent();
        return response;
    }

    @Override
    public List<Response> atEnd(SearchResultDone done) {
        List<Response> last = new ArrayList<>();
        if (!present.isEmpty()) {
            last.add(flushPresent());
        }
        if (persist) {
            last.add(
                    deletePhase
                            ? SyncResponses.refreshDelete(messageId, reply, true)
                            : SyncResponses.refreshPresent(messageId, reply, true));
        } else {
            done.addControl(SyncResponses.done(reply, deletePhase));
        }
        progress.refreshed(reply);
        return last;
    }

    /** Whether the consumer's state already holds the entry as it is. */
    private boolean unchanged(StoredEntry entry) {
        if (have == null || have.isEmpty()) {
            return false;
        }
        Csn csn = EntryStamps.csn(entry);
        if (csn == null) {
            return false;
        }
        Csn known = have.get(csn.sid());
        return known != null && !csn.isAfter(known);
    }

    private Response flushPresent() {
        Response batch = SyncResponses.syncIdSet(messageId, null, false, present);
        present = new ArrayList<>();
        return batch;
    }
}
