package dev.larch.server.store;

/**
 * Walks change log records in CSN order ({@link ReadTxn#changesAfter}). Not thread-safe; close it
 * before its transaction.
 */
public final class ChangeLogCursor implements AutoCloseable {
    private final RangeCursor cursor;

    ChangeLogCursor(RangeCursor cursor) {
        this.cursor = cursor;
    }

    /** The next record, or null once there is none. */
    public LoggedChange next() {
        return cursor.next() ? ChangeLogTree.decode(cursor.key(), cursor.value()) : null;
    }

    @Override
    public void close() {
        cursor.close();
    }
}
