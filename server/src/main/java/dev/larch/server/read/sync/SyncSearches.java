package dev.larch.server.read.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.read.Paging;
import dev.larch.server.read.SyncRefresh;
import dev.larch.server.read.psearch.PersistentSearches;
import dev.larch.server.sync.SyncControlException;
import dev.larch.server.sync.SyncRequest;
import dev.larch.server.sync.SyncRequestControlFactory;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.controls.PersistentSearch;
import org.apache.directory.api.ldap.model.message.controls.SortRequest;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Serves searches carrying the Sync Request control (RFC 4533): a refresh in refreshOnly mode; a
 * refresh, then every later change, in refreshAndPersist mode.
 *
 * <p>Who may: anyone may search; a sync search is an ordinary search to access control (the
 * administrator sees every entry, anyone else what the access rules let it read) and to the limits
 * (except {@code replication.consumer-dn}'s, held to no size, time or look-through limit; a refresh
 * is a long search, bounded by {@code limits.max-long-searches} and the paused-search
 * bounds; the persist stage counts as a persistent search, bounded by {@code
 * limits.max-persistent-searches} and {@code limits.persistent-search-queue}). A malformed control or
 * cookie is answered protocolError; sort, paged results, a virtual list view or the persistent
 * search control with it, unwillingToPerform.
 *
 * <p>Thread-safe.
 */
public final class SyncSearches {
    /** The Sync Request control. */
    public static final String OID = SyncRequest.OID;

    private final int ourSid;
    /** The replication identity held to no search limit; null for none. */
    private final Dn consumer;

    private final PersistentSearches persistent;
    private final List<Consumer> consumers = new CopyOnWriteArrayList<>();
    /** Entries sent by every sync search since start, ended ones and refreshOnly ones included. */
    private final AtomicLong entriesSent = new AtomicLong();

    /**
     * @param ourSid this server's ID ({@code replication.server-id}), in the cookies it sends
     * @param consumer the bind DN whose sync searches are held to no search limit ({@code
     *     replication.consumer-dn}), schema-aware; null for none
     * @param persistent where the persist stage waits for changes
     */
    public SyncSearches(int ourSid, Dn consumer, PersistentSearches persistent) {
        this.ourSid = ourSid;
        this.consumer = consumer;
        this.persistent = persistent;
        // The codec's own decoder drops the connection on a malformed value; ours answers protocolError.
        SyncRequestControlFactory.install(LdapApiServiceFactory.getSingleton());
    }

    /**
     * Starts the sync search {@code request}; {@code search} runs its refresh.
     *
     * @throws ResultCodeException as the class says, or as the search would
     */
    public void start(Operation op, SearchRequest request, SyncRefresh.Search search) {
        SyncRequest sync;
        try {
            sync = SyncRequest.from(request);
        } catch (SyncControlException e) {
            throw new ResultCodeException(e.resultCode(), e.getMessage());
        }
        for (String other : List.of(Paging.OID, SortRequest.OID, VirtualListViewRequest.OID, PersistentSearch.OID)) {
            if (request.getControl(other) != null) {
                throw new ResultCodeException(
                        ResultCodeEnum.UNWILLING_TO_PERFORM,
                        "a sync search (RFC 4533) cannot be combined with control " + other);
            }
        }
        String identity =
                op.session().isAnonymous() ? "" : op.session().boundDn().getName();
        SyncProgress progress = new SyncProgress(identity, op.session().id(), sync.mode(), entriesSent);
        boolean exempt = consumer != null
                && !op.session().isAnonymous()
                && consumer.equals(op.session().boundDn());
        Refresh refresh = new Refresh(ourSid, sync, request.getMessageId(), progress, exempt);
        if (sync.mode() == SyncRequest.Mode.REFRESH_ONLY) {
            search.run(op, request, refresh);
            return;
        }
        Consumer consumer = new Consumer(progress, op);
        consumers.add(consumer);
        SyncNotifications notifications =
                new SyncNotifications(ourSid, sync.cookie(), progress, () -> consumers.remove(consumer));
        try {
            persistent.startShaped(op, request, notifications, (initial, same) -> search.run(initial, same, refresh));
        } catch (RuntimeException e) {
            consumers.remove(consumer);
            throw e;
        }
    }

    /**
     * The consumers in refreshAndPersist mode now, for monitoring. One that abandoned its search or
     * closed its connection is left out at once, though the persistent searches forget it only at
     * the next change or search.
     */
    public List<SyncProgress> consumers() {
        List<SyncProgress> now = new ArrayList<>(consumers.size());
        for (Consumer c : consumers) {
            if (!c.op().isAbandoned()) {
                now.add(c.progress());
            }
        }
        return now;
    }

    /** A refreshAndPersist search and its operation, which tells whether the client still waits. */
    private record Consumer(SyncProgress progress, Operation op) {}

    /**
     * The entries (and change notices naming an entry) every sync search sent since start, in
     * either mode, those that ended included: it only grows, so it can be shown as a counter.
     */
    public long entriesSent() {
        return entriesSent.get();
    }
}
