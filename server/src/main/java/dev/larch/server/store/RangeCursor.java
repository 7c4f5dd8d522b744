package dev.larch.server.store;

import java.nio.ByteBuffer;

import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.SeekOp;

/**
 * Walks the records of one {@link Tree} inside a {@link KeyRange}, one (key, value) pair per {@link
 * #next()}, duplicates included. Buffers it hands out point into the memory map and are valid until
 * the next move or the transaction's end. Not thread-safe; close it before its transaction.
 */
final class RangeCursor implements AutoCloseable {
    private final Cursor<ByteBuffer> cursor;
    private final KeyRange range;
    private boolean started;
    private boolean done;

    RangeCursor(Cursor<ByteBuffer> cursor, KeyRange range) {
        this.cursor = cursor;
        this.range = range;
    }

    /** Moves to the next record in the range; false (and for good) once there is none. */
    boolean next() {
        if (done) {
            return false;
        }
        boolean found;
        if (started) {
            found = cursor.seek(SeekOp.MDB_NEXT);
        } else {
            started = true;
            ByteBuffer start = range.start();
            if (start == null) {
                found = cursor.first();
            } else {
                found = cursor.get(start, GetOp.MDB_SET_RANGE);
                if (found && range.startExclusive() && KeyRange.compare(cursor.key(), start) == 0) {
                    found = cursor.seek(SeekOp.MDB_NEXT_NODUP); // past the start key and all its values
                }
            }
        }
        if (!found || !range.admits(cursor.key())) {
            done = true;
            return false;
        }
        return true;
    }

    ByteBuffer key() {
        return cursor.key();
    }

    ByteBuffer value() {
        return cursor.val();
    }

    @Override
    public void close() {
        cursor.close();
    }
}
