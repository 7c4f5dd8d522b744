package dev.larch.server.read;

import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.larch.config.ResultControls;
import dev.larch.server.access.AccessControl;
import dev.larch.server.control.AssertionControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.FailureResults;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.SubordinateScope;
import dev.larch.server.read.psearch.PersistentSearches;
import dev.larch.server.read.sync.SyncSearches;
import dev.larch.server.referral.ContinuationReferences;
import dev.larch.server.referral.ManageDsaIt;
import dev.larch.server.search.AttributeSelection;
import dev.larch.server.search.AttributeSelections;
import dev.larch.server.search.EntryCursor;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.MatchedValues;
import dev.larch.server.search.Plan;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.search.ResumePoint;
import dev.larch.server.search.SearchBudget;
import dev.larch.server.search.SearchCursor;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.search.Tri;
import dev.larch.server.search.sort.ListView;
import dev.larch.server.search.sort.SortOrder;
import dev.larch.server.search.sort.SortRefusedCursor;
import dev.larch.server.search.sort.SortResolution;
import dev.larch.server.search.sort.SortedCursor;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.work.WorkerPool;
import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewRequest;
import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewResultCode;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.message.controls.PersistentSearch;
import org.apache.directory.api.ldap.model.message.controls.SortRequest;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Answers search requests (RFC 4511 section 4.5): resolves the base and plans candidates on the
 * connection's event loop, then streams matching entries from a read transaction ({@link
 * StreamingSearch}): indexed searches on the event loop, those that walk their scope, sort or have
 * thousands of candidates on the worker pool.
 */
public final class SearchHandler {
    private final Directory directory;
    private final FilterCompiler filters;
    private final SearchPlanner planner;
    private final AccessControl access;
    private final VirtualEntries virtualEntries;
    private final CurrentSearchLimits limits;
    private final ResultEntries results;
    private final AttributeSelections selections;
    private final PausedSearches pauses;
    private final WorkerPool workers;
    private final SearchSlots longSearches;
    private final Paging paging;
    private final GroupGraph groups;
    private final AssertionControl assertion;
    private final int maxSortEntries;
    private final ContinuationReferences references;
    /** Null: the persistent search control is not served (it is then not offered either). */
    private final PersistentSearches persistent;
    /** Null: the sync request control is not served. */
    private final SyncSearches sync;

    /**
     * @param limits the bounds of every search (the administrator's only if they say so)
     * @param pauses the bounds on searches waiting for their clients to read, for everyone
     * @param workers where searches that may run long examine entries, or null to keep every search
     *     on its event loop
     * @param longSearches the bound on searches running on {@code workers} at once
     * @param resultControls the bounds of simple paged results (RFC 2696) and server-side sort (RFC 2891)
     * @param persistent serves persistent searches; null when the control is not offered
     * @param sync serves content synchronization (RFC 4533); null when the control is not offered
     */
    public SearchHandler(
            Directory directory,
            FilterCompiler filters,
            SearchPlanner planner,
            AccessControl access,
            VirtualEntries virtualEntries,
            CurrentSearchLimits limits,
            PausedSearches pauses,
            WorkerPool workers,
            SearchSlots longSearches,
            ResultControls resultControls,
            PersistentSearches persistent,
            SyncSearches sync) {
        this.persistent = persistent;
        this.sync = sync;
        this.paging = new Paging(resultControls);
        this.maxSortEntries = resultControls.maxSortEntries();
        this.directory = directory;
        this.filters = filters;
        this.planner = planner;
        this.access = access;
        this.virtualEntries = virtualEntries;
        this.limits = limits;
        this.groups = new GroupGraph(directory, filters, planner);
        this.assertion = new AssertionControl(filters, access);
        this.results = new ResultEntries(directory);
        this.selections = new AttributeSelections(directory.schemaNormalizer().schema());
        this.pauses = pauses;
        this.workers = workers;
        this.longSearches = longSearches;
        this.references = new ContinuationReferences(directory.schemaNormalizer());
    }

    /** The sync searches this handler serves, for monitoring; null when the control is not offered. */
    public SyncSearches syncSearches() {
        return sync;
    }

