package dev.larch.server.read.psearch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import dev.larch.server.access.AccessControl;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.ChangeObserver;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.DirectoryChange;
import dev.larch.server.error.FailureResults;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.SubordinateScope;
import dev.larch.server.read.Paging;
import dev.larch.server.search.AttributeSelection;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.controls.PersistentSearch;
import org.apache.directory.api.ldap.model.message.controls.SortRequest;
import org.apache.directory.api.ldap.model.name.Dn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The persistent searches of the server (draft-ietf-ldapext-psearch-03) and the observer of every
 * change the {@link Directory} makes.
 *
 * <p>Each change is judged for each waiting search inside the write transaction that makes it, on
 * the writer thread: a delete is seen as the entry was, with its parents still there, so access
 * control judges it exactly as a search of the entry would have been. The notifications are handed to
 * the searches only when the transaction committed ({@link WriteTxn#onCommit}); an aborted write sends
 * nothing. Handing over never blocks: each search has a bounded queue ({@link Subscriber}). The cost
 * on the writer is one filter and access check per waiting search whose base holds the entry, bounded
 * by {@code limits.max-persistent-searches}.
 *
 * <p>Ordering: a search is registered on the writer thread between two writes ({@link
 * WriteQueue#runBetweenWrites}), and its initial phase (changesOnly false) starts only then. A change
 * committed before the registration is in the initial phase's read snapshot; one committed after is
 * notified. So no change is missed; one that commits while the initial phase runs may be both sent as
 * an entry and notified.
 *
 * <p>Bounds: at most {@code maxSearches} wait at once (adminLimitExceeded beyond); a waiting search
 * holds no read transaction. The client's time limit, if any, ends it with timeLimitExceeded; the
 * server's size, time and look-through limits bound the initial phase as they bound any search.
 * Abandon, Cancel, a bind, unbind or the connection closing end it (it is forgotten at the next
 * change or registration); {@link #close} ends every one with unavailable.
 *
 * <p>Thread-safe.
 */
public final class PersistentSearches implements ChangeObserver {
    private static final Logger LOG = LoggerFactory.getLogger(PersistentSearches.class);

    private final Directory directory;
    private final FilterCompiler filters;
    private final WriteQueue writes;
    private final ChangeView.Sources sources;
    private final int maxSearches;
    private final int queueBound;
    /** Searches registered or being registered; never above {@link #maxSearches}. */
    private final AtomicInteger count = new AtomicInteger();
    /** Iterated by the writer for every change; added to on the writer only. */
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();

    private volatile boolean closed;

    /**
     * @param maxSearches {@code limits.max-persistent-searches}
     * @param queueBound {@code limits.persistent-search-queue}
     */
    public PersistentSearches(
            Directory directory,
            FilterCompiler filters,
            SearchPlanner planner,
            AccessControl access,
            WriteQueue writes,
            int maxSearches,
            int queueBound) {
        this.directory = directory;
        this.filters = filters;
        this.writes = writes;
        GroupGraph groups = new GroupGraph(directory, filters, planner);
        this.sources = new ChangeView.Sources(access, filters, groups, new ResultEntries(directory));
        this.maxSearches = maxSearches;
        this.queueBound = queueBound;
    }

    /** Persistent searches waiting for changes now, for tests and monitoring. */
    public int waiting() {
        purgeGone();
        return count.get();
    }

    /**
     * Starts a persistent search, on the operation's event loop. It is registered on the writer
     * thread, then, unless {@code changesOnly}, {@code initialSearch} sends the entries already there
     * as a normal search of {@code request} would.
     *
     * @throws ResultCodeException unwillingToPerform with paged results, sort or a virtual list view,
     *     or on the root DSE or the subschema; noSuchObject when the base does not exist or the client
     *     may not read it;
     *     adminLimitExceeded past {@code limits.max-persistent-searches}; unavailable while stopping
     */
    public void start(
            Operation op,
            SearchRequest request,
            PersistentSearch control,
            BiConsumer<Operation, SearchRequest> initialSearch) {
        ChangeView view = view(op, request, control.getChangeTypes(), control.isReturnECs());
        register(op, request, view, control.isChangesOnly() ? null : initialSearch);
    }

    /**
     * Starts a search that is told of every later change as {@code notifications} shape it, after
     * {@code refresh} (which runs as {@link #start}'s initial phase and ends in success): content
     * synchronization in refreshAndPersist mode (RFC 4533). Bounded and refused as {@link #start}.
     */
    public void startShaped(
            Operation op,
            SearchRequest request,
            NotificationShaper notifications,
            BiConsumer<Operation, SearchRequest> refresh) {
        ChangeView view = view(op, request, ALL_CHANGE_TYPES, false).shapedBy(notifications);
        register(op, request, view, refresh);
    }

    /** The draft's change type bits, all set: add 1, delete 2, modify 4, modDN 8. */
    private static final int ALL_CHANGE_TYPES = 15;

    private ChangeView view(Operation op, SearchRequest request, int changeTypes, boolean returnEcs) {
        for (String other : List.of(Paging.OID, SortRequest.OID, VirtualListViewRequest.OID)) {
            if (request.getControl(other) != null) {
                throw new ResultCodeException(
                        ResultCodeEnum.UNWILLING_TO_PERFORM,
                        "a persistent search cannot be combined with control " + other);
            }
        }
        Dn base = directory.schemaNormalizer().dn(request.getBase());
        if (base.isEmpty() || base.equals(directory.schemaNormalizer().dn(ResultEntries.SUBSCHEMA_DN))) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNWILLING_TO_PERFORM,
                    "a persistent search needs a base in the directory: the root DSE and the subschema do not change");
        }
        if (!directory.holds(base)) {
            throw new ResultCodeException(ResultCodeEnum.NO_SUCH_OBJECT, "no naming context holds " + base.getName());
        }
        long baseId;
        try (ReadTxn txn = directory.store().read()) {
            // A base the client may not read is a missing one, changes only or not.
            baseId = sources.access().requireVisible(op.session(), txn, base);
        }
        return new ChangeView(
                request.getMessageId(),
                op.session(),
                changeTypes,
                returnEcs,
                baseId,
                request.getScope(),
                SubordinateScope.requested(request),
                filters.compile(request.getFilter()),
                request.getFilter(),
                AttributeSelection.of(
                        request.getAttributes(), directory.schemaNormalizer().schema()),
                request.getTypesOnly(),
                sources);
    }

    /** Registers the search between two writes, then runs its initial phase (none when null). */
    private void register(
            Operation op, SearchRequest request, ChangeView view, BiConsumer<Operation, SearchRequest> initialSearch) {
        reserve();
        Subscriber[] self = new Subscriber[1];
        Subscriber subscriber = new Subscriber(op, request, view, queueBound, () -> {
            left(self[0]);
            view.ended();
        });
        self[0] = subscriber;
        boolean queued = writes.runBetweenWrites(() -> {
            subscribers.add(subscriber);
            if (closed) {
                subscriber.end(ResultCodeEnum.UNAVAILABLE, "the server is shutting down");
                return;
            }
            try {
                op.executor().execute(() -> begin(subscriber, request, initialSearch));
            } catch (RejectedExecutionException e) {
                subscriber.leave(); // the connection's event loop is gone
            }
        });
        if (!queued) {
            subscriber.leave();
            throw new ResultCodeException(ResultCodeEnum.UNAVAILABLE, "the server is shutting down");
        }
    }

    /** Takes one of the {@code maxSearches} places, first forgetting searches that are gone. */
    private void reserve() {
        if (closed) {
            throw new ResultCodeException(ResultCodeEnum.UNAVAILABLE, "the server is shutting down");
        }
        purgeGone();
        if (count.incrementAndGet() > maxSearches) {
            count.decrementAndGet();
            throw new ResultCodeException(
                    ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                    "too many persistent searches are waiting for changes (" + maxSearches
                            + ", limits.max-persistent-searches); try again later");
        }
    }

    /** Gives back the place of a search that stopped waiting. Called exactly once per search. */
    private void left(Subscriber subscriber) {
        subscribers.remove(subscriber);
        count.decrementAndGet();
    }

    /** Forgets searches whose client abandoned them or whose connection closed. */
    private void purgeGone() {
        for (Subscriber s : subscribers) {
            if (s.isGone()) {
                s.leave();
            }
        }
    }

    /** On the event loop, once registered: the time limit, then the initial phase or none (null). */
    private void begin(
            Subscriber subscriber, SearchRequest request, BiConsumer<Operation, SearchRequest> initialSearch) {
        if (subscriber.isGone()) {
            subscriber.leave();
            return;
        }
        if (request.getTimeLimit() > 0) {
            subscriber.limitTime(request.getTimeLimit());
        }
        if (initialSearch == null) {
            subscriber.goLive();
            return;
        }
        Operation initial = new InitialPhase(subscriber.operation(), subscriber);
        try {
            initialSearch.accept(initial, request);
        } catch (RuntimeException e) {
            subscriber.end(FailureResults.fill(request.getResultResponse(), e));
        }
    }

    /** Whether a waiting persistent search wants changes of this type and stamp (no store access). */
    @Override
    public boolean wants(DirectoryChange change) {
        for (Subscriber subscriber : subscribers) {
            if (!subscriber.isGone() && subscriber.view().wants(change)) {
                return true;
            }
        }
        return false;
    }

    /**
     * On the writer thread, inside the transaction: judges the change for every waiting search and
     * hands the notifications over once the transaction commits.
     */
    @Override
    public void changed(WriteTxn txn, DirectoryChange change) {
        if (subscribers.isEmpty()) {
            return;
        }
        Ancestry ancestry = new Ancestry(directory, txn, change.entry());
        List<Subscriber> to = null;
        List<SearchResultEntry> notifications = null;
        for (Subscriber subscriber : subscribers) {
            if (subscriber.isGone()) {
                subscriber.leave();
                continue;
            }
            ChangeView view = subscriber.view();
            if (!view.wants(change)) {
                continue;
            }
            SearchResultEntry notification;
            try {
                if (!view.inScope(change.entry(), ancestry)) {
                    continue;
                }
                notification = view.notification(txn, change);
            } catch (RuntimeException e) {
                // Never the client's write: only this search fails.
                LOG.warn(
                        "conn={} op={} persistent search failed on a change of {}: {}",
                        subscriber.operation().session().id(),
                        subscriber.operation().request().getMessageId(),
                        change.entry().dn(),
                        e.toString());
                subscriber.end(FailureResults.fill(
                        ((SearchRequest) subscriber.operation().request()).getResultResponse(), e));
                continue;
            }
            if (notification != null) {
                if (to == null) {
                    to = new ArrayList<>();
                    notifications = new ArrayList<>();
                }
                to.add(subscriber);
                notifications.add(notification);
            }
        }
        if (to != null) {
            List<Subscriber> recipients = to;
            List<SearchResultEntry> sent = notifications;
            // A notice, not a reaction: no later write is judged by it, so it does not end a group commit.
            txn.noticeOnCommit(() -> {
                for (int i = 0; i < recipients.size(); i++) {
                    Subscriber recipient = recipients.get(i);
                    try {
                        recipient.offer(sent.get(i));
                    } catch (RuntimeException e) {
                        // After the commit: the client's write succeeded whatever happens to a listener.
                        LOG.warn("persistent search dropped after a failure to deliver: {}", e.toString());
                        recipient.leave();
                    }
                }
            });
        }
    }

    /** Ends every persistent search with unavailable; later ones are refused. */
    @Override
    public void close() {
        closed = true;
        for (Subscriber subscriber : subscribers) {
            subscriber.end(ResultCodeEnum.UNAVAILABLE, "the server is shutting down");
        }
    }
}
