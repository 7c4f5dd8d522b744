package dev.larch.server.search.sort;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.EntryCursor;
import dev.larch.server.search.EntryScreen;
import org.apache.directory.api.ldap.model.message.SearchResultDone;

/**
 * A search whose non-critical sort request could not be honoured (RFC 2891 section 2.2): its entries
 * in store order, and the sortResult control saying why they are not sorted.
 */
public final class SortRefusedCursor implements EntryCursor {
    private final EntryCursor inner;
    private final SortOrder.Refusal refusal;

    public SortRefusedCursor(EntryCursor inner, SortOrder.Refusal refusal) {
        this.inner = inner;
        this.refusal = refusal;
    }

    @Override
    public StoredEntry next() {
        return inner.next();
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
        report(done, refusal);
    }

    /** Adds the sortResult control saying why the sort was refused. */
    public static void report(SearchResultDone done, SortOrder.Refusal refusal) {
        done.addControl(SortedCursor.response(refusal.code(), refusal.attribute()));
    }

    @Override
    public void close() {
        inner.close();
    }
}