    public void handle(Operation op, SearchRequest request) {
        if (sync != null && request.getControl(SyncSearches.OID) != null) {
            // Its refresh is this very search, shaped by the sync search; then, maybe, its changes.
            sync.start(op, request, this::search);
            return;
        }
        if (persistent != null && request.getControl(PersistentSearch.OID) instanceof PersistentSearch control) {
            // Its initial phase, if any, is this very search, run once the change feed holds it.
            persistent.start(op, request, control, this::search);
            return;
        }
        search(op, request);
    }

    private void search(Operation op, SearchRequest request) {
        search(op, request, null);
    }

    /**
     * Runs {@code request}; with {@code refresh}, as the refresh of a content synchronization, which
     * decides the entries walked and what is sent for them.
     */
    void search(Operation op, SearchRequest request, SyncRefresh refresh) {
        Filter filter = filters.compile(request.getFilter());
        AttributeSelection selection =
                selections.of(request.getAttributes()).withValues(MatchedValues.of(request, filters));
        Dn base = directory.schemaNormalizer().dn(request.getBase());
        SearchLimits bounds = refresh != null && refresh.exemptFromLimits()
                ? SearchLimits.NONE
                : limits.get().forSession(op.session().isAdmin());
        PagedSearch page = paging.start(op.session(), request, base, bounds.sizeLimit());
        if (page != null && page.abandons()) {
            // RFC 2696: a page size of 0 ends the paged search (its cookie was taken, so it is released).
            SearchResultDone done = (SearchResultDone) request.getResultResponse();
            done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            done.addControl(page.responseControl(null, 0));
            op.complete(done);
            return;
        }
        if (base.isEmpty() || base.equals(virtualEntries.subschemaDn())) {
            answerVirtual(op, request, base, filter, selection, page);
            return;
        }
        SortRequest sortControl = request.getControl(SortRequest.OID) instanceof SortRequest r ? r : null;
        SortResolution sort = sortControl == null
                ? null
                : SortOrder.resolve(
                        sortControl.getSortKeys(), directory.schemaNormalizer().schema());
        if (sort instanceof SortOrder.Refusal refusal && sortControl.isCritical()) {
            // RFC 2891 section 2.2: a critical sort that cannot be done fails the search, saying why.
            SearchResultDone done = (SearchResultDone) request.getResultResponse();
            done.getLdapResult().setResultCode(ResultCodeEnum.UNAVAILABLE_CRITICAL_EXTENSION);
            done.getLdapResult().setDiagnosticMessage("cannot sort: " + refusal.message());
            SortRefusedCursor.report(done, refusal);
            op.complete(done);
            return;
        }
        ListView view = request.getControl(VirtualListViewRequest.OID) instanceof VirtualListViewRequest v
                ? new ListView(v)
                : null;
        if (view != null && (!(sort instanceof SortOrder) || page != null)) {
            // The VLV draft: a view is a window on a sorted list; without a usable sort there is none.
            SearchResultDone done = (SearchResultDone) request.getResultResponse();
            done.getLdapResult().setResultCode(ResultCodeEnum.UNWILLING_TO_PERFORM);
            done.getLdapResult()
                    .setDiagnosticMessage(
                            page != null
                                    ? "a virtual list view cannot be combined with paged results"
                                    : "a virtual list view needs a usable server-side sort control");
            done.addControl(view.response(
                    page != null
                            ? VirtualListViewResultCode.UNWILLINGTOPERFORM
                            : VirtualListViewResultCode.SORTCONTROLMISSING));
            if (sort instanceof SortOrder.Refusal refusal) {
                SortRefusedCursor.report(done, refusal);
            }
            op.complete(done);
            return;
        }
        if (!directory.holds(base)) {
            throw new ResultCodeException(ResultCodeEnum.NO_SUCH_OBJECT, "no naming context holds " + base.getName());
        }
        ReadTxn txn = directory.store().read();
        try {
            EntryScreen screen = access.forSearch(op.session(), txn, request.getFilter(), filters);
            // A base the client may not read answers as a missing one: noSuchObject, the same matched DN.
            Directory.Location baseAt = access.requireVisible(op.session(), txn, base, screen);
            long baseId = baseAt.id();
            if (AssertionControl.carriedBy(request)) {
                // Decoded only then: most searches carry no assertion, and a base is a whole entry.
                assertion.require(request, op.session(), txn, directory.load(txn, baseId));
            }
            SearchBudget budget = bounds.budget(request.getTimeLimit(), op.startNanos(), op::isAbandoned);
            Found found = new Found(txn, baseAt, budget, screen);
            if (workers != null && GroupGraph.hasInChain(filter)) {
                // Group walks read many entries: on a worker, never on the event loop.
                expandOnWorker(
                        op,
                        request,
                        filter,
                        found,
                        rest -> proceed(op, request, rest, bounds, selection, page, sort, view, refresh));
                return;
            }
            // Group membership through nested groups is read here, in the search's transaction.
            proceed(
                    op,
                    request,
                    found.with(groups.bind(txn, filter, budget, screen)),
                    bounds,
                    selection,
                    page,
                    sort,
                    view,
                    refresh);
        } catch (RuntimeException e) {
            txn.close();
            throw e;
        }
    }

