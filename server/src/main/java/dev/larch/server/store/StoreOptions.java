package dev.larch.server.store;

/**
 * How the LMDB environment is opened.
 *
 * @param mapSizeBytes the largest the data file may grow (sparse: it does not take disk up front)
 * @param maxReaders concurrent read transactions, including paused searches
 * @param durableWrites whether each commit is synced before it is acknowledged
 */
public record StoreOptions(long mapSizeBytes, int maxReaders, boolean durableWrites) {}
