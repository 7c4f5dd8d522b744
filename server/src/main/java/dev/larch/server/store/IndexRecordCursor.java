package dev.larch.server.store;

import java.nio.ByteBuffer;

/**
 * Walks every record of one attribute index in its stored order: by key (unsigned bytes, a proper
 * prefix first), then by ID. The key is copied into one array the cursor reuses, so a walk of a
 * hundred million records allocates nothing per record: what a whole-index comparison (the
 * verifier's) reads.
 *
 * <p>Not thread-safe; close it before its transaction.
 */
public final class IndexRecordCursor implements AutoCloseable {
    private final RangeCursor cursor;
    private byte[] key = new byte[64];
    private int keyLength;
    private long id;

    IndexRecordCursor(RangeCursor cursor) {
        this.cursor = cursor;
    }

    /** Moves to the next record; false at the end. */
    public boolean next() {
        if (!cursor.next()) {
            return false;
        }
        ByteBuffer k = cursor.key();
        int length = k.remaining();
        if (key.length < length) {
            key = new byte[Math.max(length, 2 * key.length)];
        }
        k.get(k.position(), key, 0, length);
        keyLength = length;
        id = EntryIds.read(cursor.value());
        return true;
    }

    /** The current record's key: {@link #keyLength()} bytes from 0, valid until the next move. */
    public byte[] keyArray() {
        return key;
    }

    public int keyLength() {
        return keyLength;
    }

    /** The current record's entry ID. */
    public long id() {
        return id;
    }

    @Override
    public void close() {
        cursor.close();
    }
}