    /** What a search has found out before it plans: its transaction, base, budget, screen and bound filter. */
    private record Found(ReadTxn txn, Directory.Location base, SearchBudget budget, EntryScreen screen, Filter bound) {
        Found(ReadTxn txn, Directory.Location base, SearchBudget budget, EntryScreen screen) {
            this(txn, base, budget, screen, null);
        }

        Found with(Filter boundFilter) {
            return new Found(txn, base, budget, screen, boundFilter);
        }
    }

    /**
     * Walks the in-chain terms of {@code filter} on a worker under the search's budget, then goes on
     * with {@code then} on the operation's event loop; the transaction, screen and budget move with
     * the search (one thread at a time). A full pool answers busy; a walk that fails (a limit, abandon)
     * ends the search with its result code.
     */
    private void expandOnWorker(Operation op, SearchRequest request, Filter filter, Found found, Consumer<Found> then) {
        Runnable walk = () -> {
            Found bound;
            try {
                bound = found.with(groups.bind(found.txn(), filter, found.budget(), found.screen()));
            } catch (RuntimeException e) {
                found.txn().close();
                onEventLoop(op, () -> fail(op, request, e));
                return;
            }
            boolean handedOver = onEventLoop(op, () -> {
                try {
                    then.accept(bound);
                } catch (RuntimeException e) {
                    bound.txn().close();
                    fail(op, request, e);
                }
            });
            if (!handedOver) {
                bound.txn().close();
            }
        };
        if (!workers.trySubmit(walk)) {
            throw new ResultCodeException(
                    ResultCodeEnum.BUSY,
                    "the server is busy; try the search again later (limits.worker-threads, limits.worker-queue)");
        }
    }

    /** Runs {@code task} on the operation's event loop; false when the event loop is gone. */
    private static boolean onEventLoop(Operation op, Runnable task) {
        try {
            op.executor().execute(task);
            return true;
        } catch (RejectedExecutionException gone) {
            // the event loop is gone: so is the connection, and nobody waits for the answer
            return false;
        }
    }

