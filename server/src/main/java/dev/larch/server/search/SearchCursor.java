package dev.larch.server.search;

import java.util.ArrayDeque;
import java.util.Deque;

import dev.larch.server.directory.Directory;
import dev.larch.server.directory.ReferralObjects;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.EntryScan;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.message.SearchScope;

/**
 * Streams the entries of one search: candidates from the planner (or a walk of the scope when
 * the filter is not indexed), each kept only if it lies in scope and the filter is TRUE for it.
 * Nothing but the current position is held, so result sets of any size stream in constant memory.
 *
 * <p>Every candidate and every walked entry is one step of the search's {@link SearchBudget}, shared
 * with the planner: a {@link #next()} that would run past the look-through limit or the deadline, or
 * that finds the search abandoned, throws at that step instead of walking on, and every later call
 * throws the same.
 *
 * <p>Not thread-safe; lives inside one read transaction and must be closed before it.
 */
public final class SearchCursor implements EntryCursor {
    /** Candidates read one by one without first counting the base's children: the count would cost more. */
    static final int FEW_CANDIDATES = 64;

    private final Directory directory;
    private final ReadTxn txn;
    private final long baseId;
    private final SearchScope scope;
    private final Filter filter;
    private IdSet candidates;
    private final SearchBudget budget;
    private final EntryScreen screen;
    private final boolean baseIsRoot;

    /** The walk's cursors, innermost on top; null until a walk starts (a search of candidates makes none). */
    private Deque<IdCursor> walk;
    /** Where a resumed walk goes on; null when it starts at the beginning, or once its cursors are placed. */
    private ResumePoint walkResume;
    /** Whether a walk of the whole naming context reads the entries in ID order ({@link #walkingInIdOrder}). */
    private boolean idOrder;
    /** The ID-order walk's cursor over the entries; null until it starts. */
    private EntryScan scan;
    /** Whether the base itself is left out: the subordinates scope, a subtree without its base. */
    private boolean excludeBase;

    private int nextCandidate;
    /**
     * A one-level walk's candidates: a child not among them is skipped unread. Null when the walk
     * keeps every child, or when the candidates are read one by one instead.
     */
    private IdSet walkedAmong;

    private boolean baseVisited;
    /** The ID a paged search resumes after, or -1 when it starts at the beginning. */
    private long resumedAfter = -1;
    /** Whether this cursor goes on where an earlier one stopped. */
    private boolean resumed;

    /** Referral objects to return as continuation references; null when they are ordinary entries. */
    private ReferralObjects referrals;
    /** The {@code ref} attribute: a client that may not read it on a referral object is not told of it. */
    private String refOid;

    /**
     * A cursor with its own budget of {@code lookThroughLimit} entries, no deadline and no abandon:
     * for tools and tests.
     *
     * @param lookThroughLimit entries a walk may examine before adminLimitExceeded (0 = no limit)
     */
    public SearchCursor(
            Directory directory,
            ReadTxn txn,
            long baseId,
            SearchScope scope,
            Filter filter,
            IdSet candidates,
            long lookThroughLimit) {
        this(
                directory,
                txn,
                baseId,
                scope,
                filter,
                candidates,
                new SearchBudget(lookThroughLimit, 0, null, () -> false, System::nanoTime));
    }

    /**
     * A cursor that returns every matching entry ({@link EntryScreen#ALL}).
     *
     * @param candidates IDs from {@link SearchPlanner}, or null to walk the scope
     * @param budget the search's budget, the one its planner used
     */
    public SearchCursor(
            Directory directory,
            ReadTxn txn,
            long baseId,
            SearchScope scope,
            Filter filter,
            IdSet candidates,
            SearchBudget budget) {
        this(directory, txn, baseId, scope, filter, candidates, budget, EntryScreen.ALL);
    }

