package dev.larch.server.read.psearch;

import dev.larch.server.directory.DirectoryChange;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;

/**
 * Reshapes the change notifications of a search that is not a persistent search of the draft: a
 * content synchronization in refreshAndPersist mode (RFC 4533), whose entries carry a Sync State
 * control ({@link PersistentSearches#startShaped}). Called on the writer thread, inside the write
 * transaction: quick, never blocking, never throwing.
 */
public interface NotificationShaper {
    /** Whether the search is told of {@code change} at all (cheap; no store access). */
    boolean wants(DirectoryChange change);

    /**
     * What the client is sent for {@code change}, given {@code screened}, the entry as the client's
     * access lets it see it (for a delete, as it was); null for nothing.
     */
    SearchResultEntry shape(DirectoryChange change, SearchResultEntry screened);

    /** The search stopped waiting for changes, however it ended; called once, from any thread. */
    default void ended() {}
}
