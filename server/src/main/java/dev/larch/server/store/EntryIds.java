package dev.larch.server.store;

import java.nio.ByteBuffer;

/**
 * The on-disk form of an entry ID, wherever one is stored: the key of the {@linkplain EntryTree
 * entries tree}, the value of the {@linkplain DnTree DN tree} and each sorted duplicate of an
 * {@linkplain AttributeIndex attribute index}. Eight bytes big-endian, so that LMDB's unsigned byte
 * order is numeric order: the entries tree is scanned in ID order and an index key's IDs come back
 * as a sorted list. IDs are positive; 0 names no entry.
 */
final class EntryIds {
    /** Bytes of one stored ID. */
    static final int BYTES = 8;

    private EntryIds() {}

    /** Writes {@code id} into {@code reuse} (a direct buffer of at least 8 bytes) and returns it. */
    static ByteBuffer write(ByteBuffer reuse, long id) {
        reuse.clear();
        reuse.putLong(0, id);
        reuse.limit(BYTES);
        return reuse;
    }

    /** A new direct buffer holding {@code id}. */
    static ByteBuffer of(long id) {
        return write(ByteBuffer.allocateDirect(BYTES), id);
    }

    /** The ID at the buffer's position. */
    static long read(ByteBuffer b) {
        return b.getLong(b.position());
    }
}
