package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodings of LMDB keys and values.
 *
 * <p>Entry IDs are 8-byte big-endian longs so that LMDB's byte order is numeric order: index
 * duplicates come back as sorted ID lists and the entries database is scanned in ID order.
 */
public final class Keys {
    /** The parent ID of a naming context's root entry. */
    public static final long NO_PARENT = 0L;
    /** LMDB's default maximum key size; keys are cut to stay below it. */
    public static final int MAX_KEY_BYTES = 511;

    private Keys() {
    }

    /** A direct buffer holding {@code id}, ready to use as a key or a duplicate value. */
    public static ByteBuffer id(long id) {
        ByteBuffer b = ByteBuffer.allocateDirect(8).order(ByteOrder.BIG_ENDIAN);
        b.putLong(0, id);
        return b;
    }

    /** Writes {@code id} into a reusable 8-byte direct buffer and returns it. */
    static ByteBuffer id(ByteBuffer reuse, long id) {
        reuse.clear();
        reuse.putLong(0, id);
        return reuse;
    }

    /** The DN-index key of a child: its parent's ID followed by its normalized RDN. */
    static ByteBuffer child(long parentId, byte[] normalizedRdn) {
        if (normalizedRdn.length + 8 > MAX_KEY_BYTES) {
            throw new StoreException("RDN longer than " + (MAX_KEY_BYTES - 8) + " bytes once normalized");
        }
        ByteBuffer b = ByteBuffer.allocateDirect(8 + normalizedRdn.length);
        b.putLong(parentId).put(normalizedRdn).flip();
        return b;
    }

    /** A direct buffer holding {@code bytes} cut to the maximum key size (index keys only). */
    static ByteBuffer indexKey(byte[] bytes) {
        int n = Math.min(bytes.length, MAX_KEY_BYTES);
        ByteBuffer b = ByteBuffer.allocateDirect(Math.max(n, 1));
        b.put(bytes, 0, n).flip();
        return b;
    }

    /** Writes {@code bytes}, cut to the maximum key size, into a reusable direct buffer. */
    static ByteBuffer indexKey(ByteBuffer reuse, byte[] bytes) {
        reuse.clear();
        if (bytes.length == 0) {
            reuse.put((byte) 0); // LMDB keys cannot be empty; an empty value gets a one-byte key
        } else {
            reuse.put(bytes, 0, Math.min(bytes.length, MAX_KEY_BYTES));
        }
        reuse.flip();
        return reuse;
    }

    static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        return b;
    }

    static long readId(ByteBuffer b) {
        return b.getLong(b.position());
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
