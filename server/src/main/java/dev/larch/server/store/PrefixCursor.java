package dev.larch.server.store;

import java.nio.ByteBuffer;

import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.SeekOp;

/** Walks the keys that start with a prefix, yielding the ID in each key or value. */
final class PrefixCursor implements IdCursor {
    enum Yield {
        KEY,
        VALUE
    }

    private final Cursor<ByteBuffer> cursor;
    private final ByteBuffer prefix;
    private final Yield yield;
    /** Where the walk starts (a key that starts with the prefix), exclusive; null for the prefix's first key. */
    private final ByteBuffer after;

    private boolean started;
    private boolean done;

    PrefixCursor(Cursor<ByteBuffer> cursor, ByteBuffer prefix, Yield yield) {
        this(cursor, prefix, yield, null);
    }

    /** A cursor over the keys with {@code prefix} that sort after {@code after}. */
    PrefixCursor(Cursor<ByteBuffer> cursor, ByteBuffer prefix, Yield yield, ByteBuffer after) {
        this.cursor = cursor;
        this.prefix = prefix;
        this.yield = yield;
        this.after = after;
    }

    @Override
    public long next() {
        if (done) {
            return ReadTxn.NOT_FOUND;
        }
        boolean found;
        if (!started) {
            started = true;
            if (after != null) {
                found = cursor.get(after, GetOp.MDB_SET_RANGE);
                if (found && cursor.key().equals(after)) {
                    found = cursor.seek(SeekOp.MDB_NEXT);
                }
            } else {
                found = prefix.capacity() == 0 ? cursor.first() : cursor.get(prefix, GetOp.MDB_SET_RANGE);
            }
        } else {
            found = cursor.seek(SeekOp.MDB_NEXT);
        }
        if (!found || !hasPrefix(cursor.key())) {
            done = true;
            return ReadTxn.NOT_FOUND;
        }
        return Keys.readId(yield == Yield.KEY ? cursor.key() : cursor.val());
    }

    private boolean hasPrefix(ByteBuffer key) {
        int n = prefix.capacity();
        if (key.remaining() < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (key.get(key.position() + i) != prefix.get(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        cursor.close();
    }
}