    /** Plans and streams the search once its filter is bound; closes the transaction if it fails. */
    private void proceed(
            Operation op,
            SearchRequest request,
            Found found,
            SearchLimits bounds,
            AttributeSelection selection,
            PagedSearch page,
            SortResolution sort,
            ListView view,
            SyncRefresh refresh) {
        ReadTxn txn = found.txn();
        long baseId = found.base().id();
        Filter bound = found.bound();
        SearchBudget budget = found.budget();
        EntryScreen screen = found.screen();
        EntryCursor cursor = null;
        try {
            IdSet candidates = null;
            SyncRefresh.Plan refreshPlan = refresh == null ? null : refresh.plan(txn, baseId);
            if (refreshPlan != null) {
                // The refresh decides: a walk of the scope sends parents before children.
                candidates = refreshPlan.candidates();
            } else if (request.getScope() != SearchScope.OBJECT) {
                Plan plan = plannerFor().plan(txn, bound, budget);
                op.recordPlan(plan);
                candidates = plan.ids();
            }
            ResumePoint resume = page == null ? null : page.resume();
            SearchCursor inStoreOrder = new SearchCursor(
                    directory,
                    txn,
                    found.base(),
                    request.getScope(),
                    bound,
                    candidates,
                    budget,
                    screen,
                    sort instanceof SortOrder ? null : resume);
            if (SubordinateScope.requested(request)) {
                inStoreOrder.excludingBase();
            }
            // The volatile flag first: with no referral object in the directory nothing else is asked.
            boolean sendReferences = !directory.referrals().isEmpty() && !ManageDsaIt.requested(request);
            if (sendReferences) {
                inStoreOrder.withReferrals(directory.referrals(), references.refOid());
            }
            if (refreshPlan == null) {
                // Not for a refresh, which sends parents before their children.
                inStoreOrder.walkingInIdOrder();
            }
            if (page == null && refreshPlan == null) {
                // Not for a paged search: its next page resumes in the order this page was read.
                inStoreOrder.walkingChildrenWhenFewer();
            }
            cursor = switch (sort) {
                case null -> inStoreOrder;
                case SortOrder order ->
                    new SortedCursor(inStoreOrder, order, maxSortEntries, directory, txn, bound, resume, view);
                case SortOrder.Refusal refusal -> new SortRefusedCursor(inStoreOrder, refusal);
            };
            Function<StoredEntry, ResumePoint> resumeAfter = null;
            if (page != null) {
                resumeAfter = cursor instanceof SortedCursor sorted
                        ? sorted::resumePointAfter
                        : last -> ResumePoint.after(
                                directory,
                                txn,
                                baseId,
                                last,
                                directory.schemaNormalizer().dn(last.dn()));
            }
            new StreamingSearch(
                            op,
                            request,
                            txn,
                            cursor,
                            selection,
                            results,
                            pauses,
                            workers,
                            longSearches,
                            page == null ? limit(request.getSizeLimit(), bounds.sizeLimit()) : page.sizeLimit(),
                            limit(request.getTimeLimit(), bounds.timeLimitSeconds()),
                            page,
                            resumeAfter)
                    .withReferences(sendReferences ? references : null)
                    .withShaper(refreshPlan == null ? null : refreshPlan.shaper())
                    .start(StreamingSearch.Placement.of(request.getScope(), candidates, sort instanceof SortOrder));
        } catch (RuntimeException e) {
            if (cursor != null) {
                cursor.close();
            }
            txn.close();
            throw e;
        }
    }

    /**
     * The planner, or while every long-search slot is taken one that reads no key past what a search
     * without such a slot may have: a search that would need more could only be refused busy, and a
     * flood of them (thousands of broad subtree searches) would otherwise spend the event loops
     * reading whole keys for nothing, delaying every other client on them.
     */
    private SearchPlanner plannerFor() {
        return workers == null || longSearches.hasRoom() ? planner : planner.capped(StreamingSearch.BATCH);
    }

    /** The root DSE and the subschema subentry answer base searches only. */
    private void answerVirtual(
            Operation op,
            SearchRequest request,
            Dn base,
            Filter filter,
            AttributeSelection selection,
            PagedSearch page) {
        StoredEntry entry = base.isEmpty() ? virtualEntries.rootDse() : virtualEntries.subschema();
        SearchResultDone done = (SearchResultDone) request.getResultResponse();
        if (request.getScope() != SearchScope.OBJECT) {
            if (base.isEmpty()) {
                done.getLdapResult().setResultCode(ResultCodeEnum.NO_SUCH_OBJECT);
                done.getLdapResult().setDiagnosticMessage("the root DSE answers base-scope searches only");
                op.complete(done);
                return;
            }
        }
        // The subschema subentry is a leaf: a one-level search below it finds nothing, not itself.
        boolean inScope = request.getScope() != SearchScope.ONELEVEL;
        if (inScope) {
            try (ReadTxn txn = directory.store().read()) {
                EntryScreen screen = access.forSearch(op.session(), txn, request.getFilter(), filters);
                if (screen.evaluate(entry, filter) == Tri.TRUE) {
                    op.send(results.build(
                            request.getMessageId(), entry, selection, request.getTypesOnly(), screen, null));
                }
            }
        }
        done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        if (page != null) {
            done.addControl(page.responseControl(null, 0)); // one entry at most: a single page
        }
        op.complete(done);
    }

    /** The stricter of a client's limit and the server's, where 0 means none. */
    private static int limit(long requested, int server) {
        if (requested <= 0) {
            return server;
        }
        if (server <= 0) {
            return (int) Math.min(requested, Integer.MAX_VALUE);
        }
        return (int) Math.min(requested, server);
    }

    /** Fails the operation with the error's result code. */
    static void fail(Operation op, SearchRequest request, Throwable failure) {
        op.complete(FailureResults.fill(request.getResultResponse(), failure));
    }
}
