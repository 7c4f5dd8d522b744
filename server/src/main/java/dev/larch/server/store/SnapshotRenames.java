package dev.larch.server.store;

/**
 * The rename count ({@link MetaTree}) of the newest snapshot a read transaction began on, kept so
 * that the readers of one snapshot (every reader, while nothing is written) read it from the store
 * once between them instead of once each: that look-up, made as every read transaction began, was
 * 1.4% of the server's CPU under UnboundID authrate at 100k entries (async-profiler, itimer).
 *
 * <p>Keyed by LMDB's transaction ID, which names a snapshot: read transactions with the same ID see
 * the same committed state, so the same count. Write transactions neither use nor fill it: their ID
 * is that of a state not committed yet, which the next readers' ID will equal once it commits.
 *
 * <p>Thread-safe: one immutable pair behind a volatile reference; racing fills store equal pairs
 * or pairs of different snapshots, either of which is right for its own ID.
 */
final class SnapshotRenames {
    private record Known(long txnId, long renames) {}

    private volatile Known last = new Known(-1, 0);

    /** The rename count {@code txn} sees. */
    long of(ReadTxn txn, MetaTree meta) {
        if (!txn.txn.isReadOnly()) {
            return meta.renames(txn);
        }
        long txnId = txn.txn.getId();
        Known known = last;
        if (known.txnId() == txnId) {
            return known.renames();
        }
        long renames = meta.renames(txn);
        last = new Known(txnId, renames);
        return renames;
    }
}
