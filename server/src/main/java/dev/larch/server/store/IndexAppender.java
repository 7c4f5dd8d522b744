package dev.larch.server.store;

import java.nio.ByteBuffer;

import org.lmdbjava.Cursor;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;

/**
 * Fills an empty {@link AttributeIndex} from records given in ascending order (stored key, then
 * ID): each goes to the end of the tree ({@code MDB_APPEND} for a new key, {@code MDB_APPENDDUP}
 * for more IDs of the last key), so LMDB neither searches nor splits half-full pages, and the pages
 * come out full. A record out of order is refused by LMDB ({@code MDB_KEYEXIST}), never stored in
 * the wrong place.
 *
 * <p>The IDs of one key are gathered, up to {@value #IDS_PER_PUT} at a time, and written by one
 * {@code MDB_MULTIPLE} put (the index trees hold fixed-size duplicates): one call into LMDB per
 * key instead of per record. lmdbjava builds each put's flag mask with a stream, which was 8.2% of
 * a 200,000-entry import's writer thread (JFR), nearly all of what a one-ID put cost.
 *
 * <p>Used by the bulk import ({@code dev.larch.server.bulk}) only. Valid within the one write
 * transaction it was opened in: {@link #close()} writes what it gathered, so close it before that
 * transaction commits. Not thread-safe.
 */
public final class IndexAppender implements AutoCloseable {
    static final int IDS_PER_PUT = 1024;

    private final Cursor<ByteBuffer> cursor;
    private final ByteBuffer key = ByteBuffer.allocateDirect(Tree.MAX_KEY_BYTES);
    private final ByteBuffer ids = ByteBuffer.allocateDirect(IDS_PER_PUT * EntryIds.BYTES);
    private final WriteTxn txn;
    /** Whether {@link #key} holds the key of the records being gathered. */
    private boolean holdsKey;
    /** Whether the gathered IDs' key is not in the tree yet. */
    private boolean newKey;

    private int gathered;

    IndexAppender(WriteTxn txn, Tree tree) {
        this.txn = txn;
        this.cursor = tree.cursor(txn.txn);
    }

    /**
     * Appends ({@code storedKey[0..length)}, {@code entryId}).
     *
     * @param storedKey a key in its stored form ({@link IndexKeys#storedForm}): 1 to {@link
     *     IndexKeys#MAX_KEY_BYTES} bytes
     * @param sameKey whether the key equals the previous record's (given to this appender or to one
     *     before it in an earlier transaction); its ID must then be greater
     * @throws StoreException when the record is not after the last one
     */
    public void append(byte[] storedKey, int length, long entryId, boolean sameKey) {
        if (length < 1 || length > Tree.MAX_KEY_BYTES) {
            throw new IllegalArgumentException("index key of " + length + " bytes");
        }
        if (!sameKey || !holdsKey) {
            flush();
            key.clear();
            key.put(storedKey, 0, length).flip();
            holdsKey = true;
            newKey = !sameKey;
        } else if (gathered == IDS_PER_PUT) {
            flush();
        }
        ids.putLong(entryId);
        gathered++;
    }

    /** Writes the gathered IDs of the current key. */
    private void flush() {
        if (gathered == 0) {
            return;
        }
        ids.flip();
        try {
            // APPENDDUP with a new key's APPEND too: its IDs after the first are appended (and refused
            // out of order) as those of a key already in the tree are.
            if (newKey) {
                cursor.putMultiple(
                        key, ids, gathered, PutFlags.MDB_MULTIPLE, PutFlags.MDB_APPEND, PutFlags.MDB_APPENDDUP);
            } else {
                cursor.putMultiple(key, ids, gathered, PutFlags.MDB_MULTIPLE, PutFlags.MDB_APPENDDUP);
            }
        } catch (LmdbException e) {
            RuntimeException translated = txn.store.translateWriteFailure(e);
            throw translated instanceof StoreException
                    ? translated
                    : new StoreException("index record out of order: " + e.getMessage(), e);
        } finally {
            ids.clear();
            gathered = 0;
        }
        newKey = false;
    }

    /** Writes what is gathered and releases the cursor. */
    @Override
    public void close() {
        try {
            flush();
        } finally {
            cursor.close();
        }
    }
}
