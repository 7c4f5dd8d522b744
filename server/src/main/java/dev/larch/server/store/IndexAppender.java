package dev.larch.server.store;

import java.nio.ByteBuffer;

import org.lmdbjava.Cursor;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;

/**
 * Fills an empty {@link AttributeIndex} from records given in ascending order (stored key, then
 * ID): each goes to the end of the tree ({@code MDB_APPEND} for a new key, {@code MDB_APPENDDUP}
 * for another ID of the last key), so LMDB neither searches nor splits half-full pages, and the
 * pages come out full. A record out of order is refused by LMDB ({@code MDB_KEYEXIST}), never
 * stored in the wrong place.
 *
 * <p>Used by the bulk import ({@code dev.larch.server.ldif.bulk}) only. Valid within the one write
 * transaction it was opened in; close it before that ends. Not thread-safe.
 */
public final class IndexAppender implements AutoCloseable {
    private final Cursor<ByteBuffer> cursor;
    private final ByteBuffer key = ByteBuffer.allocateDirect(Tree.MAX_KEY_BYTES);
    private final ByteBuffer id = ByteBuffer.allocateDirect(EntryIds.BYTES);
    private final WriteTxn txn;

    IndexAppender(WriteTxn txn, Tree tree) {
        this.txn = txn;
        this.cursor = tree.cursor(txn.txn);
    }

    /**
     * Appends ({@code storedKey[0..length)}, {@code entryId}).
     *
     * @param storedKey a key in its stored form ({@link IndexKeys#storedForm}): 1 to {@link
     *     IndexKeys#MAX_KEY_BYTES} bytes
     * @param sameKey whether the key equals the previous record's; its ID must then be greater
     * @throws StoreException when the record is not after the last one
     */
    public void append(byte[] storedKey, int length, long entryId, boolean sameKey) {
        if (length < 1 || length > Tree.MAX_KEY_BYTES) {
            throw new IllegalArgumentException("index key of " + length + " bytes");
        }
        key.clear();
        key.put(storedKey, 0, length).flip();
        try {
            cursor.put(key, EntryIds.write(id, entryId), sameKey ? PutFlags.MDB_APPENDDUP : PutFlags.MDB_APPEND);
        } catch (LmdbException e) {
            RuntimeException translated = txn.store.translateWriteFailure(e);
            throw translated instanceof StoreException
                    ? translated
                    : new StoreException("index record out of order: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        cursor.close();
    }
}
