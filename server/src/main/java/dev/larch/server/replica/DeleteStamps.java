package dev.larch.server.replica;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.directory.ChangeStamps;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.sync.SyncCookie;

/**
 * The CSNs a replica logs its deletes with. A Sync State delete or a syncIdSet carries no CSN of the
 * delete itself; the closest the provider tells is its cookie: the state that includes the delete.
 * So a delete is logged with the cookie's CSN of the provider's server ID (its highest CSN when the
 * cookie names no server ID or none of it), which sorts after every change the replica had before
 * and at or before the state it reaches; the modifier field ({@code #mmmmmm}) is raised until the CSN
 * is not in the change log yet, as several deletes may share one cookie (and the change log is keyed
 * by CSN). Without any cookie (a first refresh whose phase ends without one) the delete takes this
 * server's next CSN, as a local delete would.
 *
 * <p>One per batch run, on the writer thread.
 */
final class DeleteStamps {
    private final ChangeStamps stamps;
    private Csn last;

    DeleteStamps(ChangeStamps stamps) {
        this.stamps = stamps;
    }

    /**
     * @param cookie the cookie the delete came with, or the batch's, or the replica's stored state
     *     (with no server ID); null when there is none
     */
    byte[] next(WriteTxn txn, SyncCookie cookie) {
        Csn base = base(cookie);
        if (base == null) {
            return stamps.nextCsn().toBytes();
        }
        Csn candidate = base;
        if (last != null && sameChange(last, base)) {
            candidate = last;
        }
        while (txn.hasLoggedChange(candidate.toBytes()) || candidate.equals(last)) {
            if (candidate.modifier() == Csn.MAX_MODIFIER) {
                return stamps.nextCsn().toBytes();
            }
            candidate = Csn.of(candidate.epochMicros(), candidate.count(), candidate.sid(), candidate.modifier() + 1);
        }
        last = candidate;
        return candidate.toBytes();
    }

    private static Csn base(SyncCookie cookie) {
        if (cookie == null) {
            return null;
        }
        CsnVector csns = cookie.csns();
        Csn own = cookie.hasSid() ? csns.get(cookie.sid()) : null;
        return own != null ? own : csns.max();
    }

    /** Whether two CSNs differ in their modifier alone. */
    private static boolean sameChange(Csn a, Csn b) {
        return a.epochMicros() == b.epochMicros() && a.count() == b.count() && a.sid() == b.sid();
    }
}