    /**
     * @param candidates IDs from {@link SearchPlanner}, or null to walk the scope
     * @param budget the search's budget, the one its planner used
     * @param screen which entries the client may see and how it may test them: an entry it may not
     *     see is skipped like one that does not match, so it never counts toward the size limit
     */
    public SearchCursor(
            Directory directory,
            ReadTxn txn,
            long baseId,
            SearchScope scope,
            Filter filter,
            IdSet candidates,
            SearchBudget budget,
            EntryScreen screen) {
        this(directory, txn, baseId, scope, filter, candidates, budget, screen, null);
    }

    /**
     * A cursor that goes on where an earlier one stopped, in this transaction: after {@code
     * resume}'s ID in a candidate list, after its DN-index positions in a scope walk.
     *
     * @param resume where the earlier cursor stopped; null to start at the beginning
     */
    public SearchCursor(
            Directory directory,
            ReadTxn txn,
            long baseId,
            SearchScope scope,
            Filter filter,
            IdSet candidates,
            SearchBudget budget,
            EntryScreen screen,
            ResumePoint resume) {
        this(
                directory,
                txn,
                new Directory.Location(baseId, directory.parentOf(txn, baseId)),
                scope,
                filter,
                candidates,
                budget,
                screen,
                resume);
    }

    /**
     * As {@link #SearchCursor(Directory, ReadTxn, long, SearchScope, Filter, IdSet, SearchBudget,
     * EntryScreen, ResumePoint)}, for a base whose parent is known already (the search located it).
     */
    public SearchCursor(
            Directory directory,
            ReadTxn txn,
            Directory.Location base,
            SearchScope scope,
            Filter filter,
            IdSet candidates,
            SearchBudget budget,
            EntryScreen screen,
            ResumePoint resume) {
        this.screen = screen;
        this.directory = directory;
        this.txn = txn;
        this.baseId = base.id();
        this.scope = scope;
        this.filter = filter;
        this.candidates = scope == SearchScope.OBJECT ? null : candidates;
        this.budget = budget;
        this.baseIsRoot = base.parentId() == DnTree.NO_PARENT;
        if (resume != null) {
            resumeAfter(resume);
        }
    }

    private void resumeAfter(ResumePoint resume) {
        resumed = true;
        baseVisited = true;
        if (candidates != null) {
            resumedAfter = resume.lastId();
            nextCandidate = firstAbove(candidates, resume.lastId());
            return;
        }
        if (scope != SearchScope.OBJECT) { // after the base of a base search nothing follows
            walkResume = resume; // placed at the first step: the walk's order may still change
        }
    }

    /** Places the walk's cursors after {@code resume}'s DN-index positions. */
    private void resumeWalk(ResumePoint resume) {
        long[] ids = resume.pathIds();
        byte[][] keys = resume.pathRdnKeys();
        if (ids.length == 0) {
            // The base itself was the last entry returned (subtree): its children come next.
            walk().push(txn.children(baseId));
            return;
        }
        if (scope == SearchScope.ONELEVEL) {
            walk().push(txn.childrenAfter(baseId, keys[0]));
            return;
        }
        // Depth-first, as nextInScope walks: each ancestor's children after the one on the path,
        // then the children of the last entry itself, on top.
        long parent = baseId;
        for (int i = 0; i < ids.length; i++) {
            walk().push(txn.childrenAfter(parent, keys[i]));
            parent = ids[i];
        }
        walk().push(txn.children(parent));
    }

