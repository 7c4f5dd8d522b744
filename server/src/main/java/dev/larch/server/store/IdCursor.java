package dev.larch.server.store;

/** A stream of entry IDs read lazily from the store; close it before its transaction. */
public interface IdCursor extends AutoCloseable {
    /** The next ID, or {@link ReadTxn#NOT_FOUND} when exhausted. */
    long next();

    @Override
    void close();
}
