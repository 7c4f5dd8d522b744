package dev.larch.server.read;

import dev.larch.server.protocol.Operation;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.message.SearchRequest;

/**
 * The refresh of a content synchronization (RFC 4533) run as a search: it decides, in the search's
 * own read transaction, which entries the search walks and how each is sent. The search keeps
 * everything else: its scope, filter, access control, limits, back-pressure and worker slices.
 */
public interface SyncRefresh {
    /**
     * Decides the refresh in {@code txn}, the snapshot the search reads.
     *
     * @param baseId the search's base entry
     * @throws dev.larch.server.error.ResultCodeException when the refresh cannot be served (a cookie
     *     the change log no longer covers, without a reload hint)
     */
    Plan plan(ReadTxn txn, long baseId);

    /**
     * Whether the search is held to no search limit (size, time, look-through): the configured
     * replication consumer's ({@code replication.consumer-dn}), whose refresh must reach the whole tree.
     */
    boolean exemptFromLimits();

    /**
     * @param candidates the entries to consider, in ID order; null to walk the whole scope in tree order
     *     (parents before children)
     * @param shaper what is sent for each entry and at the end
     */
    record Plan(IdSet candidates, ResultShaper shaper) {}

    /** A search run as a refresh ({@code SearchHandler}'s). */
    @FunctionalInterface
    interface Search {
        void run(Operation op, SearchRequest request, SyncRefresh refresh);
    }
}
