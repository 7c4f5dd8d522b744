package dev.larch.server.read;

import java.util.List;
import java.util.function.Supplier;

import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;

/**
 * Changes what a streaming search sends for its entries and at its end: the refresh of a content
 * synchronization (RFC 4533) sends each entry with a Sync State control, or only its UUID in a batch,
 * and ends with a Sync Info message or a Sync Done control.
 *
 * <p>Called by the thread that owns the search at the time (its event loop, or the worker running a
 * slice), never by two at once.
 */
public interface ResultShaper {
    /** What to send before the first entry (a refresh's deleted UUIDs). */
    default List<Response> atStart() {
        return List.of();
    }

    /**
     * What to send for {@code entry}, which the search found and its client may see.
     *
     * @param full builds the search result entry the client would get without the shaper
     * @return the response to send now, or null to send nothing for this entry now
     */
    Response forEntry(StoredEntry entry, Supplier<SearchResultEntry> full);

    /**
     * What to send after the last entry of a search that succeeded, before {@code done}, which it may
     * add controls to. Not called when the search ends otherwise.
     */
    List<Response> atEnd(SearchResultDone done);
}
