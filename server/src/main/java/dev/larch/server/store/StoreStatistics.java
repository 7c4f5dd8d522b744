package dev.larch.server.store;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A store's LMDB numbers at one moment, for monitoring.
 *
 * @param mapSizeBytes the map size: the most the data file may grow to
 * @param pageSizeBytes LMDB's page size
 * @param pagesUsed pages in use as of the last transaction (the last page number plus one)
 * @param lastTransactionId the ID of the last committed write transaction
 * @param readersInUse reader slots taken (open read transactions, those threads keep reset for
 *     their next read, and slots of dead processes not yet cleared)
 * @param maxReaders the size of the reader table
 * @param recordsByDatabase records (key, value pairs; duplicates counted) per named database:
 *     {@code entries}, {@code dn}, {@code attrs}, {@code meta} and one per index, as
 *     {@code <kind>:<attribute OID>}; sorted by name
 */
public record StoreStatistics(
        long mapSizeBytes,
        long pageSizeBytes,
        long pagesUsed,
        long lastTransactionId,
        int readersInUse,
        int maxReaders,
        Map<String, Long> recordsByDatabase) {

    public StoreStatistics {
        recordsByDatabase = Collections.unmodifiableMap(new TreeMap<>(recordsByDatabase));
    }
}
