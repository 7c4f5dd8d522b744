package dev.larch.server.store;

import java.nio.ByteBuffer;

/**
 * Walks the entries tree in ascending ID order through one cursor, handing each entry's ID and its
 * serialized form: a caller that reads every entry of a range reads each with one step of the cursor
 * instead of a descent of the tree per ID. Made by {@link ReadTxn#entryScan}.
 *
 * <p>Not thread-safe; close it before its transaction.
 */
public final class EntryScan implements AutoCloseable {
    private final RangeCursor cursor;

    EntryScan(RangeCursor cursor) {
        this.cursor = cursor;
    }

    /** Moves to the next entry and returns its ID, or {@link ReadTxn#NOT_FOUND} once there is none. */
    public long next() {
        return cursor.next() ? EntryIds.read(cursor.key()) : ReadTxn.NOT_FOUND;
    }

    /**
     * The serialized entry {@link #next} moved to; it points into the memory map and is valid until
     * the next move or the transaction's end. Other reads of the transaction leave it in place.
     */
    public ByteBuffer entry() {
        return cursor.value();
    }

    @Override
    public void close() {
        cursor.close();
    }
}
