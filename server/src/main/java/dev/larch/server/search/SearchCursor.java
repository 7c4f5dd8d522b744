package dev.larch.server.search;

import java.util.ArrayDeque;
import java.util.Deque;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.Keys;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchScope;

/**
 * Streams the entries of one search: candidates from the planner (or a walk of the scope when
 * the filter is not indexed), each kept only if it lies in scope and the filter is TRUE for it.
 * Nothing but the current position is held, so result sets of any size stream in constant memory.
 *
 * <p>Not thread-safe; lives inside one read transaction and must be closed before it.
 */
public final class SearchCursor implements AutoCloseable {
    private final Directory directory;
    private final ReadTxn txn;
    private final long baseId;
    private final SearchScope scope;
    private final Filter filter;
    private final IdSet candidates;
    private final long lookThroughLimit;
    private final boolean baseIsRoot;

    private final Deque<IdCursor> walk = new ArrayDeque<>();
    private int nextCandidate;
    private boolean baseVisited;
    private long examined;

    /**
     * @param candidates IDs from {@link SearchPlanner}, or null to walk the scope
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
        this.directory = directory;
        this.txn = txn;
        this.baseId = baseId;
        this.scope = scope;
        this.filter = filter;
        this.candidates = scope == SearchScope.OBJECT ? null : candidates;
        this.lookThroughLimit = lookThroughLimit <= 0 ? Long.MAX_VALUE : lookThroughLimit;
        this.baseIsRoot = directory.parentOf(txn, baseId) == Keys.NO_PARENT;
    }

    /** The next matching entry, or null when the search is complete. */
    public StoredEntry next() {
        while (true) {
            long id = candidates != null ? nextCandidate() : nextInScope();
            if (id == ReadTxn.NOT_FOUND) {
                return null;
            }
            if (++examined > lookThroughLimit) {
                throw new ResultCodeException(
                        ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                        "search examined more than " + lookThroughLimit + " entries; use an indexed filter");
            }
            StoredEntry entry = directory.load(txn, id);
            if (entry != null && filter.evaluate(entry) == Tri.TRUE) {
                return entry;
            }
        }
    }

    /** Entries examined so far (candidates or walked), for the look-through limit and tests. */
    public long examined() {
        return examined;
    }

    private long nextCandidate() {
        while (nextCandidate < candidates.size()) {
            long id = candidates.get(nextCandidate++);
            if (inScope(id)) {
                return id;
            }
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
                    walk.push(txn.children(baseId));
                }
                if (walk.isEmpty()) {
                    yield ReadTxn.NOT_FOUND;
                }
                long id = walk.peek().next();
                if (id == ReadTxn.NOT_FOUND) {
                    walk.pop().close();
                }
                yield id;
            }
            default -> {
                if (!baseVisited) {
                    baseVisited = true;
                    walk.push(txn.children(baseId));
                    yield baseId;
                }
                while (!walk.isEmpty()) {
                    long id = walk.peek().next();
                    if (id == ReadTxn.NOT_FOUND) {
                        walk.pop().close();
                        continue;
                    }
                    walk.push(txn.children(id));
                    yield id;
                }
                yield ReadTxn.NOT_FOUND;
            }
        };
    }

    @Override
    public void close() {
        while (!walk.isEmpty()) {
            walk.pop().close();
        }
    }
}
