package dev.larch.server.search.sort;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.search.EntryCursor;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.Filter;
import dev.larch.server.search.ResumePoint;
import dev.larch.server.search.Tri;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.extras.controls.vlv.VirtualListViewResultCode;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.controls.SortResponseImpl;
import org.apache.directory.api.ldap.model.message.controls.SortResultCode;

/**
 * Server-side sort (RFC 2891) over a search's matching entries: on the first {@link #next} it reads
 * them all from the inner cursor, keeping only each one's ID and sort keys (never the entry), sorts
 * those, then returns the entries in that order, loading each again. At most {@code maxEntries} are
 * kept; one more ends the search with adminLimitExceeded (and sortResult adminLimitExceeded), so the
 * memory of a sort is bounded by {@code limits.max-sort-entries} whatever the client asks.
 *
 * <p>Ties are broken by entry ID, so the order is total and a later page of a paged search resumes
 * exactly after the last entry sent ({@link #resumePointAfter}), whether or not that entry still exists.
 *
 * <p>Not thread-safe; lives inside one read transaction.
 */
public final class SortedCursor implements EntryCursor {
    private final EntryCursor inner;
    private final SortOrder order;
    private final int maxEntries;
    private final Directory directory;
    private final ReadTxn txn;
    private final Filter filter;
    private final ResumePoint resume;
    /** The virtual list view over the sorted entries; null for all of them. */
    private final ListView view;

    private int end;

    private long[] ids;
    private String[][] keys;
    private Integer[] byOrder;
    private int position;
    private boolean sorted;
    /**
     * Continuation references the inner cursor met, returned before the sorted entries; kept on the
     * first page only (each later page of a paged sort meets them again). Counted toward {@code maxEntries}.
     */
    private final List<StoredEntry> references = new ArrayList<>();

    private SortResultCode outcome = SortResultCode.SUCCESS;
    private VirtualListViewResultCode viewOutcome = VirtualListViewResultCode.SUCCESS;

    /**
     * @param inner the search's entries in store order, each already judged by its filter and screen
     * @param filter the search's filter, judged again on each entry as it is returned so the screen
     *     shows that entry's attributes
     * @param resume where an earlier page of the same sorted search stopped; null to start at the top
     */
    public SortedCursor(
            EntryCursor inner,
            SortOrder order,
            int maxEntries,
            Directory directory,
            ReadTxn txn,
            Filter filter,
            ResumePoint resume) {
        this(inner, order, maxEntries, directory, txn, filter, resume, null);
    }

    /** @param view the virtual list view to return of the sorted entries; null for all */
    public SortedCursor(
            EntryCursor inner,
            SortOrder order,
            int maxEntries,
            Directory directory,
            ReadTxn txn,
            Filter filter,
            ResumePoint resume,
            ListView view) {
        this.view = view;
        this.inner = inner;
        this.order = order;
        this.maxEntries = maxEntries;
        this.directory = directory;
        this.txn = txn;
        this.filter = filter;
        this.resume = resume;
    }

    @Override
    public StoredEntry next() {
        if (!sorted) {
            sort();
        }
        if (!references.isEmpty()) {
            return references.removeLast();
        }
        while (position < end) {
            int i = byOrder[position++];
            StoredEntry entry = directory.load(txn, ids[i]);
            // Judged again so the screen's read rights are this entry's (it remembers the last one judged).
            if (entry != null && inner.screen().evaluate(entry, filter) == Tri.TRUE) {
                return entry;
            }
        }
        return null;
    }

