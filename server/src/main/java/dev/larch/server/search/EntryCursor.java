package dev.larch.server.search;

import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.message.SearchResultDone;

/**
 * The entries one search returns, in the order it returns them: {@link SearchCursor} in store order,
 * or a cursor that reorders it (server-side sort).
 *
 * <p>Not thread-safe; lives inside one read transaction and must be closed before it.
 */
public interface EntryCursor extends AutoCloseable {
    /**
     * The next entry to return, or null when the search is complete.
     *
     * @throws dev.larch.server.error.ResultCodeException when a limit stops the search
     */
    StoredEntry next();

    /**
     * Whether {@code entry}, returned by {@link #next}, stands for a search continuation reference
     * (RFC 4511 section 4.5.3): a referral object met in scope, sent as its {@code ref} URLs rather than
     * as an entry and not counted as one.
     */
    default boolean isReference(StoredEntry entry) {
        return false;
    }

    /** What the client may see; whoever builds the results asks it which attributes to show. */
    EntryScreen screen();

    /** Adds what this cursor reports in the search's final response (a response control), however it ended. */
    default void describeEnd(SearchResultDone done) {}

    @Override
    void close();
}
