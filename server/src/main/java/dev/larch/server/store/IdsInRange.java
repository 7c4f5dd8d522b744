package dev.larch.server.store;

import java.nio.ByteBuffer;

/** Streams the entry IDs a {@link RangeCursor} passes, read from each record's key or value. */
final class IdsInRange implements IdCursor {
    enum Yield {
        /** The key is an ID (the entries tree). */
        KEY,
        /** The value is an ID (the DN tree, an attribute index). */
        VALUE
    }

    private final RangeCursor cursor;
    private final Yield yield;

    IdsInRange(RangeCursor cursor, Yield yield) {
        this.cursor = cursor;
        this.yield = yield;
    }

    @Override
    public long next() {
        if (!cursor.next()) {
            return ReadTxn.NOT_FOUND;
        }
        return EntryIds.read(yield == Yield.KEY ? cursor.key() : cursor.value());
    }

    /** Visits every record {@code cursor} passes, whose values are entry IDs, with the key copied; closes it. */
    static void visitAll(RangeCursor cursor, ReadTxn.RecordVisitor visitor) {
        try (cursor) {
            while (cursor.next()) {
                ByteBuffer key = cursor.key();
                byte[] copy = new byte[key.remaining()];
                key.duplicate().get(copy);
                visitor.visit(copy, EntryIds.read(cursor.value()));
            }
        }
    }

    @Override
    public void close() {
        cursor.close();
    }
}