    private void sort() {
        List<Long> idList = new ArrayList<>();
        List<String[]> keyList = new ArrayList<>();
        try {
            for (StoredEntry entry = inner.next(); entry != null; entry = inner.next()) {
                if (idList.size() + references.size() >= maxEntries) {
                    outcome = SortResultCode.ADMINLIMITEXCEEDED;
                    throw new ResultCodeException(
                            ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                            "more than " + maxEntries + " entries to sort (limits.max-sort-entries); narrow the"
                                    + " search or page it without sorting");
                }
                if (inner.isReference(entry)) {
                    if (resume == null) {
                        references.addFirst(entry);
                    }
                    continue;
                }
                idList.add(entry.id());
                keyList.add(order.keysOf(entry, inner.screen()));
            }
        } catch (ResultCodeException e) {
            if (outcome == SortResultCode.SUCCESS) {
                outcome = sortResultFor(e.code());
            }
            throw e;
        }
        ids = idList.stream().mapToLong(Long::longValue).toArray();
        keys = keyList.toArray(String[][]::new);
        byOrder = new Integer[ids.length];
        for (int i = 0; i < byOrder.length; i++) {
            byOrder[i] = i;
        }
        Arrays.sort(byOrder, (a, b) -> compare(keys[a], ids[a], keys[b], ids[b]));
        sorted = true;
        end = byOrder.length;
        if (resume != null && resume.sortKeys() != null) {
            position = firstAfter(resume.sortKeys(), resume.lastId());
        }
        if (view != null) {
            int atOrAfter = view.byValue() ? firstAtOrAfter(order.firstKeyOf(view.assertionValue())) : 0;
            if (!view.place(byOrder.length, atOrAfter)) {
                viewOutcome = VirtualListViewResultCode.OFFSETRANGEERROR;
                throw new ResultCodeException(
                        ResultCodeEnum.UNWILLING_TO_PERFORM, "virtual list view offset out of range (1 or more)");
            }
            position = view.firstIndex();
            end = view.endIndex();
        }
    }

    /** The first position in sort order whose first key is at or after {@code key}. */
    private int firstAtOrAfter(String key) {
        int low = 0;
        int high = byOrder.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (order.compareFirstKey(keys[byOrder[mid]][0], key) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private int compare(String[] keysA, long idA, String[] keysB, long idB) {
        int c = order.compare(keysA, keysB);
        return c != 0 ? c : Long.compare(idA, idB);
    }

    /** The first position in sort order after the entry with {@code lastKeys} and {@code lastId}. */
    private int firstAfter(String[] lastKeys, long lastId) {
        int low = 0;
        int high = byOrder.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            int i = byOrder[mid];
            if (compare(keys[i], ids[i], lastKeys, lastId) <= 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Where the next page of this sorted search resumes after {@code last}, an entry this cursor returned. */
    public ResumePoint resumePointAfter(StoredEntry last) {
        // The search may have read one entry past it (to learn whether another page follows).
        for (int p = position - 1; p >= 0; p--) {
            int i = byOrder[p];
            if (ids[i] == last.id()) {
                return ResumePoint.sorted(last.id(), keys[i]);
            }
        }
        throw new IllegalStateException("entry " + last.id() + " was not returned by this cursor");
    }

    private static SortResultCode sortResultFor(ResultCodeEnum code) {
        return switch (code) {
            case TIME_LIMIT_EXCEEDED -> SortResultCode.TIMELIMITEXCEEDED;
            case ADMIN_LIMIT_EXCEEDED -> SortResultCode.ADMINLIMITEXCEEDED;
            case BUSY -> SortResultCode.BUSY;
            case UNWILLING_TO_PERFORM -> SortResultCode.UNWILLINGTOPERFORM;
            default -> SortResultCode.OTHER;
        };
    }

    @Override
    public boolean isReference(StoredEntry entry) {
        return inner.isReference(entry);
    }

    @Override
    public EntryScreen screen() {
        return inner.screen();
    }

    @Override
    public void describeEnd(SearchResultDone done) {
        inner.describeEnd(done);
        done.addControl(response(outcome, null));
        if (view != null) {
            if (viewOutcome == VirtualListViewResultCode.SUCCESS && outcome != SortResultCode.SUCCESS) {
                viewOutcome = outcome == SortResultCode.ADMINLIMITEXCEEDED
                        ? VirtualListViewResultCode.ADMINLIMITEXCEEDED
                        : VirtualListViewResultCode.OTHER;
            }
            done.addControl(view.response(viewOutcome));
        }
    }

    /** The sortResult control (RFC 2891 section 1.2). */
    static SortResponseImpl response(SortResultCode code, String attribute) {
        SortResponseImpl control = new SortResponseImpl();
        control.setSortResult(code);
        if (attribute != null) {
            control.setAttributeName(attribute);
        }
        return control;
    }

    @Override
    public void close() {
        inner.close();
    }
}