    /** The index of the first ID in the ascending {@code ids} greater than {@code id}. */
    private static int firstAbove(IdSet ids, long id) {
        int low = 0;
        int high = ids.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (ids.get(mid) <= id) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /**
     * The next matching entry, or null when the search is complete.
     *
     * @throws dev.larch.server.error.ResultCodeException adminLimitExceeded past the look-through
     *     limit, timeLimitExceeded past the deadline, canceled once the search is abandoned
     */
    @Override
    public StoredEntry next() {
        while (true) {
            long id = candidates != null ? nextCandidate() : nextInScope();
            if (id == ReadTxn.NOT_FOUND) {
                return null;
            }
            if (excludeBase && id == baseId) {
                continue;
            }
            if (referrals != null && id != baseId) {
                if ((candidates != null || idOrder) && scope != SearchScope.ONELEVEL && belowReferral(id)) {
                    budget.step();
                    continue;
                }
                if (referrals.contains(id)) {
                    budget.examine();
                    StoredEntry referral = load(id, false);
                    if (referral != null && screen.mayRead(referral, refOid)) {
                        return referral; // whatever the filter says (RFC 3296 section 5.3)
                    }
                    continue;
                }
            }
            budget.examine();
            // In place: a candidate is tested, sent and dropped while the search's transaction is open.
            StoredEntry entry = load(id, true);
            if (entry != null && screen.evaluate(entry, filter) == Tri.TRUE) {
                return entry;
            }
        }
    }

    /**
     * Entry {@code id}: from the ID-order walk's cursor when there is one (copied), else looked up,
     * read in place in the transaction's memory when {@code inPlace} and copied out otherwise.
     */
    private StoredEntry load(long id, boolean inPlace) {
        if (scan != null) {
            return directory.load(txn, id, scan);
        }
        return inPlace ? directory.loadInPlace(txn, id) : directory.load(txn, id);
    }

    /**
     * Walks a whole naming context in ascending ID order, through one cursor over the entries, when
     * the search is a subtree search from the naming context's root that no index narrowed: every
     * entry is then in scope, and each is read with one step of that cursor, where a walk in tree
     * order opens a cursor of the DN index below every entry and looks each entry up by its ID. A
     * page resumes after the last ID returned, so entries added between pages come in a later page
     * and entries deleted are not missed around. Parents no longer come before their children (an
     * entry moved below a newer one comes first): a refresh that must send them so does not ask. Call
     * before the first {@link #next}; nothing changes for other searches.
     */
    public SearchCursor walkingInIdOrder() {
        idOrder = scope == SearchScope.SUBTREE && candidates == null && baseIsRoot;
        return this;
    }

    /**
     * Leaves the base out of a subtree search: the subordinates scope
     * (draft-sermersheim-ldap-subordinate-scope). Call before the first {@link #next}.
     */
    public SearchCursor excludingBase() {
        excludeBase = true;
        return this;
    }

    /**
     * Returns the referral objects in scope (but not the base) as continuation references, whatever the
     * filter, and leaves out everything below them (RFC 3296 section 5.3, RFC 4511 section 4.5.3): for a
     * search without the ManageDsaIT control. Only a client that may read {@code ref} on a referral
     * object learns of it. Call before the first {@link #next}.
     *
     * <p>Cost: a walk asks the in-memory set about each entry it steps on and never descends below a
     * referral object; a candidate list gets the referral objects' IDs added and each candidate's
     * ancestors up to the base are looked up (only while the directory holds referral objects).
     */
    public SearchCursor withReferrals(ReferralObjects referrals, String refOid) {
        this.referrals = referrals;
        this.refOid = refOid;
        if (candidates != null) {
            candidates = candidates.union(referrals.ids());
            nextCandidate = resumedAfter < 0 ? 0 : firstAbove(candidates, resumedAfter);
        }
        return this;
    }

    /**
     * Lets a one-level search with more candidates than its base has children walk the children
     * instead, keeping those among the candidates: a child that is not one costs a lookup in the
     * candidate set and no read, where reading the candidates costs one entry read each to learn its
     * parent. So a broad indexed filter under a small parent reads that parent's children, not the
     * filter's whole candidate list, and a narrow one under a parent of many children reads its few
     * candidates (the children are counted only up to the candidates' number). The entries then come
     * in the children's order (normalized RDN) rather than in ID order: a search that pages, whose
     * next page resumes by position, must not ask for it. Call after {@link #withReferrals}, before
     * the first {@link #next}; nothing changes for other scopes, a walk or a resumed cursor.
     */
    public SearchCursor walkingChildrenWhenFewer() {
        if (scope != SearchScope.ONELEVEL || candidates == null || resumed || candidates.size() <= FEW_CANDIDATES) {
            return this;
        }
        long children = 0;
        try (IdCursor c = txn.children(baseId)) {
            while (children < candidates.size() && c.next() != ReadTxn.NOT_FOUND) {
                children++;
            }
        }
        if (children < candidates.size()) {
            walkedAmong = candidates;
            candidates = null;
        }
        return this;
    }

    @Override
    public boolean isReference(StoredEntry entry) {
        return referrals != null && entry.id() != baseId && referrals.contains(entry.id());
    }

    /** Whether a candidate lies below a referral object that lies below the base. */
    private boolean belowReferral(long id) {
        for (long p = directory.parentOf(txn, id);
                p != baseId && p != DnTree.NO_PARENT;
                p = directory.parentOf(txn, p)) {
            if (referrals.contains(p)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public EntryScreen screen() {
        return screen;
    }

    /** Entries examined so far (candidates or walked), for the look-through limit and tests. */
    public long examined() {
        return budget.examined();
    }

    /** The next candidate in scope; one out of scope is a step of the budget, not an entry examined. */
    private long nextCandidate() {
        while (nextCandidate < candidates.size()) {
            long id = candidates.get(nextCandidate++);
            if (inScope(id)) {
                return id;
            }
            budget.step();
        }
        return ReadTxn.NOT_FOUND;
    }

    private boolean inScope(long id) {
        return switch (scope) {
            case OBJECT -> id == baseId;
            case ONELEVEL -> directory.parentOf(txn, id) == baseId;
            case SUBTREE -> baseIsRoot || directory.isWithin(txn, id, baseId);
        };
    }

    private long nextInScope() {
        if (idOrder) {
            if (scan == null) {
                scan = txn.entryScan(walkResume == null ? 0 : walkResume.lastId());
            }
            return scan.next();
        }
        if (walkResume != null) {
            resumeWalk(walkResume);
            walkResume = null;
        }
        return switch (scope) {
            case OBJECT -> {
                if (baseVisited) {
                    yield ReadTxn.NOT_FOUND;
                }
                baseVisited = true;
                yield baseId;
            }
            case ONELEVEL -> {
                if (!baseVisited) {
                    baseVisited = true;
                    walk().push(txn.children(baseId));
                }
                if (walk().isEmpty()) {
                    yield ReadTxn.NOT_FOUND;
                }
                long id = walk.peek().next();
                while (walkedAmong != null && id != ReadTxn.NOT_FOUND && !walkedAmong.contains(id)) {
                    budget.step(); // a child the filter's candidates rule out: not read
                    id = walk.peek().next();
                }
                if (id == ReadTxn.NOT_FOUND) {
                    walk.pop().close();
                }
                yield id;
            }
            default -> {
                if (!baseVisited) {
                    baseVisited = true;
                    walk().push(txn.children(baseId));
                    yield baseId;
                }
                while (!walk().isEmpty()) {
                    long id = walk.peek().next();
                    if (id == ReadTxn.NOT_FOUND) {
                        walk.pop().close();
                        continue;
                    }
                    if (referrals == null || !referrals.contains(id)) {
                        walk().push(txn.children(id)); // nothing below a referral object is searched
                    }
                    yield id;
                }
                yield ReadTxn.NOT_FOUND;
            }
        };
    }

    @Override
    public void close() {
        if (scan != null) {
            scan.close();
            scan = null;
        }
        while (walk != null && !walk.isEmpty()) {
            walk.pop().close();
        }
    }

    private Deque<IdCursor> walk() {
        if (walk == null) {
            walk = new ArrayDeque<>();
        }
        return walk;
    }
}
